// A lost PostgreSQL connection never kills the process (docs/decisions/0019-durability.md). The
// real server runs in a child process while clients create reports, each with its Idempotency-Key:
// - the app's backends are terminated mid-request (pg_terminate_backend from another connection);
// - a PostgreSQL cluster of the test's own is stopped (a restart: sessions terminated) and started again.
// The process survives; every request gets 201 or a French 503 (each one sent during the outage a 503);
// after PostgreSQL is back new requests succeed without restarting the app; every 503'd create retried
// with its key gets 201 without duplicating it; every acknowledged report is in the database.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, PG_ADMIN_URL, postgresAvailable, type TestDatabase } from '#tests/helpers/db';
import { clusterBinariesAvailable, createCluster, type PgCluster } from '#tests/helpers/pg-cluster';
import { killHard, spawnServer, waitHealthy, type ServerProcess } from '#tests/helpers/server-process';
import { MINIMAL_REPORT } from '#tests/helpers/signalements';
import { formatDataKey, generateDataKey } from './crypto/cipher';
import { openDatabase, type Database } from './db/client';
import { seed } from './db/seed/index';
import { createUser } from './domains/utilisateurs/service';
import { MESSAGES } from './errors';

const AGENT = { email: 'agent.coupure@example.mg', password: 'Fanilo-mahery-4821-ambony!' };
const WRITERS = 6;
const SAME_ORIGIN = { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' };

async function prepare(db: Database): Promise<void> {
  await seed(db);
  await createUser(db, {
    email: AGENT.email,
    nomPrenom: 'Agent Coupure',
    roleCode: 'ROLE_USER',
    password: AGENT.password,
  });
}

async function logIn(server: ServerProcess): Promise<string> {
  const res = await fetch(`${server.base}/api/login`, {
    method: 'POST',
    headers: SAME_ORIGIN,
    body: JSON.stringify(AGENT),
  });
  expect(res.status).toBe(200);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

interface Outcome {
  key: string;
  /** What the test was doing when the request was sent. */
  sentWhile: string;
  /** 0: no answer (the process died). */
  status: number;
  code?: string;
  message?: string;
}

async function create(
  server: ServerProcess,
  cookie: string,
  key: string,
): Promise<Omit<Outcome, 'sentWhile'>> {
  try {
    const res = await fetch(`${server.base}/api/signalements`, {
      method: 'POST',
      headers: { ...SAME_ORIGIN, cookie, 'idempotency-key': key },
      body: JSON.stringify({ ...MINIMAL_REPORT, description: `Saisie ${key}` }),
    });
    const body = (await res.json()) as { code?: string; message?: string };
    return { key, status: res.status, code: body.code, message: body.message };
  } catch {
    return { key, status: 0 };
  }
}

/** Clients creating reports as fast as the server answers (a short pause after a refusal). */
function startWriters(server: ServerProcess, cookie: string) {
  const outcomes: Outcome[] = [];
  let phase = 'before';
  let stopped = false;
  const writer = async (w: number) => {
    for (let i = 0; !stopped; i++) {
      const sentWhile = phase;
      const outcome = { ...(await create(server, cookie, `coupure-${w}-${i}`)), sentWhile };
      outcomes.push(outcome);
      if (outcome.status !== 201) await new Promise((done) => setTimeout(done, 50));
    }
  };
  const running = Array.from({ length: WRITERS }, (_, w) => writer(w));
  return {
    outcomes,
    setPhase: (next: string) => (phase = next),
    acknowledged: (sentWhile?: string) =>
      outcomes.filter((o) => o.status === 201 && (!sentWhile || o.sentWhile === sentWhile)).length,
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

/** Waits for `check` to pass; fails at once, with the server's output, if the process dies meanwhile. */
async function waitAlive(server: ServerProcess, check: () => void, timeout = 30_000): Promise<void> {
  let onExit!: () => void;
  const died = new Promise<never>((_, fail) => {
    onExit = () => fail(new Error(`le serveur s'est arrêté :\n${server.output()}`));
    if (server.child.exitCode !== null || server.child.signalCode !== null) onExit();
    else server.child.once('exit', onExit);
  });
  try {
    await Promise.race([vi.waitFor(check, { timeout, interval: 50 }), died]);
  } finally {
    server.child.off('exit', onExit);
  }
}

/**
 * The process is alive; every create got 201 or the French 503; each 503'd create, sent again with its
 * key, gets 201; and the reports in the database are exactly the acknowledged ones (none lost, none twice).
 */
async function expectNothingLost(server: ServerProcess, cookie: string, outcomes: Outcome[], url: string) {
  expect(server.child.exitCode, server.output()).toBeNull();
  expect(server.child.signalCode).toBeNull();
  expect(outcomes.filter((o) => o.status !== 201 && o.status !== 503)).toEqual([]);
  const refused = outcomes.filter((o) => o.status === 503);
  expect(new Set(refused.map((o) => o.message))).toEqual(new Set([MESSAGES.unavailable]));
  const acknowledged = new Set(outcomes.filter((o) => o.status === 201).map((o) => o.code!));
  for (const { key } of refused) {
    const retried = await create(server, cookie, key);
    expect(retried.status).toBe(201);
    acknowledged.add(retried.code!);
  }
  const check = openDatabase(url, { readWorkers: 0 });
  try {
    const s = check.t.signalements;
    const stored = (await check.read.select({ code: s.code }).from(s)).map((r) => r.code);
    expect(stored.length).toBe(new Set(stored).size);
    expect(new Set(stored)).toEqual(acknowledged);
  } finally {
    await check.close();
  }
}

describe.skipIf(!(await postgresAvailable()))('PostgreSQL backends terminated mid-request', () => {
  let database: TestDatabase;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    if (server) await killHard(server);
    await database?.drop();
  });

  it('keeps the process up, answers a French 503, loses no acknowledged create and serves the next requests', async () => {
    database = await createTestDatabase('postgres');
    await prepare(database.db);
    server = await spawnServer({ DATABASE_URL: database.url, DATA_KEY: formatDataKey(database.dataKey) });
    await waitHealthy(server);
    const cookie = await logIn(server);
    const load = startWriters(server, cookie);
    const dbName = new URL(database.url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    try {
      for (let round = 0; round < 5; round++) {
        const before = load.acknowledged();
        await waitAlive(server, () => expect(load.acknowledged()).toBeGreaterThanOrEqual(before + 8));
        const { rows } = await admin.query<{ n: number }>(
          `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
            where datname = $1 and backend_type = 'client backend' and pid <> pg_backend_pid()`,
          [dbName],
        );
        expect(rows[0]!.n).toBeGreaterThan(0);
      }
    } finally {
      await admin.end();
    }
    // Served again without a restart: new connections replace the terminated ones.
    load.setPhase('after');
    await waitAlive(server, () => expect(load.acknowledged('after')).toBeGreaterThanOrEqual(10));
    await load.stop();
    // Some requests were cut mid-way (the test proves nothing if none were).
    expect(load.outcomes.filter((o) => o.status === 503).length).toBeGreaterThan(0);
    await expectNothingLost(server, cookie, load.outcomes, database.url);
  }, 180_000);
});

describe.skipIf(!clusterBinariesAvailable())('PostgreSQL restarted under writes', () => {
  let cluster: PgCluster;
  let url: string;
  let server: ServerProcess | undefined;
  const dataKey = generateDataKey();
  beforeAll(async () => {
    cluster = await createCluster();
    await cluster.start();
    const admin = new pg.Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    await admin.query('create database signalements');
    await admin.end();
    url = cluster.url('signalements');
    const db = openDatabase(url);
    try {
      await db.migrate();
      await prepare(db);
    } finally {
      await db.close();
    }
  }, 120_000);
  afterAll(async () => {
    if (server) await killHard(server);
    await cluster?.destroy();
  });

  it('answers a French 503 while it is down and serves again once it is back, with no acknowledged write lost', async () => {
    server = await spawnServer({ DATABASE_URL: url, DATA_KEY: formatDataKey(dataKey) });
    await waitHealthy(server);
    const cookie = await logIn(server);
    const load = startWriters(server, cookie);
    await waitAlive(server, () => expect(load.acknowledged()).toBeGreaterThanOrEqual(20));

    await cluster.stop('fast');
    load.setPhase('down');
    await waitAlive(server, () =>
      expect(load.outcomes.filter((o) => o.sentWhile === 'down').length).toBeGreaterThanOrEqual(WRITERS * 2),
    );
    // Both doors, with and without a session: a French 503, and when to try again.
    const list = await fetch(`${server.base}/api/signalements`, { headers: { cookie } });
    expect(list.status).toBe(503);
    expect(list.headers.get('retry-after')).toBe('5');
    expect(await list.json()).toEqual({ status: 503, message: MESSAGES.unavailable });
    const trpcLogin = await fetch(`${server.base}/trpc/auth.login`, {
      method: 'POST',
      headers: SAME_ORIGIN,
      body: JSON.stringify(AGENT),
    });
    expect(trpcLogin.status).toBe(503);
    const trpcBody = (await trpcLogin.json()) as { error: { message: string; data: { code: string } } };
    expect(trpcBody.error.message).toBe(MESSAGES.unavailable);
    expect(trpcBody.error.data.code).toBe('SERVICE_UNAVAILABLE');
    expect((await fetch(`${server.base}/api/health`)).status).toBe(503);

    load.setPhase('restarting');
    await cluster.start();
    load.setPhase('after');
    await waitAlive(server, () => expect(load.acknowledged('after')).toBeGreaterThanOrEqual(20));
    await load.stop();
    // Every request sent while PostgreSQL was down got the 503.
    const down = load.outcomes.filter((o) => o.sentWhile === 'down');
    expect(down.filter((o) => o.status !== 503)).toEqual([]);
    expect((await fetch(`${server.base}/api/health`)).status).toBe(200);
    await expectNothingLost(server, cookie, load.outcomes, url);
  }, 180_000);
});
