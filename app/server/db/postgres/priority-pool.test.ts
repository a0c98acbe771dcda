// The pool hands its connections to the writers' lane first (priority-pool.ts, decision 0054): readers
// never hold the connections kept for writers, a write waiting beside reads gets the next free one, and a
// wait past the connection timeout fails as pg-pool's own wait does (answered 503).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConnectionLost } from '../connection-lost';
import { inWritersLane } from '../lanes';
import { PG_ADMIN_URL, postgresAvailable } from '#tests/helpers/db';
import { PriorityPool } from './priority-pool';
import type pg from 'pg';

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

describe.skipIf(!(await postgresAvailable()))('a pool that serves writers first', () => {
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
    const held: pg.PoolClient[] = await Promise.all([checkout(pool, false), checkout(pool, false)]);
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
