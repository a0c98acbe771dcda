// Reads started side by side inside a transaction reach PostgreSQL one after another on its connection, in
// the order asked, each sent only once the one before it has answered (serial-queries.ts): never onto a
// busy client, which pg deprecates (it goes away in pg 9). The answers are each its own.
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '#tests/helpers/db';

describe.skipIf(!(await postgresAvailable()))('one statement at a time on a PostgreSQL connection', () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase('postgres');
  });
  afterAll(async () => tdb?.drop());

  it('sends side-by-side reads of a transaction one after another, each onto an idle client', async () => {
    const { db } = tdb;
    const busy: boolean[] = [];
    const texts: string[] = [];
    const query = pg.Client.prototype.query;
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
      this: pg.Client,
      ...args: unknown[]
    ) {
      const client = this as unknown as { _queryQueue: unknown[]; _activeQuery: unknown };
      busy.push(client._queryQueue.length > 0 || client._activeQuery != null);
      const config = args[0] as string | { text: string };
      texts.push(typeof config === 'string' ? config : config.text);
      return (query as (...a: unknown[]) => unknown).apply(this, args) as never;
    });
    try {
      const answers = await db.transaction(() =>
        Promise.all(
          [3, 1, 2].map(async (n) => {
            const rows = await db.rows<{ n: number }>(
              sql`select ${n}::int as n, pg_sleep(${n / 100}) is not null as slept`,
            );
            return rows[0]!.n;
          }),
        ),
      );
      expect(answers).toEqual([3, 1, 2]);
    } finally {
      spy.mockRestore();
    }
    const selects = texts.filter((text) => text.startsWith('select'));
    expect(selects).toHaveLength(3);
    expect(texts[0]).toBe('begin');
    expect(texts.at(-1)).toBe('commit');
    expect(busy).toEqual(texts.map(() => false));
  });

  it('a failed statement fails its own caller only, and the transaction rolls back as before', async () => {
    const { db } = tdb;
    const outcome = await db
      .transaction(() =>
        Promise.allSettled([
          db.rows(sql`select 1 as n`),
          db.rows(sql`select 1 / 0 as n`),
          db.rows(sql`select 2 as n`),
        ]),
      )
      .catch((error: unknown) => error);
    // The second fails on division by zero; the third, sent after it, finds the transaction aborted.
    expect(Array.isArray(outcome)).toBe(true);
    const settled = outcome as PromiseSettledResult<unknown>[];
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(await db.rows<{ n: number }>(sql`select 5 as n`)).toEqual([{ n: 5 }]);
  });
});
