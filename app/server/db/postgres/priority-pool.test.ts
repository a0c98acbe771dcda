// The pool hands its connections to the writers' lane first (priority-pool.ts, decision 0054): readers
// never hold the connections kept for writers, a write waiting beside reads gets the next free one, and a
// wait past the connection timeout fails as pg-pool's own wait does (answered 503). How many connections
// reads may hold is the configuration's (DATABASE_POOL_READERS, decision 0055).
import { availableParallelism } from 'node:os';
import { sql } from 'drizzle-orm';
import { Client, type PoolClient } from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '#server/config';
import { databaseOptions } from '#server/context';
import { openDatabase } from '../client';
import { isConnectionLost } from '../connection-lost';
import { inWritersLane } from '../lanes';
import { PG_ADMIN_URL, postgresAvailable } from '#tests/helpers/db';
import { DEFAULT_POOL_READERS } from './open';
import { PriorityPool } from './priority-pool';

const withPostgres = await postgresAvailable();
/** An advisory lock of this file's own (space, id): apart from start-ups' and server/db/locks.ts'. */
const LOCK = [8155, 1] as const;

const checkout = (pool: PriorityPool, writer: boolean) =>
  writer ? inWritersLane(() => pool.connect()) : pool.connect();
/** Whether `promise` has settled once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  return done;
}

describe.skipIf(!withPostgres)('a pool that serves writers first', () => {
  let pool: PriorityPool;
  beforeAll(() => {
    pool = new PriorityPool({ connectionString: PG_ADMIN_URL, max: 3, connectionTimeoutMillis: 5000 }, 1);
  });
  afterAll(async () => pool?.end());

  it('keeps the reserved connection for writers, and gives the next free one to a waiting writer before earlier readers', async () => {
    const [r1, r2] = await Promise.all([checkout(pool, false), checkout(pool, false)]);
    const r3 = checkout(pool, false);
    expect(await settled(r3)).toBe(false);
    // The reserved connection: a writer gets it at once while a reader waits.
    const w1 = await checkout(pool, true);
    expect((await w1.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    const w2 = checkout(pool, true);
    expect(pool.waiting()).toBe(2);
    // A reader's connection comes free: the writer, who asked after the reader, gets it.
    r1!.release();
    const second = await w2;
    expect(await settled(r3)).toBe(false);
    // A writer's connection comes free: readers hold one of their two, so the waiting reader gets it.
    w1.release();
    const third = await r3;
    // Readers hold their two: a connection free for a writer is not theirs.
    second.release();
    const r4 = checkout(pool, false);
    expect(await settled(r4)).toBe(false);
    const w3 = await checkout(pool, true);
    w3.release();
    third.release();
    (await r4).release();
    r2!.release();
    expect(pool.waiting()).toBe(0);
  });

  it('runs pool.query through the same gate, in both lanes', async () => {
    const held: PoolClient[] = await Promise.all([checkout(pool, false), checkout(pool, false)]);
    const read = pool.query('select 2 as two');
    const write = inWritersLane(() => pool.query('select 3 as three'));
    expect((await write).rows).toEqual([{ three: 3 }]);
    expect(await settled(read)).toBe(false);
    held[0]!.release();
    expect((await read).rows).toEqual([{ two: 2 }]);
    held[1]!.release();
  });

  it('fails a wait past the connection timeout as pg-pool does, which is answered 503', async () => {
    const small = new PriorityPool(
      { connectionString: PG_ADMIN_URL, max: 2, connectionTimeoutMillis: 1000 },
      1,
    );
    try {
      const held = await checkout(small, false);
      const error = await checkout(small, false).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe('timeout exceeded when trying to connect');
      expect(isConnectionLost(error)).toBe(true);
      expect(small.waiting()).toBe(0);
      // The writer's connection is still there.
      const writer = await checkout(small, true);
      writer.release();
      held.release();
    } finally {
      await small.end();
    }
  });

  it('gives the permit back when the connection cannot be opened', async () => {
    const closed = new PriorityPool(
      { connectionString: 'postgres://postgres@127.0.0.1:1/postgres', max: 1, connectionTimeoutMillis: 2000 },
      0,
    );
    try {
      for (let i = 0; i < 3; i += 1) {
        const error = await closed.connect().then(
          () => null,
          (e: unknown) => e,
        );
        expect(isConnectionLost(error)).toBe(true);
      }
      expect(closed.waiting()).toBe(0);
    } finally {
      await closed.end();
    }
  });
});

describe('DATABASE_POOL_READERS', () => {
  it('is read from the configuration: unset or empty, the default; 1 to 8; otherwise a French message', () => {
    expect(loadConfig({}).DATABASE_POOL_READERS).toBeUndefined();
    expect(loadConfig({ DATABASE_POOL_READERS: ' ' }).DATABASE_POOL_READERS).toBeUndefined();
    expect(loadConfig({ DATABASE_POOL_READERS: '3' }).DATABASE_POOL_READERS).toBe(3);
    expect(databaseOptions(loadConfig({ DATABASE_POOL_READERS: '5' })).poolReaders).toBe(5);
    expect(() => loadConfig({ DATABASE_POOL_READERS: '0' })).toThrow('DATABASE_POOL_READERS: au moins 1');
    expect(() => loadConfig({ DATABASE_POOL_READERS: '9' })).toThrow('DATABASE_POOL_READERS: au plus 8');
    expect(() => loadConfig({ DATABASE_POOL_READERS: 'trois' })).toThrow(
      'DATABASE_POOL_READERS: doit être un nombre',
    );
  });

  it("defaults to one per core and one more, at least four (a report's loader side by side), at most eight", () => {
    expect(DEFAULT_POOL_READERS).toBe(Math.min(8, Math.max(4, availableParallelism() + 1)));
  });

  it.skipIf(!withPostgres)(
    'bounds the reads the server runs at once; a write passes beside them',
    async () => {
      const db = openDatabase(PG_ADMIN_URL, { poolReaders: 1 });
      // A connection of its own holds a lock; the first read waits for it on the one connection reads may hold.
      const holder = new Client({ connectionString: PG_ADMIN_URL });
      const key = sql`${LOCK[0]}::int, ${LOCK[1]}::int`;
      await holder.connect();
      try {
        await holder.query('select pg_advisory_lock($1::int, $2::int)', [...LOCK]);
        const blocked = db.rows(sql`select pg_advisory_lock(${key}) is null as locked`);
        await vi.waitFor(async () => {
          const { rows } = await holder.query<{ n: string }>(
            "select count(*) as n from pg_locks where locktype = 'advisory' and not granted and classid = $1",
            [LOCK[0]],
          );
          expect(Number(rows[0]!.n)).toBe(1);
        });
        // A second read waits for a connection; a write does not.
        const second = db.rows<{ two: number }>(sql`select 2 as two`);
        await vi.waitFor(() => expect(db.stats().waiting).toBe(1));
        const write = await inWritersLane(() => db.rows<{ three: number }>(sql`select 3 as three`));
        expect(write).toEqual([{ three: 3 }]);
        expect(db.stats().waiting).toBe(1);
        await holder.query('select pg_advisory_unlock($1::int, $2::int)', [...LOCK]);
        expect(await blocked).toEqual([{ locked: false }]);
        expect(await second).toEqual([{ two: 2 }]);
        expect(db.stats().waiting).toBe(0);
        await db.rows(sql`select pg_advisory_unlock(${key})`);
      } finally {
        await holder.end();
        await db.close();
      }
    },
  );
});
