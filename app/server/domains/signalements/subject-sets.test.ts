// A list filtered by subjects alone is counted, on SQLite, from signalement_subject_sets (migration
// 0006), kept by triggers on the links. The table must equal what the links give after every kind of
// write, and the count must equal the number of reports holding one of the chosen subjects, on both
// engines (PostgreSQL counts the links).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import { PATHS } from '#server/paths';
import { countSignalements } from './queries';

describe.each(await testEngines())('subject-set counts on %s', (engine) => {
  let t: TestApp;
  let cookie: string;
  const codes: string[] = [];
  let subjectIds: Record<string, number>;
  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('a@example.mg', 'ROLE_USER', 'Agent A');
    cookie = await t.login('a@example.mg');
    subjectIds = Object.fromEntries(
      (await t.db.read.select().from(t.db.t.subjects)).map((s) => [s.code, s.id]),
    );
    codes.push(
      await createReport(t, cookie, { subjects: ['/api/subjects/FRAUDE', '/api/subjects/CORRUPTION'] }),
    );
    codes.push(
      await createReport(t, cookie, { subjects: ['/api/subjects/CORRUPTION', '/api/subjects/FRAUDE'] }),
    );
    codes.push(await createReport(t, cookie, { subjects: ['/api/subjects/DETOURNEMENT'] }));
    codes.push(await createReport(t, cookie, { subjects: ['/api/subjects/FRAUDE'] }));
  });
  afterAll(async () => t?.close());

  const ss = () => t.db.t.signalementSubjects;
  const idOf = async (code: string) =>
    (
      await t.db.read
        .select({ id: t.db.t.signalements.id })
        .from(t.db.t.signalements)
        .where(eq(t.db.t.signalements.code, code))
    )[0]!.id;

  /** The sets recomputed from the links, `ids` → reports. */
  const liveSets = async () => {
    const bySignalement = new Map<number, number[]>();
    for (const link of await t.db.read.select().from(ss())) {
      bySignalement.set(link.signalementId, [
        ...(bySignalement.get(link.signalementId) ?? []),
        link.subjectId,
      ]);
    }
    const out: Record<string, number> = {};
    for (const ids of bySignalement.values()) {
      const key = ids.sort((a, b) => a - b).join(',');
      out[key] = (out[key] ?? 0) + 1;
    }
    return out;
  };
  const storedSets = async () =>
    Object.fromEntries(
      (
        await t.db.rows<{ subjects: string; n: number }>(
          sql`select subjects, n from signalement_subject_sets where n <> 0`,
        )
      ).map((r) => [r.subjects, Number(r.n)]),
    );

  /** Every combination of the subjects in use: the count equals the reports holding one of them. */
  const expectCountsExact = async () => {
    if (engine === 'sqlite') expect(await storedSets()).toEqual(await liveSets());
    const links = await t.db.read.select().from(ss());
    const codesById = Object.fromEntries(Object.entries(subjectIds).map(([code, id]) => [id, code]));
    const used = [...new Set(links.map((l) => codesById[l.subjectId]!))].sort();
    for (let mask = 1; mask < 1 << used.length; mask++) {
      const chosen = used.filter((_, i) => mask & (1 << i));
      const ids = new Set(chosen.map((c) => subjectIds[c]));
      const expected = new Set(links.filter((l) => ids.has(l.subjectId)).map((l) => l.signalementId)).size;
      expect(await countSignalements(t.ctx, { 'subjects.code': chosen }), chosen.join('+')).toBe(expected);
    }
  };

  it('counts the reports created and patched through the services', async () => {
    await expectCountsExact();
    expect(await countSignalements(t.ctx, { 'subjects.code': ['FRAUDE', 'CORRUPTION'] })).toBe(3);
    const res = await mergePatch(t, cookie, `/api/signalements/${codes[0]}`, {
      subjects: ['/api/subjects/DETOURNEMENT'],
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectCountsExact();
    expect(await countSignalements(t.ctx, { 'subjects.code': ['FRAUDE', 'CORRUPTION'] })).toBe(2);
    expect(await countSignalements(t.ctx, { 'subjects.code': ['INCONNU'] })).toBe(0);
  });

  it('stays exact for links written, changed in place and deleted in SQL, and for deleted reports', async () => {
    const [r0, r1, r2, r3] = await Promise.all(codes.map(idOf));
    const { FRAUDE, CORRUPTION, DETOURNEMENT } = subjectIds as Record<string, number>;
    // Inserted in descending order of subject: the set is still written in ascending order.
    await t.db.transaction((tx) =>
      tx.insert(ss()).values([
        { signalementId: r2!, subjectId: Math.max(FRAUDE!, CORRUPTION!) },
        { signalementId: r2!, subjectId: Math.min(FRAUDE!, CORRUPTION!) },
      ]),
    );
    await expectCountsExact();
    // In place, within one report, then moved to another report.
    await t.db.transaction((tx) =>
      tx
        .update(ss())
        .set({ subjectId: CORRUPTION! })
        .where(and(eq(ss().signalementId, r3!), eq(ss().subjectId, FRAUDE!))),
    );
    await expectCountsExact();
    await t.db.transaction((tx) =>
      tx
        .update(ss())
        .set({ signalementId: r0! })
        .where(and(eq(ss().signalementId, r3!), eq(ss().subjectId, CORRUPTION!))),
    );
    await expectCountsExact();
    await t.db.transaction((tx) =>
      tx.delete(ss()).where(and(eq(ss().signalementId, r1!), eq(ss().subjectId, DETOURNEMENT!))),
    );
    await t.db.transaction((tx) =>
      tx.delete(ss()).where(and(eq(ss().signalementId, r1!), eq(ss().subjectId, FRAUDE!))),
    );
    await expectCountsExact();
    // A report deleted takes its links, and its set with them.
    await t.db.transaction((tx) => tx.delete(t.db.t.signalements).where(eq(t.db.t.signalements.id, r2!)));
    await expectCountsExact();
  });

  it.runIf(engine === 'sqlite')('is rebuilt exactly by the migration’s backfill', async () => {
    const statements = readFileSync(join(PATHS.migrations.sqlite, '0006_subject_sets.sql'), 'utf8').split(
      '--> statement-breakpoint',
    );
    const backfill = statements[1]!.trim();
    expect(backfill).toMatch(/^INSERT INTO `signalement_subject_sets`/);
    const before = await storedSets();
    await t.db.execute(sql`delete from signalement_subject_sets`);
    await t.db.execute(sql.raw(backfill));
    expect(await storedSets()).toEqual(before);
    await expectCountsExact();
  });
});
