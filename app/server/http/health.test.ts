// /api/health tells the truth (README « Health and metrics »): up or down only without METRICS_TOKEN, the
// details with it; « error » (503) while writes fail on a full disk, while the database lost its data key
// verifier or holds another key's, and while every reader thread is stuck (then lists and reports answer a
// French 503 at their deadline instead of hanging), « degraded » while a stuck thread's replacement serves.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport } from '#tests/helpers/signalements';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createCipher, generateDataKey } from '../crypto/cipher';
import { verifierOf } from '../crypto/data-key';
import { createAppContext } from '../context';
import { openDatabase, type Database } from '../db/client';
import { seed } from '../db/seed/index';
import { MESSAGES } from '../errors';

const TOKEN = 'jeton-de-mesure-0123456789';
const BEARER = { authorization: `Bearer ${TOKEN}` };

const health = (app: FastifyInstance, headers: Record<string, string> = {}) =>
  app.inject({ url: '/api/health', headers });

describe.each(await testEngines())('health check on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => t?.close());

  it('says only up or down without the metrics token, and gives the details with it', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, 'Bearer ']) {
      const res = await health(t.app, authorization ? { authorization } : {});
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
    }
    const res = await health(t.app, BEARER);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ok',
      database: 'ok',
      writes: 'ok',
      key: 'ok',
      mail: { pending: 0, failed: 0, oldestPendingSeconds: null },
    });
    if (engine === 'sqlite')
      expect(res.json().threads.readers).toMatchObject({ stuck: 0, timeouts: 0, down: false, state: 'ok' });
  });

  it('is an error while the database has lost its data key verifier, or holds another key’s', async () => {
    const k = t.db.t.dataKeyCheck;
    const [row] = await t.db.read.select().from(k);
    try {
      await t.db.transaction((tx) => tx.delete(k));
      expect((await health(t.app)).statusCode).toBe(503);
      expect((await health(t.app)).json()).toEqual({ status: 'error' });
      expect((await health(t.app, BEARER)).json()).toMatchObject({ status: 'error', key: 'absente' });

      await t.db.transaction((tx) =>
        tx.insert(k).values({ verifier: verifierOf(createCipher(generateDataKey())) }),
      );
      const other = await health(t.app, BEARER);
      expect(other.statusCode).toBe(503);
      expect(other.json()).toMatchObject({ status: 'error', key: 'différente' });
    } finally {
      await t.db.transaction(async (tx) => {
        await tx.delete(k);
        await tx.insert(k).values(row!);
      });
    }
    expect((await health(t.app, BEARER)).json()).toMatchObject({ status: 'ok', key: 'ok' });
  });

  it.runIf(engine === 'postgres')(
    'is an error once a write fails for lack of disk space (PostgreSQL 53100)',
    async () => {
      // PostgreSQL's own answer to a full disk, from a trigger: the table of the health check's probe.
      await t.db.execute(sql`create function disque_plein() returns trigger language plpgsql as $$
      begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$`);
      await t.db.execute(
        sql`create trigger disque_plein before insert or update on rate_windows for each row execute function disque_plein()`,
      );
      try {
        const write = t.db.transaction((tx) =>
          tx.insert(t.db.t.rateWindows).values({ key: 'essai', startedAt: new Date(), count: 1 }),
        );
        await expect(write).rejects.toMatchObject({ cause: { code: '53100' } });
        const res = await health(t.app, BEARER);
        expect(res.statusCode).toBe(503);
        expect(res.json()).toMatchObject({ status: 'error', database: 'ok', writes: 'disque plein' });
        expect((await health(t.app)).json()).toEqual({ status: 'error' });
      } finally {
        await t.db.execute(sql`drop trigger disque_plein on rate_windows`);
      }
    },
  );
});

