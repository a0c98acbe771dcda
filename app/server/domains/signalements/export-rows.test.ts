// The xlsx export's lean rows (export-rows.ts) give every cell the value the full DTOs give it: the same
// reports, in the same order, each column's value equal, the notes included (docs/decisions/0050).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signalementListSchema } from '#shared/schemas/signalements';
import { openReadOnlyDatabase, type Orm } from '#server/db/client';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import type { SessionUser } from '../auth/session';
import { COLUMNS, exportBatches, exportIds, NOTES_COLUMN, type ExportRow } from './export';
import { batchAfter, xlsxBatches } from './export-rows';
import type { ListFilters } from './list-filters';
import { filterConditions, orderBy } from './queries';

async function cells(batches: AsyncIterable<ExportRow[]>, t: TestApp) {
  const out: unknown[][] = [];
  for await (const rows of batches)
    for (const r of rows) out.push([...COLUMNS, NOTES_COLUMN].map((c) => c.value(r, t.ctx.calendar)));
  return out;
}

describe('the size of the export’s batches', () => {
  const row = (description: string, notes?: string): ExportRow =>
    ({
      item: {
        description,
        autreObject: null,
        autreCanalPrincipal: null,
        fokontany: null,
        actionProvisoires: [],
        preuves: [],
      },
      counts: { auteurs: 0, sources: 0, victimes: 0 },
      ...(notes === undefined ? {} : { notes }),
    }) as unknown as ExportRow;
  it('holds as many reports as its texts allow at the last batch’s mean, at most the maximum', () => {
    expect(batchAfter([row('court')], 1000)).toBe(1000);
    expect(batchAfter([], 1000)).toBe(1000);
    // The longest description allowed: 200 reports (4,000,000 characters).
    expect(batchAfter([row('x'.repeat(20_000)), row('x'.repeat(20_000))], 1000)).toBe(200);
    expect(batchAfter([row('x'.repeat(20_000)), row('')], 1000)).toBe(400);
    // Notes count, and a batch holds at least one report however long.
    expect(batchAfter([row('', 'n'.repeat(8_000_000))], 1000)).toBe(1);
  });
});

