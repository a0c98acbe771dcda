import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, testEngines, type TestDatabase } from '#tests/helpers/db';
import type * as codeModule from '#server/domains/signalements/code';
import { isSignalementCode } from '#server/domains/signalements/code';
import { refreshSearchText } from '#server/domains/signalements/search-refresh';
import { normalizeSearch } from '#server/domains/signalements/search-text';
import { bulkInsert } from './bulk';
import { DEMO_PARTNERS } from './demo-data';
import { DEMO_SPAN_MS } from './demo-reports';
import { demoUsers, seedDemo, type DemoResult } from './demo';
import { UTILISATEUR_ROLES } from './reference';

const REPORTS = 300;

// Codes queued here are handed out before random ones, to force collisions.
const forcedCodes = vi.hoisted(() => [] as string[]);
vi.mock('#server/domains/signalements/code', async (importOriginal) => {
  const real = await importOriginal<typeof codeModule>();
  return { ...real, generateSignalementCode: () => forcedCodes.shift() ?? real.generateSignalementCode() };
});

describe.each(await testEngines())('demo data on %s', (engine) => {
  let tdb: TestDatabase;
  let result: DemoResult;
  let startedAt: number;
  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
    startedAt = Date.now();
    result = await seedDemo(tdb.ctx, { reports: REPORTS, seed: 7 });
  });
  afterAll(async () => tdb?.drop());

  const reports = () => {
    const { t, read } = tdb.db;
    return read
      .select({
        s: t.signalements,
        statutKind: t.statuts.kind,
        districtRegionId: t.districts.regionId,
        communeDistrictId: t.communes.districtId,
        canalCode: t.canals.code,
      })
      .from(t.signalements)
      .leftJoin(t.statuts, eq(t.signalements.statutId, t.statuts.id))
      .leftJoin(t.districts, eq(t.signalements.districtId, t.districts.id))
      .leftJoin(t.communes, eq(t.signalements.communeId, t.communes.id))
      .leftJoin(t.canals, eq(t.signalements.canalPrincipalId, t.canals.id));
  };

  it('creates the requested number of reports with unique, valid codes', async () => {
    const rows = await reports();
    expect(result.reports).toBe(REPORTS);
    expect(rows).toHaveLength(REPORTS);
    expect(rows.filter((r) => !isSignalementCode(r.s.code))).toEqual([]);
    expect(new Set(rows.map((r) => r.s.code)).size).toBe(REPORTS);
  });

  it('keeps each district in its region and each commune in its district', async () => {
    const rows = await reports();
    const broken = rows.filter(
      (r) =>
        (r.s.districtId !== null && (r.s.regionId === null || r.districtRegionId !== r.s.regionId)) ||
        (r.s.communeId !== null && (r.s.districtId === null || r.communeDistrictId !== r.s.districtId)) ||
        (r.s.fokontany !== null && r.s.communeId === null),
    );
    expect(broken.map((r) => r.s.code)).toEqual([]);
    expect(rows.some((r) => r.s.regionId === null)).toBe(true);
    expect(new Set(rows.map((r) => r.s.regionId).filter((id) => id !== null)).size).toBe(24);
  });

  it('makes isTreated and closeAt agree with the statut kind', async () => {
    const rows = await reports();
    const broken = rows.filter(({ s, statutKind }) => {
      if (statutKind === 'closed') return !s.isTreated || !s.closeAt || s.closeAt <= s.signalementAt;
      if (statutKind === 'treated') return !s.isTreated || s.closeAt !== null;
      return s.isTreated || s.closeAt !== null;
    });
    expect(broken.map((r) => r.s.code)).toEqual([]);
    const kinds = new Set(rows.map((r) => r.statutKind));
    expect(kinds).toEqual(new Set(['open', 'treated', 'closed', null]));
  });

  it('spreads reports over the last two years, never in the future', async () => {
    const rows = await reports();
    const now = Date.now();
    for (const { s } of rows) {
      expect(s.signalementAt.getTime()).toBeGreaterThanOrEqual(startedAt - DEMO_SPAN_MS);
      expect(s.signalementAt.getTime()).toBeLessThanOrEqual(now);
      expect(s.createdAt.getTime()).toBeGreaterThanOrEqual(s.signalementAt.getTime());
      if (s.closeAt) expect(s.closeAt.getTime()).toBeLessThanOrEqual(now);
    }
    const times = rows.map((r) => r.s.signalementAt.getTime());
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(DEMO_SPAN_MS * 0.9);
  });

  it('fills the OTHERS precisions exactly when OTHERS is chosen', async () => {
    const { t, read } = tdb.db;
    const rows = await reports();
    expect(rows.filter((r) => (r.canalCode === 'OTHERS') !== (r.s.autreCanalPrincipal !== null))).toEqual([]);
    const withOthers = new Set(
      (
        await read
          .select({ id: t.signalementSubjects.signalementId })
          .from(t.signalementSubjects)
          .innerJoin(t.subjects, eq(t.signalementSubjects.subjectId, t.subjects.id))
          .where(eq(t.subjects.code, 'OTHERS'))
      ).map((r) => r.id),
    );
    expect(rows.filter((r) => withOthers.has(r.s.id) !== (r.s.autreObject !== null))).toEqual([]);
  });

  it('gives every report one to three subjects and links only its partner’s projects', async () => {
    const { t, read } = tdb.db;
    const subjectLinks = await read.select().from(t.signalementSubjects);
    const perReport = new Map<number, number>();
    for (const l of subjectLinks) perReport.set(l.signalementId, (perReport.get(l.signalementId) ?? 0) + 1);
    expect(perReport.size).toBe(REPORTS);
    expect([...perReport.values()].every((n) => n >= 1 && n <= 3)).toBe(true);

    const projectLinks = await read
      .select({ owner: t.projects.ownerId, partner: t.signalements.partenaireId })
      .from(t.signalementProjects)
      .innerJoin(t.projects, eq(t.signalementProjects.projectId, t.projects.id))
      .innerJoin(t.signalements, eq(t.signalementProjects.signalementId, t.signalements.id));
    expect(projectLinks.length).toBeGreaterThan(0);
    expect(projectLinks.filter((l) => l.owner !== l.partner)).toEqual([]);
  });

  it('creates presumed authors, sources with their canals, and victims', async () => {
    const { t, read } = tdb.db;
    const [auteurs] = await read.select({ n: count() }).from(t.presumeAuteurs);
    const sources = await read.select().from(t.sources);
    const [victimes] = await read.select({ n: count() }).from(t.victimes);
    const sourceCanaux = await read.select().from(t.sourceCanaux);
    expect(auteurs?.n).toBe(result.auteurs);
    expect(sources).toHaveLength(result.sources);
    expect(victimes?.n).toBe(result.victimes);
    expect([result.auteurs, result.sources, result.victimes].every((n) => n > 0)).toBe(true);
    const withCanal = new Set(sourceCanaux.map((c) => c.sourceId));
    expect(sources.filter((s) => !withCanal.has(s.id))).toEqual([]);
    expect(sources.every((s) => /^SRC-/.test(s.code))).toBe(true);
  });

  it('creates users of every role with lower-case unique e-mails and one password hash', async () => {
    const { t, read } = tdb.db;
    const users = await read
      .select({
        email: t.utilisateurs.email,
        hash: t.utilisateurs.passwordHash,
        role: t.utilisateurRoles.code,
      })
      .from(t.utilisateurs)
      .innerJoin(t.utilisateurRoles, eq(t.utilisateurs.roleId, t.utilisateurRoles.id));
    expect(users).toHaveLength(demoUsers().length);
    expect(new Set(users.map((u) => u.role))).toEqual(new Set(UTILISATEUR_ROLES.map((r) => r.code)));
    expect(users.every((u) => u.email === u.email.toLowerCase())).toBe(true);
    expect(new Set(users.map((u) => u.hash)).size).toBe(1);
    expect(users[0]?.hash).toMatch(/^\$argon2id\$/);
  });

  it('stores an accent-free, lower-case searchText that starts with the code', async () => {
    const rows = await reports();
    for (const { s } of rows) {
      expect(s.searchText).toBe(normalizeSearch(s.searchText));
      expect(s.searchText.normalize('NFD')).not.toMatch(/\p{M}/u);
      expect(s.searchText.startsWith(s.code.toLowerCase())).toBe(true);
    }
  });

  it('stores the searchText the service would compute, up to word order', async () => {
    const { db } = tdb;
    const sample = (await reports()).slice(0, 40).map((r) => r.s);
    await db.transaction(async (tx) => {
      for (const s of sample) await refreshSearchText(db, tx, s.id);
    });
    const words = (text: string) => text.split(' ').sort();
    const refreshed = new Map((await reports()).map((r) => [r.s.id, r.s.searchText]));
    for (const s of sample) expect(words(refreshed.get(s.id)!), s.code).toEqual(words(s.searchText));
  });

  it('gives partners +261 numbers of nine digits', async () => {
    const { t, read } = tdb.db;
    const partners = await read.select().from(t.partenaires);
    expect(partners).toHaveLength(DEMO_PARTNERS.length + 1);
    for (const p of partners.filter((p) => p.code !== 'IVY')) expect(p.phoneNumber).toMatch(/^\+261\d{9}$/);
  });

  it('adds reports on a second run without duplicating partners, projects or users', async () => {
    const { t, read } = tdb.db;
    const counts = async () =>
      Promise.all(
        [t.partenaires, t.projects, t.utilisateurs, t.signalements].map(async (table) => {
          const [row] = await read.select({ n: count() }).from(table);
          return row?.n;
        }),
      );
    const [partners, projects, users] = await counts();
    const again = await seedDemo(tdb.ctx, { reports: 20, seed: 7 });
    expect(again).toMatchObject({ reports: 20, partenaires: 0, projects: 0, utilisateurs: 0 });
    expect(await counts()).toEqual([partners, projects, users, REPORTS + 20]);
  });

  it('redraws a code that is already taken, in the database or in the same batch', async () => {
    const { t, read } = tdb.db;
    const [taken] = await read.select().from(t.signalements).limit(1);
    forcedCodes.push(taken!.code, 'SIG-2222-2222', 'SIG-2222-2222');
    const [before] = await read.select({ n: count() }).from(t.signalements);
    const again = await seedDemo(tdb.ctx, { reports: 5, seed: 11 });
    expect(forcedCodes).toEqual([]);
    expect(again.reports).toBe(5);
    const rows = await read.select().from(t.signalements);
    expect(rows).toHaveLength(before!.n + 5);
    expect(rows.filter((r) => r.code === taken!.code)).toEqual([taken]);
    expect(rows.filter((r) => r.code === 'SIG-2222-2222')).toHaveLength(1);
    expect(rows.filter((r) => !r.searchText.startsWith(r.code.toLowerCase() + ' '))).toEqual([]);
  });

  it('bulkInsert round-trips quotes, backslashes, dates, booleans and lists', async () => {
    const { db } = tdb;
    const tricky = "l'état \\n « Ambohimanga » -- ' OR 1=1; drop table x; ''";
    const when = new Date('2025-06-30T21:59:58.123Z');
    const [user] = await db.read.select().from(db.t.utilisateurs).limit(1);
    const [partner] = await db.read.select().from(db.t.partenaires).limit(1);
    const inserted = await db.transaction((tx) =>
      bulkInsert(
        db,
        tx,
        db.t.signalements,
        [
          {
            code: 'SIG-BULK-0001',
            signalementAt: when,
            createdAt: when,
            closeAt: null,
            createdById: user!.id,
            partenaireId: partner!.id,
            isTreated: true,
            description: tricky,
            preuves: [tricky, 'reçu'],
            actionProvisoires: [],
            searchText: 'x',
          },
        ],
        {
          returning: [db.t.signalements.id, db.t.signalements.code],
          onConflictDoNothing: db.t.signalements.code,
        },
      ),
    );
    expect(inserted).toHaveLength(1);
    expect(inserted[0]?.code).toBe('SIG-BULK-0001');
    const [row] = await db.read
      .select()
      .from(db.t.signalements)
      .where(eq(db.t.signalements.code, 'SIG-BULK-0001'));
    expect(row).toMatchObject({
      description: tricky,
      preuves: [tricky, 'reçu'],
      actionProvisoires: [],
      isTreated: true,
    });
    expect(row?.signalementAt.toISOString()).toBe(when.toISOString());
    const again = await db.transaction((tx) =>
      bulkInsert(db, tx, db.t.signalements, [{ ...row!, id: undefined }], {
        returning: [db.t.signalements.id],
        onConflictDoNothing: db.t.signalements.code,
      }),
    );
    expect(again).toEqual([]);
  });
});
