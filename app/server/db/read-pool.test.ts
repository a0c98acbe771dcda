// Reads on reader threads (decision 0021): a long read leaves the event loop free, rows come back as the
// in-thread reader gives them, errors keep the engine's code, and a closed database refuses reads.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/db';
import { MESSAGES } from '../errors';
import { openDatabase } from './client';
import { ReadPool } from './read-pool';

describe('SQLite reader threads', () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase('sqlite');
  });
  afterAll(async () => tdb?.drop());

  const slowCount = sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000000) select count(*) as c from n`;

  it('runs a long read off the event loop: timers keep firing meanwhile', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      const [row] = await tdb.db.rows<{ c: number }>(slowCount);
      expect(row!.c).toBe(3_000_000);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  });

  it('blocks the event loop when reading on the calling thread (readWorkers: 0), which is what the threads avoid', async () => {
    const inThread = openDatabase(tdb.url, { readWorkers: 0 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      await inThread.rows(slowCount);
      expect(ticks).toBe(0);
    } finally {
      clearInterval(timer);
      await inThread.close();
    }
  });

  it('gives the same rows and types through the builder and raw SQL as the in-thread reader', async () => {
    const inThread = openDatabase(tdb.url, { readWorkers: 0 });
    try {
      const u = tdb.db.t.utilisateurRoles;
      const p = tdb.db.t.partenaires;
      await tdb.db.transaction((tx) =>
        tx.insert(u).values({ code: 'ROLE_T', designation: 'Rôle « test » é' }),
      );
      const query = (db: typeof tdb.db) =>
        db.read.select({ code: u.code, designation: u.designation }).from(u).orderBy(u.code);
      expect(await query(tdb.db)).toEqual(await query(inThread));
      const partners = (db: typeof tdb.db) => db.read.select().from(p).orderBy(p.code);
      expect(await partners(tdb.db)).toEqual(await partners(inThread));
      const raw = sql`select code, 1 = 1 as yes, null as absent from utilisateur_roles order by code`;
      expect(await tdb.db.rows(raw)).toEqual(await inThread.rows(raw));
    } finally {
      await inThread.close();
    }
  });

  it('rejects a failing read with the engine’s message and code, and keeps serving', async () => {
    await expect(tdb.db.rows(sql`select * from table_absente`)).rejects.toMatchObject({
      message: expect.stringContaining('no such table'),
      code: 'SQLITE_ERROR',
    });
    expect(await tdb.db.rows(sql`select 1 as one`)).toEqual([{ one: 1 }]);
  });

  it('spreads concurrent reads over its threads and reports them in stats()', async () => {
    const reads = Promise.all(Array.from({ length: 6 }, () => tdb.db.rows(slowCount)));
    await new Promise((done) => setTimeout(done, 20));
    const during = tdb.db.stats();
    await reads;
    expect(during.connections).toBeGreaterThanOrEqual(2);
    expect(during.waiting).toBeGreaterThan(0);
    expect(tdb.db.stats().waiting).toBe(0);
  });

  it('replaces a reader thread that dies, failing only the read it held', async () => {
    const pool = new ReadPool(tdb.url.slice('file:'.length), 2);
    try {
      expect(await pool.run('select 1 as one', [], 'objects')).toEqual([{ one: 1 }]);
      const { threads } = pool as unknown as { threads: { handle: Worker }[] };
      await threads[0]!.handle.terminate();
      await expect.poll(() => pool.stats().readers).toBe(2);
      const results = await Promise.all(
        Array.from({ length: 4 }, () => pool.run('select 2 as two', [], 'objects')),
      );
      expect(results).toEqual(Array.from({ length: 4 }, () => [{ two: 2 }]));
    } finally {
      await pool.close();
    }
  });

  it('answers a read past its deadline with the French 503, sets its thread aside for a new one, and says when every thread is stuck', async () => {
    // A statement that runs for seconds, far past the deadline: a stuck thread. It cannot be stopped inside
    // SQLite (no interrupt): the pool leaves it to finish and stops giving it work.
    const stuck =
      'with recursive n(i) as (select 1 union all select i + 1 from n where i < 40000000) select count(*) as c from n';
    const pool = new ReadPool(tdb.url.slice('file:'.length), 1, 1000);
    const timeout = { name: 'DomainError', kind: 'unavailable', message: MESSAGES.readTimeout };
    try {
      expect(await pool.run('select 1 as one', [], 'objects')).toEqual([{ one: 1 }]);
      await expect(pool.run(stuck, [], 'objects')).rejects.toMatchObject(timeout);
      expect(pool.health()).toMatchObject({ threads: 1, stuck: 1, timeouts: 1, down: false });
      expect(await pool.run('select 2 as two', [], 'objects')).toEqual([{ two: 2 }]);

      // Stuck threads hold a core each: past as many as the pool's size, none is added, and every read
      // gets the 503 at its deadline instead of waiting for ever.
      await expect(pool.run(stuck, [], 'objects')).rejects.toMatchObject(timeout);
      expect(pool.health()).toMatchObject({ threads: 0, stuck: 2, timeouts: 2, down: true });
      await expect(pool.run('select 3', [], 'objects')).rejects.toMatchObject(timeout);

      // Once their statements end, the stuck threads are gone and a new one serves.
      await expect
        .poll(() => pool.health(), { timeout: 60_000, interval: 200 })
        .toMatchObject({ threads: 1, stuck: 0, down: false });
      expect(await pool.run('select 4 as four', [], 'objects')).toEqual([{ four: 4 }]);
    } finally {
      await pool.close();
    }
  }, 90_000);

  it('fails reads, instead of hanging or respawning forever, when no reader can open the file', async () => {
    const pool = new ReadPool(join(tmpdir(), `absente-${process.pid}.db`), 2);
    try {
      await expect(pool.run('select 1', [], 'objects')).rejects.toThrow();
      expect(pool.stats().waiting).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('refuses reads once closed', async () => {
    const other = openDatabase(tdb.url);
    await other.rows(sql`select 1`);
    await other.close();
    await expect(other.rows(sql`select 1`)).rejects.toThrow('Base de données fermée.');
  });
});

describe('DATABASE_READ_WORKERS', () => {
  it('is a whole number from 0 to 16; unset or empty, one per core', async () => {
    const { loadConfig } = await import('../config');
    expect(loadConfig({}).DATABASE_READ_WORKERS).toBeUndefined();
    expect(loadConfig({ DATABASE_READ_WORKERS: '' }).DATABASE_READ_WORKERS).toBeUndefined();
    expect(loadConfig({ DATABASE_READ_WORKERS: '0' }).DATABASE_READ_WORKERS).toBe(0);
    expect(() => loadConfig({ DATABASE_READ_WORKERS: '17' })).toThrow('DATABASE_READ_WORKERS: au plus 16');
    expect(() => loadConfig({ DATABASE_READ_WORKERS: 'deux' })).toThrow(
      'DATABASE_READ_WORKERS: doit être un nombre',
    );
  });
});

describe('READ_JOB_TIMEOUT_SECONDS', () => {
  it('is a whole number of seconds from 1 to 3600, 30 by default, refused in French otherwise', async () => {
    const { loadConfig } = await import('../config');
    expect(loadConfig({}).READ_JOB_TIMEOUT_SECONDS).toBe(30);
    expect(loadConfig({ READ_JOB_TIMEOUT_SECONDS: '5' }).READ_JOB_TIMEOUT_SECONDS).toBe(5);
    expect(() => loadConfig({ READ_JOB_TIMEOUT_SECONDS: '0' })).toThrow(
      'READ_JOB_TIMEOUT_SECONDS: au moins 1',
    );
    expect(() => loadConfig({ READ_JOB_TIMEOUT_SECONDS: '3601' })).toThrow(
      'READ_JOB_TIMEOUT_SECONDS: au plus 3600',
    );
    expect(() => loadConfig({ READ_JOB_TIMEOUT_SECONDS: 'trente' })).toThrow(
      'READ_JOB_TIMEOUT_SECONDS: doit être un nombre',
    );
  });
});