describe.each(await testEngines())('xlsx export rows on %s', (engine) => {
  let t: TestApp;
  let viewer: SessionUser;
  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('agent@example.mg', 'ROLE_USER', 'Agent Export');
    await t.user('autre@example.mg', 'ROLE_USER', 'Autre Agent');
    const cookie = await t.login('agent@example.mg');
    const other = await t.login('autre@example.mg');
    const full = await createReport(t, cookie, {
      signalementAt: '2025-01-10',
      subjects: ['/api/subjects/FRAUDE', '/api/subjects/CORRUPTION'],
      description: 'Détournement de fonds',
    });
    const project = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: { cookie },
      payload: { sigle: 'PAGI', designation: 'Programme de gouvernance', owner: '/api/partenaires/IVY' },
    });
    expect(project.statusCode, project.body).toBe(201);
    const patched = await mergePatch(t, cookie, `/api/signalements/${full}`, {
      projects: [`/api/projects/${project.json().code}`],
      niveau: '/api/niveaux/CRITIQUE',
      statut: '/api/statuts/CLOTURE',
      actionProvisoires: ['Appel', 'Visite'],
      preuves: ['photo', '@malveillant'],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const texts = await mergePatch(t, cookie, `/api/signalements/${full}`, {
      resultat: '/api/resultats/RESULTAT_AVERE',
    });
    expect(texts.statusCode, texts.body).toBe(200);
    const { member: districts } = (
      await t.app.inject({ url: '/api/districts?region.code=MG11', headers: { cookie } })
    ).json();
    const { member: communes } = (
      await t.app.inject({ url: `/api/communes?district.code=${districts[0].code}`, headers: { cookie } })
    ).json();
    const place = await mergePatch(t, cookie, `/api/signalements/${full}/localisation`, {
      region: '/api/regions/MG11',
      district: `/api/districts/${districts[0].code}`,
      commune: `/api/communes/${communes[0].code}`,
      fokontany: 'Ambohijatovo',
    });
    expect(place.statusCode, place.body).toBe(200);
    await t.app.inject({
      method: 'POST',
      url: '/api/presume_auteurs',
      headers: { cookie },
      payload: { nomPrenom: 'Auteur Un', signalement: `/api/signalements/${full}` },
    });
    await createReport(t, cookie, { signalementAt: '2025-02-20' });
    // Another creator's anonymous report: its notes are not the viewer's to read.
    const hidden = await createReport(t, other, { signalementAt: '2025-03-05' });
    const anonymous = await mergePatch(t, other, `/api/signalements/${hidden}`, { isAnonyme: true });
    expect(anonymous.statusCode, anonymous.body).toBe(200);
    for (const [session, code] of [
      [cookie, full],
      [other, hidden],
    ] as const) {
      const note = await t.app.inject({
        method: 'POST',
        url: `/api/signalements/${code}/notes`,
        headers: { cookie: session },
        payload: { texte: `Note de ${code}` },
      });
      expect(note.statusCode, note.body).toBe(201);
    }
    const [me] = await t.db.read
      .select()
      .from(t.db.t.utilisateurs)
      .where(eq(t.db.t.utilisateurs.email, 'agent@example.mg'));
    viewer = { ...me!, role: { code: 'ROLE_USER', designation: 'Utilisateur' }, twoFactorEnrolled: false };
  });
  afterAll(async () => t?.close());

  it('gives each cell, notes included, the value the full DTOs give it', async () => {
    const ids = await exportIds(t.ctx, {}, viewer);
    const options = { notesInternes: true, calendar: t.ctx.calendar, cipher: t.ctx.cipher };
    const lean = await cells(xlsxBatches(t.db, viewer, ids, options), t);
    const dto = await cells(exportBatches(t.db, viewer, ids, options), t);
    expect(lean).toEqual(dto);
    // Not a comparison of empty cells: the references, lists, counts and notes are there.
    const row = lean.find((r) => r[COLUMNS.findIndex((c) => c.header === 'Objets')] !== 'Corruption')!;
    const at = (header: string) => row[[...COLUMNS, NOTES_COLUMN].findIndex((c) => c.header === header)];
    expect(at('Objets')).toMatch(/Corruption.*Fraude|Fraude.*Corruption/);
    expect(at('Projets')).toBe('PAGI - Programme de gouvernance');
    expect(at('Statut')).toBe('Clôturé');
    expect(at('Actions provisoires')).toBe('Appel\nVisite');
    expect(at('Auteurs présumés')).toBe(1);
    for (const header of [
      'Région',
      'District',
      'Commune',
      'Fokontany',
      'Résultat',
      'Niveau',
      'Canal principal',
    ])
      expect(at(header), header).toEqual(expect.any(String));
    expect(at('Date de clôture')).toBeInstanceOf(Date);
    expect(at('Notes internes')).toMatch(/Note de SIG-/);
    expect(lean.filter((r) => r.at(-1) === null)).toHaveLength(2);
  });

  it('gives the ids of the list in its order, for every sort, a search and a filter matching nothing', async () => {
    const s = t.db.t.signalements;
    // The list's own statement: a row per id, in its ORDER BY.
    const listed = async (filters: ListFilters) =>
      (
        await t.db.read
          .select({ id: s.id })
          .from(s)
          .where(await filterConditions(t.ctx, filters, { mode: 'set', viewer }))
          .orderBy(...orderBy(t.db, filters.order))
      ).map((r) => r.id);
    // As the doors give them: parsed by the list's schema (its dates become given dates).
    const filtersOf = (query: Record<string, unknown>): ListFilters => signalementListSchema.parse(query);
    const [first] = await t.db.read.select({ code: s.code }).from(s).orderBy(s.id).limit(1);
    const cases = [
      {},
      { order: { signalementAt: 'asc' } },
      { order: { code: 'asc' } },
      { order: { code: 'desc' } },
      { order: { 'partenaire.designation': 'desc' } },
      { order: { echeance: 'asc' } },
      { search: first!.code },
      { signalementAt: { after: '2025-02-01' }, order: { code: 'asc' } },
    ].map(filtersOf);
    for (const filters of cases) {
      const expected = await listed(filters);
      expect(await exportIds(t.ctx, filters, viewer), JSON.stringify(filters)).toEqual(expected);
    }
    expect(await listed({ order: { code: 'desc' } })).toEqual(
      [...(await listed({ order: { code: 'asc' } }))].reverse(),
    );
    expect(await exportIds(t.ctx, {}, viewer)).toHaveLength(3);
    expect(await exportIds(t.ctx, { search: first!.code }, viewer)).toHaveLength(1);
    expect(await exportIds(t.ctx, filtersOf({ signalementAt: { after: '2030-01-01' } }), viewer)).toEqual([]);
  });

  it('prepares each of its statements once for the whole export, whatever the number of batches', async () => {
    const ids = await exportIds(t.ctx, {}, viewer);
    const readOnly = openReadOnlyDatabase(t.db.url);
    try {
      const builds: string[] = [];
      let runs = 0;
      // Both kinds of prepared read: the report rows as arrays (preparedValues), the lists beside them.
      const counted = <B extends (orm: Orm) => unknown>(
        run: (name: string, build: B, values: Record<string, unknown>) => unknown,
      ) =>
        ((name: string, build: B, values: Record<string, unknown>) => {
          runs++;
          return run(name, ((orm: Orm) => (builds.push(name), build(orm))) as B, values);
        }) as typeof run;
      const db = new Proxy(readOnly, {
        get: (target, key) =>
          key === 'prepared'
            ? counted(target.prepared)
            : key === 'preparedValues'
              ? counted(target.preparedValues)
              : Reflect.get(target, key),
      });
      const all = await cells(xlsxBatches(db, viewer, ids, { batch: 1, calendar: t.ctx.calendar }), t);
      expect(all).toHaveLength(ids.length);
      expect(runs).toBe(4 * ids.length);
      expect(builds.sort()).toEqual([
        'export_assignees',
        'export_projects',
        'export_rows',
        'export_subjects',
      ]);
    } finally {
      await readOnly.close();
    }
  });

  it('reads the next batch ahead only where a read leaves the thread free, with the same cells', async () => {
    const ids = await exportIds(t.ctx, {}, viewer);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    const expected = await cells(exportBatches(t.db, viewer, ids, { calendar: t.ctx.calendar }), t);
    /** The reads started when the first batch is handed out, per batch, and the cells of all. */
    const run = async (readsAside: boolean) => {
      let reads = 0;
      const db = new Proxy(t.db, {
        get: (target, key) => {
          if (key === 'readsAside') return readsAside;
          // The batch's statements are prepared reads (db.prepared), one call each.
          if (key === 'prepared')
            return (...args: Parameters<typeof target.prepared>) => {
              reads++;
              return target.prepared(...args);
            };
          return Reflect.get(target, key);
        },
      });
      const batches = xlsxBatches(db, viewer, ids, { batch: 1, calendar: t.ctx.calendar });
      const first = await batches.next();
      const atFirst = reads;
      const rest = (async function* () {
        yield first.value as ExportRow[];
        yield* batches;
      })();
      const all = await cells(rest, t);
      return { atFirst: atFirst / (reads / ids.length), all };
    };
    expect(await run(false)).toEqual({ atFirst: 1, all: expected });
    expect(await run(true)).toEqual({ atFirst: 2, all: expected });
    // The export's thread opens its database so: on SQLite without reader threads, reads hold the thread.
    const readOnly = openReadOnlyDatabase(t.db.url);
    try {
      expect(readOnly.readsAside).toBe(engine === 'postgres');
      expect(await cells(xlsxBatches(readOnly, viewer, ids, { calendar: t.ctx.calendar }), t)).toEqual(
        expected,
      );
    } finally {
      await readOnly.close();
    }
  });
});
