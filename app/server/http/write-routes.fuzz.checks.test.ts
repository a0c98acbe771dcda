// The write fuzz's snapshot (write-routes.fuzz.checks.ts) must see every write it is there to catch: a change
// to any column of a table compared row by row, a row added to or removed from a table compared by its count,
// and a change to a table no request writes (compared once per route). A snapshot blind to a write would let
// the fuzz pass a refusal that wrote.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { createReport } from '#tests/helpers/signalements';
import { changedTables, snapshot, staticFingerprint } from './write-routes.fuzz.checks';

describe.each(await testEngines())('the write fuzz snapshot (%s)', (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('temoin@example.mg', 'ROLE_USER', 'Agent Témoin');
    await createReport(t, await t.login('temoin@example.mg'));
  });

  afterAll(async () => {
    await t?.close();
  });

  it('sees a write to any column of a compared table, and to a table compared by its count', async () => {
    const { signalements: s, utilisateurs: u, communes: c } = t.db.t;
    const [report] = await t.db.read.select({ id: s.id, fokontany: s.fokontany }).from(s).limit(1);
    const [user] = await t.db.read.select({ id: u.id, digestEnabled: u.digestEnabled }).from(u).limit(1);
    const [commune] = await t.db.read.select().from(c).limit(1);
    const write = async (change: () => Promise<unknown>, table: string) => {
      const before = await snapshot(t.db);
      await change();
      expect(changedTables(before, await snapshot(t.db))).toEqual([table]);
    };
    const edit = (fokontany: string | null) =>
      t.db.transaction((tx) => tx.update(s).set({ fokontany }).where(eq(s.id, report!.id)));
    const digest = (digestEnabled: boolean) =>
      t.db.transaction((tx) => tx.update(u).set({ digestEnabled }).where(eq(u.id, user!.id)));
    const extra = { ...commune!, id: undefined, code: 'MG-FUZZ-TEMOIN' };
    await write(() => edit('Fokontany témoin'), 'signalements');
    await write(() => edit(report!.fokontany), 'signalements');
    await write(() => digest(!user!.digestEnabled), 'utilisateurs');
    await write(() => digest(user!.digestEnabled), 'utilisateurs');
    await write(() => t.db.transaction((tx) => tx.insert(c).values(extra)), 'communes');
    await write(() => t.db.transaction((tx) => tx.delete(c).where(eq(c.code, extra.code))), 'communes');
  });

  it('sees a write to a table no request writes (compared once per route)', async () => {
    const b = t.db.t.businessDays;
    const [day] = await t.db.read.select().from(b).limit(1);
    const ordinal = (value: number) =>
      t.db.transaction((tx) => tx.update(b).set({ ordinal: value }).where(eq(b.day, day!.day)));
    const before = await staticFingerprint(t.db);
    await ordinal(day!.ordinal + 1);
    expect(changedTables(before, await staticFingerprint(t.db))).toEqual(['business_days']);
    await ordinal(day!.ordinal);
    expect(changedTables(before, await staticFingerprint(t.db))).toEqual([]);
  });
});
