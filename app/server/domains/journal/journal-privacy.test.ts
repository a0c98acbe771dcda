// No name in the access log (decision 0015, "No free text"): a search for a source's exact name, or a name
// typed in the journal's own filters, is logged as its kind, length and a keyed hash, never as text; the hash
// is not the source's blind index (the log cannot be joined to the sources); the screen still says what was
// searched.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { serverSuite } from '#tests/helpers/suite';
import { accessLogRows } from '#tests/helpers/journal';
import { addPeople, PEOPLE } from '#tests/helpers/report-fixture';
import { createReport } from '#tests/helpers/signalements';
import { PATHS } from '#server/paths';
import { recordAccess } from './append';

describe.each(await testEngines())('no free text in the access log on %s', (engine) => {
  const { app: t, admin } = serverSuite(engine);
  let report: string;

  beforeAll(async () => {
    report = await createReport(t, admin.cookie);
    await addPeople(t, admin.cookie, report);
  });

  const lastId = async () => (await accessLogRows(t)).at(-1)?.id ?? 0;
  const exportList = (search: string) =>
    t.app.inject({
      url: `/api/signalements/export/list?search=${encodeURIComponent(search)}`,
      headers: { cookie: admin.cookie },
    });

  it("logs an export searching a source's exact name as its length and a keyed hash, never the name", async () => {
    const before = await lastId();
    const res = await exportList(PEOPLE.source);
    expect(res.statusCode, res.body).toBe(200);
    expect(Number(res.headers['x-total-count'])).toBe(1);
    expect((await exportList(PEOPLE.source.toUpperCase())).statusCode).toBe(200);
    const rows = (await accessLogRows(t, 'export')).filter((r) => r.id > before);
    expect(rows).toHaveLength(2);
    const searches = rows.map(
      (r) => (r.details.filtres as Record<string, unknown>).recherche as Record<string, unknown>,
    );
    expect(searches[0]).toEqual({
      type: 'texte',
      longueur: [...PEOPLE.source].length,
      mots: 2,
      empreinte: expect.any(String),
    });
    // The same name typed otherwise is the same search; the hash is not the source's blind index.
    expect(searches[1]!.empreinte).toBe(searches[0]!.empreinte);
    const [source] = await t.db.read.select({ index: t.db.t.sources.nomIndex }).from(t.db.t.sources);
    expect(source!.index).not.toContain(String(searches[0]!.empreinte));
    const stored = JSON.stringify(await accessLogRows(t));
    for (const part of ['Rasoanirina', 'rasoanirina', 'Source-Protégée', 'source-protegee'])
      expect(stored).not.toContain(part);
  });

  it('shows the search on the Journal des accès screen in French, without the text', async () => {
    const res = await t.app.inject({
      url: `/trpc/journal.list?input=${encodeURIComponent(JSON.stringify({ page: 1, filters: { kind: 'export' } }))}`,
      headers: { cookie: admin.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [entry] = res.json().result.data.items;
    expect(entry.description).toBe(
      `Export json : 1 ligne, recherche (${[...PEOPLE.source].length} caractères)`,
    );
  });

  it("logs a search for a report's code as that code", async () => {
    const before = await lastId();
    expect((await exportList(report.toLowerCase())).statusCode).toBe(200);
    const [row] = (await accessLogRows(t, 'export')).filter((r) => r.id > before);
    expect((row!.details.filtres as Record<string, unknown>).recherche).toEqual({
      type: 'code',
      code: report,
    });
  });

  it("keeps text typed in the journal's own filters out of the journal's export entry", async () => {
    const before = await lastId();
    const res = await t.app.inject({
      url: `/api/journal-acces/export/xlsx?signalement=${encodeURIComponent('Rasoanirina')}&utilisateur=${encodeURIComponent('Rabe')}`,
      headers: { cookie: admin.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = (await accessLogRows(t, 'export')).filter((r) => r.id > before);
    expect(row!.details.filtres).toEqual({
      signalement: { type: 'texte', longueur: 11, mots: 1, empreinte: expect.any(String) },
      utilisateur: { type: 'texte', longueur: 4, mots: 1, empreinte: expect.any(String) },
    });
    expect(JSON.stringify(row)).not.toContain('Rasoanirina');
  });

  it('names the account of a failed log-in, or keeps only a keyed hash of an unknown e-mail typed', async () => {
    const before = await lastId();
    const login = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'x-forwarded-for': '41.188.60.6' },
        payload: { email, password: 'pas-le-bon-mot' },
      });
    for (const email of [
      'Rasoanirina.Source@example.mg',
      ' rasoanirina.source@example.mg',
      'autre@example.mg',
      'ADMIN@example.mg',
    ]) {
      expect((await login(email)).statusCode).toBe(401);
    }
    const rows = (await accessLogRows(t, 'echec_connexion')).filter((r) => r.id > before);
    expect(rows.map((r) => [r.userEmail, r.details.motif])).toEqual([
      [null, 'compte_inconnu'],
      [null, 'compte_inconnu'],
      [null, 'compte_inconnu'],
      ['admin@example.mg', 'mot_de_passe_incorrect'],
    ]);
    const u = t.db.t.utilisateurs;
    const [adminRow] = await t.db.read.select({ id: u.id }).from(u).where(eq(u.email, 'admin@example.mg'));
    expect(rows[3]!.userId).toBe(adminRow!.id);
    expect(rows[3]!.details).toEqual({ motif: 'mot_de_passe_incorrect' });
    const [a, b, c] = rows.map((r) => r.details.empreinte);
    expect(a).toEqual(expect.any(String));
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    expect(JSON.stringify(rows).toLowerCase()).not.toContain('rasoanirina');
  });

  it("rewrites the earlier entries' search texts and unknown e-mails (the migration's own statements)", async () => {
    // Entries as written before the fix: the update trigger is lifted as the migration does.
    await t.db.execute(
      sql.raw(
        engine === 'postgres'
          ? 'DROP TRIGGER access_log_no_change ON access_log'
          : 'DROP TRIGGER access_log_no_update',
      ),
    );
    const before = await lastId();
    await recordAccess(
      t.db,
      {
        kind: 'export',
        userId: null,
        email: 'admin@example.mg',
        address: null,
        details: { format: 'json', lignes: 1, filtres: { search: PEOPLE.source, 'region.code': 'R01' } },
      },
      undefined,
      new Date(),
    );
    await recordAccess(
      t.db,
      {
        kind: 'echec_connexion',
        userId: null,
        email: 'rasoanirina@example.mg',
        address: null,
        details: { motif: 'compte_inconnu' },
      },
      undefined,
      new Date(),
    );
    const file = engine === 'postgres' ? '0013_access_log_retention.sql' : '0015_access_log_retention.sql';
    const statements = readFileSync(join(PATHS.migrations[engine], file), 'utf8')
      .split('--> statement-breakpoint')
      .map((s) => s.replace(/^(--.*\n|\s)*/g, '').trim())
      .filter((s) => s.startsWith('UPDATE'));
    expect(statements).toHaveLength(2);
    for (const statement of statements) await t.db.execute(sql.raw(statement));
    const [exported, failed] = (await accessLogRows(t)).filter((r) => r.id > before);
    expect(exported!.details).toEqual({
      format: 'json',
      lignes: 1,
      filtres: { 'region.code': 'R01', recherche: { type: 'texte', longueur: [...PEOPLE.source].length } },
    });
    expect(failed).toMatchObject({ userEmail: null, details: { motif: 'compte_inconnu' } });
    expect(JSON.stringify([exported, failed]).toLowerCase()).not.toContain('rasoanirina');
  });
});
