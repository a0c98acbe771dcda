// kill -9 during writes (decisions 0019 and 0020): the real server process is killed with SIGKILL while
// several clients create reports (each with a source, encrypted at rest) as fast as it answers; a new
// process on the same database starts without help, and every report whose creation was acknowledged
// (201) is there, with its source readable. Both engines.
import { inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testEngines, type TestDatabase } from '#tests/helpers/db';
import { killHard, spawnServer, waitHealthy, type ServerProcess } from '#tests/helpers/server-process';
import { MINIMAL_REPORT } from '#tests/helpers/signalements';
import { formatDataKey } from './crypto/cipher';
import { openDatabase } from './db/client';
import { seed } from './db/seed/index';
import { createUser } from './domains/utilisateurs/service';

const AGENT = { email: 'agent.crash@example.mg', password: 'Fanilo-mahery-4821-ambony!' };
const WRITERS = 6;

describe.each(await testEngines())('kill -9 during writes on %s', (engine) => {
  let database: TestDatabase;
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    for (const server of servers) await killHard(server);
    await database?.drop();
  });

  const start = async (env: Record<string, string>) => {
    const server = await spawnServer(env);
    servers.push(server);
    await waitHealthy(server);
    return server;
  };

  const logIn = async (server: ServerProcess) => {
    const res = await fetch(`${server.base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(AGENT),
    });
    expect(res.status).toBe(200);
    return res.headers.get('set-cookie')!.split(';')[0]!;
  };

  /** Requests sent and not yet answered. */
  let inFlight = 0;
  const post = async (server: ServerProcess, cookie: string, path: string, body: unknown) => {
    inFlight++;
    try {
      return await fetch(`${server.base}${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
        body: JSON.stringify(body),
      });
    } finally {
      inFlight--;
    }
  };

  it('keeps every acknowledged report and its source, and the next start needs no help', async () => {
    database = await createTestDatabase(engine);
    await seed(database.db);
    await createUser(database.db, {
      email: AGENT.email,
      nomPrenom: 'Agent Crash',
      roleCode: 'ROLE_USER',
      password: AGENT.password,
    });
    const env = { DATABASE_URL: database.url, DATA_KEY: formatDataKey(database.dataKey) };

    const first = await start(env);
    const cookie = await logIn(first);
    /** Report code → its source's name, for every acknowledged pair. */
    const acknowledged = new Map<string, string | null>();
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const report = await post(first, cookie, '/api/signalements', {
            ...MINIMAL_REPORT,
            description: `Écrit par le client ${w}, essai ${i}`,
          });
          if (report.status !== 201) continue;
          const { code } = (await report.json()) as { code: string };
          acknowledged.set(code, null);
          const name = `Source ${w}-${i} Rakotobe`;
          const source = await post(first, cookie, '/api/sources', {
            signalement: `/api/signalements/${code}`,
            nomPrenom: name,
          });
          if (source.status === 201) acknowledged.set(code, name);
        } catch {
          // The connection died with the process: this create was never acknowledged.
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
    // Kill once writes are well under way.
    while (acknowledged.size < 60) await new Promise((done) => setTimeout(done, 20));
    // Six writers that always have a request out: some are in flight at the kill (the test would prove
    // nothing if none were).
    const inFlightAtKill = inFlight;
    await killHard(first);
    stop = true;
    await Promise.all(writers);
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect([...acknowledged.values()].filter((name) => name !== null).length).toBeGreaterThan(20);

    // A new process on the same database: no recovery step, no manual action.
    const second = await start(env);
    const codes = [...acknowledged.keys()];
    const check = openDatabase(database.url, { readWorkers: 0 });
    try {
      const s = check.t.signalements;
      const found = await check.read.select({ code: s.code }).from(s).where(inArray(s.code, codes));
      expect(found.map((r) => r.code).sort()).toEqual([...codes].sort());
    } finally {
      await check.close();
    }
    // Through the server: each report with an acknowledged source shows it (decrypted with the same key).
    const again = await logIn(second);
    const withSource = [...acknowledged].filter(([, name]) => name !== null);
    for (const [code, name] of withSource.slice(0, 10)) {
      const res = await fetch(`${second.base}/api/signalements/${code}/source`, {
        headers: { cookie: again },
      });
      expect(res.status).toBe(200);
      expect(JSON.stringify(await res.json())).toContain(name);
    }
  }, 180_000);
});
