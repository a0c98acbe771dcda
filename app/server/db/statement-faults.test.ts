// A PostgreSQL statement cut short through no fault of its request is answered 503 in French, to be sent
// again, on both doors (connection-lost.ts, retryableFault): past DATABASE_STATEMENT_TIMEOUT_SECONDS (57014),
// a prepared statement its connection no longer has (26000), a plan made before another server's migration
// changed its result (0A000 « cached plan must not change result type »). The errors are PostgreSQL's own.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, PG_ADMIN_URL, testEngines, type TestDatabase } from '#tests/helpers/db';
import { killHard, spawnServer, waitHealthy, type ServerProcess } from '#tests/helpers/server-process';
import { formatDataKey } from '../crypto/cipher';
import { createUser } from '../domains/utilisateurs/service';
import { MESSAGES, UNAVAILABLE_RETRY_SECONDS } from '../errors';
import { seed } from './seed/index';
import { interruptedStatement, isConnectionLost, retryableFault } from './connection-lost';

const withPostgres = (await testEngines()).includes('postgres');
const AGENT = { email: 'agent.delai@example.mg', password: 'Fanilo-mahery-4821-ambony!' };

/** The error PostgreSQL answers `statements` with (the last one must fail). */
async function failureOf(client: pg.Client, ...statements: string[]): Promise<unknown> {
  const last = statements.pop()!;
  for (const text of statements) await client.query(text);
  return client.query(last).then(
    () => {
      throw new Error(`${last} n'a pas échoué`);
    },
    (error: unknown) => error,
  );
}

describe.skipIf(!withPostgres)('PostgreSQL statements cut short', () => {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  beforeAll(async () => client.connect());
  afterAll(async () => client.end());

  it('tells a timeout, a lost or outdated prepared statement from the request’s own errors', async () => {
    const timeout = await failureOf(client, 'set statement_timeout = 50', 'select pg_sleep(1)');
    await client.query('reset statement_timeout');
    expect(interruptedStatement(timeout)).toBe('timeout');
    expect(await failureOf(client, 'execute aucune_instruction_preparee')).toSatisfy(
      (error) => interruptedStatement(error) === 'stale',
    );
    const outdated = await failureOf(
      client,
      'create temporary table plan_perime (a integer)',
      'prepare lecture_perimee as select * from plan_perime',
      'execute lecture_perimee',
      'alter table plan_perime add column b integer',
      'execute lecture_perimee',
    );
    expect(interruptedStatement(outdated)).toBe('stale');
    expect(retryableFault(timeout)?.answer.message).toBe(MESSAGES.readTimeout);
    expect(retryableFault(outdated)?.answer.message).toBe(MESSAGES.unavailable);
    // Still the request's own: a constraint, a syntax error, another « feature not supported » (0A000).
    await client.query('create temporary table unique_a (a integer primary key)');
    for (const error of [
      await failureOf(client, 'insert into unique_a values (1), (1)'),
      await failureOf(client, 'selec 1'),
      await failureOf(
        client,
        'create temporary table p (a integer) partition by range (a) with (fillfactor = 50)',
      ),
    ]) {
      expect(interruptedStatement(error), String(error)).toBeNull();
      expect(retryableFault(error), String(error)).toBeNull();
    }
    // A timeout is not a lost connection (its own answer, its own log line).
    expect(isConnectionLost(timeout)).toBe(false);
  });
});

describe.skipIf(!withPostgres)('a list read past the statement limit, in the server as it runs', () => {
  let database: TestDatabase | undefined;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    if (server) await killHard(server);
    await database?.drop();
  });

  it('is answered 503 in French on both doors, and the next read succeeds', async () => {
    database = await createTestDatabase('postgres');
    await seed(database.db);
    await createUser(database.db, { ...AGENT, nomPrenom: 'Agent Délai', roleCode: 'ROLE_USER' });
    server = await spawnServer({
      DATABASE_URL: database.url,
      DATA_KEY: formatDataKey(database.dataKey),
      DATABASE_STATEMENT_TIMEOUT_SECONDS: '1',
    });
    await waitHealthy(server);
    const login = await fetch(`${server.base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify(AGENT),
    });
    expect(login.status).toBe(200);
    const headers = { cookie: login.headers.get('set-cookie')!.split(';')[0]! };
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    try {
      // Every read of the reports waits for this lock until the statement limit cancels it.
      await locker.query('begin');
      await locker.query('lock table signalements in access exclusive mode');
      const rest = await fetch(`${server.base}/api/signalements`, { headers });
      expect(rest.status, await rest.clone().text()).toBe(503);
      expect(rest.headers.get('retry-after')).toBe(String(UNAVAILABLE_RETRY_SECONDS));
      expect(((await rest.json()) as { message: string }).message).toBe(MESSAGES.readTimeout);
      const input = encodeURIComponent(JSON.stringify({ page: 1 }));
      const trpc = await fetch(`${server.base}/trpc/signalements.list?input=${input}`, { headers });
      expect(trpc.status, await trpc.clone().text()).toBe(503);
      expect(((await trpc.json()) as { error: { message: string } }).error.message).toBe(
        MESSAGES.readTimeout,
      );
      await locker.query('rollback');
      expect((await fetch(`${server.base}/api/signalements`, { headers })).status).toBe(200);
    } finally {
      await locker.end();
    }
    expect(server.output()).toContain('statement timed out: 503');
  });
});