describe('health check on a SQLite file whose disk is full', () => {
  const dir = mkdtempSync(join(tmpdir(), 'signalements-health-'));
  let mounted = false;
  let db: Database | undefined;
  let app: FastifyInstance | undefined;
  afterAll(async () => {
    await app?.close();
    await db?.close();
    if (mounted) spawnSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('is an error once a write fails with SQLITE_FULL', async () => {
    // A small tmpfs: mounting needs root, which the CI machine has; elsewhere the case is skipped.
    const res = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', dir], { encoding: 'utf8' });
    if (res.status !== 0) {
      if (process.env.CI) throw new Error(`mount tmpfs impossible sous CI : ${res.stderr}`);
      console.warn(`\n⚠️  mount tmpfs impossible (${res.stderr.trim()}) : cas ignoré.\n`);
      return;
    }
    mounted = true;
    const url = `file:${join(dir, 'test.db')}`;
    db = openDatabase(url);
    await db.migrate();
    await seed(db);
    const cipher = createCipher(generateDataKey());
    await db.transaction((tx) => tx.insert(db!.t.dataKeyCheck).values({ verifier: verifierOf(cipher) }));
    app = await buildApp({
      ctx: createAppContext(loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: url, METRICS_TOKEN: TOKEN }), {
        db,
        cipher,
      }),
    });
    await app.ready();
    expect((await health(app, BEARER)).json()).toMatchObject({ status: 'ok', writes: 'ok' });

    // The WAL emptied, then the disk filled: the next commit cannot grow the WAL.
    await db.execute(sql`pragma wal_checkpoint(TRUNCATE)`);
    mkdirSync(join(dir, 'plein'));
    const fd = openSync(join(dir, 'plein', 'remplissage'), 'w');
    try {
      for (let size = 1 << 20; size >= 512;) {
        try {
          writeSync(fd, Buffer.alloc(size));
        } catch {
          size >>= 1;
        }
      }
    } finally {
      closeSync(fd);
    }
    const write = db.transaction((tx) =>
      tx.insert(db!.t.rateWindows).values({ key: 'essai', startedAt: new Date(), count: 1 }),
    );
    await expect(write).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    const full = await health(app, BEARER);
    expect(full.statusCode).toBe(503);
    expect(full.json()).toMatchObject({ status: 'error', database: 'ok', writes: 'disque plein' });
    expect((await health(app)).json()).toEqual({ status: 'error' });
  });
});

describe('health check while every reader thread is stuck (SQLite)', () => {
  let t: TestApp;
  let db: Database;
  let app: FastifyInstance;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { METRICS_TOKEN: TOKEN });
    await t.user('lecteur@example.mg', 'ROLE_GESTIONNAIRE');
    cookie = await t.login('lecteur@example.mg');
    await createReport(t, cookie);
    // The same database served with one reader thread and a one-second deadline per read.
    db = openDatabase(t.db.url, { readWorkers: 1, readJobTimeoutMs: 1000 });
    app = await buildApp({ ctx: createAppContext(t.config, { db, cipher: t.ctx.cipher }) });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    await t?.close();
  });

  // A page that a reader thread reads: the list as it opens is read on the serving thread (its total and its
  // three prepared statements, bounded by days and by 20 reports: decisions 0063 and 0065).
  const list = () => app.inject({ url: '/api/signalements?page=2', headers: { cookie } });
  const trpcList = () =>
    app.inject({
      url: `/trpc/signalements.list?input=${encodeURIComponent(JSON.stringify({ page: 2, itemsPerPage: 20 }))}`,
      headers: { cookie, ...SAME_ORIGIN },
    });

  it('answers lists with a French 503 at the deadline instead of hanging, and reports it until the threads are back', async () => {
    expect((await list()).statusCode).toBe(200);
    // Reads that run for seconds past the deadline: their threads cannot be stopped inside SQLite.
    const stuck = sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 60000000) select count(*) as c from n`;
    const timeout = { kind: 'unavailable', message: MESSAGES.readTimeout };
    await expect(db.rows(stuck)).rejects.toMatchObject(timeout);
    const degraded = await health(app, BEARER);
    expect(degraded.statusCode).toBe(200);
    expect(degraded.json()).toMatchObject({
      status: 'degraded',
      threads: { readers: { threads: 1, stuck: 1, state: 'dégradés' } },
    });
    expect((await list()).statusCode).toBe(200);

    await expect(db.rows(stuck)).rejects.toMatchObject(timeout);
    const down = await health(app, BEARER);
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({
      status: 'error',
      threads: { readers: { threads: 0, stuck: 2, down: true, state: 'bloqués' } },
    });
    expect((await health(app)).json()).toEqual({ status: 'error' });

    const rest = await list();
    expect(rest.statusCode).toBe(503);
    expect(rest.json()).toEqual({ status: 503, message: MESSAGES.readTimeout });
    expect(rest.headers['retry-after']).toBe('5');
    const trpc = await trpcList();
    expect(trpc.statusCode).toBe(503);
    expect(trpc.json().error.message).toBe(MESSAGES.readTimeout);
    // The list as it opens needs no reader thread: it still answers.
    const opening = await app.inject({ url: '/api/signalements', headers: { cookie } });
    expect(opening.statusCode, opening.body).toBe(200);
    expect(opening.json().totalItems).toBe(1);

    // When the stuck statements end, a thread serves again.
    await expect
      .poll(async () => (await health(app)).statusCode, { timeout: 60_000, interval: 500 })
      .toBe(200);
    expect((await list()).statusCode).toBe(200);
  }, 90_000);
});
