// Several servers, one PostgreSQL (README « Several servers behind a reverse proxy »): two server processes
// started at the same moment on one empty database take turns to migrate and create the first administrator
// once; a session opened on one works on the other; the log-in limits and the public summary's limit count
// the requests of both; the outbox's messages go out exactly once although both deliver; an export from
// either sees every report.
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateTOTP } from '@oslojs/otp';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_ADMIN_URL, postgresAvailable } from '#tests/helpers/db';
import {
  killHard,
  spawnServer,
  waitHealthy,
  type ServerProcess as Server,
} from '#tests/helpers/server-process';
import { MINIMAL_REPORT } from '#tests/helpers/signalements';
import { startTestSmtp, type TestSmtp } from '#tests/helpers/smtp';
import { formatDataKey, generateDataKey } from './crypto/cipher';
import { MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS } from './domains/auth/throttle';
import { PUBLIC_LOOKUPS_PER_ADDRESS } from './http/public-limit';

const ADMIN = { email: 'chef@example.mg', password: 'Vohitra-tsara-7824-mandry!' };
const available = await postgresAvailable();

/** A cookie jar of one: the session cookie a server set. */
const cookieOf = (res: Response) => res.headers.get('set-cookie')?.split(';')[0] ?? '';

describe.skipIf(!available)('two servers on one PostgreSQL', () => {
  const name = `signalements_multi_${randomBytes(5).toString('hex')}`;
  let smtp: TestSmtp;
  let a: Server;
  let b: Server;
  let admin: string;
  const databaseUrl = () => {
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    return url.toString();
  };

  const call = (server: Server, path: string, init: RequestInit & { cookie?: string } = {}) =>
    fetch(`${server.base}${path}`, {
      ...init,
      headers: {
        'sec-fetch-site': 'same-origin',
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...(init.cookie ? { cookie: init.cookie } : {}),
        ...(init.headers as Record<string, string> | undefined),
      },
    });

  beforeAll(async () => {
    const client = new pg.Client({ connectionString: PG_ADMIN_URL });
    await client.connect();
    await client.query(`create database ${name}`);
    await client.end();
    smtp = await startTestSmtp();
    const env = {
      DATABASE_URL: databaseUrl(),
      // Servers sharing a database share its data key (README, PostgreSQL).
      DATA_KEY: formatDataKey(generateDataKey()),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SMTP_URL: smtp.url,
    };
    // Both at the same moment, on an empty database.
    [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
    for (const server of [a, b]) await waitHealthy(server);
  }, 120_000);

  afterAll(async () => {
    for (const server of [a, b]) if (server) await killHard(server);
    await smtp?.close();
    const client = new pg.Client({ connectionString: PG_ADMIN_URL });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  });

  it('migrated once and created the first administrator once', () => {
    const announced = [a, b].filter((s) => s.output().includes('Premier administrateur créé'));
    expect(announced).toHaveLength(1);
    expect(a.output() + b.output()).not.toMatch(/Démarrage impossible|duplicate|already exists/);
  });

  it('a session opened on one server works on the other', async () => {
    const login = await call(a, '/api/login', { method: 'POST', body: JSON.stringify(ADMIN) });
    expect(login.status).toBe(200);
    admin = cookieOf(login);
    expect((await login.json()).twoFactor).toBe('enrol');
    // The second factor is enrolled on B with the session opened on A.
    const setup = await call(b, '/trpc/twoFactor.setup', { method: 'POST', cookie: admin, body: '{}' });
    const { secret } = ((await setup.json()) as { result: { data: { secret: string } } }).result.data;
    const enrol = await call(b, '/trpc/twoFactor.enrol', {
      method: 'POST',
      cookie: admin,
      body: JSON.stringify({
        password: ADMIN.password,
        code: generateTOTP(decodeBase32IgnorePadding(secret), 30, 6),
      }),
    });
    expect(enrol.status).toBe(200);
    for (const server of [a, b])
      expect((await call(server, '/api/signalements', { cookie: admin })).status).toBe(200);
  });

  it('counts the failed log-ins of both servers against one limit', async () => {
    const target = { email: 'personne@example.mg', password: 'pas-le-bon-mot-de-passe' };
    const statuses: number[] = [];
    for (let i = 0; i < MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS + 2; i++) {
      const res = await call(i % 2 === 0 ? a : b, '/api/login', {
        method: 'POST',
        body: JSON.stringify(target),
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS)).toEqual(
      Array(MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS).fill(401),
    );
    expect(statuses.slice(MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS)).toEqual([429, 429]);
  });

  it('counts the public summaries of both servers against one limit', async () => {
    const created = await call(a, '/api/signalements', {
      method: 'POST',
      cookie: admin,
      body: JSON.stringify(MINIMAL_REPORT),
    });
    expect(created.status).toBe(201);
    const { code } = (await created.json()) as { code: string };
    const statuses: number[] = [];
    for (let i = 0; i < PUBLIC_LOOKUPS_PER_ADDRESS + 2; i++) {
      statuses.push(
        (await fetch(`${(i % 2 === 0 ? a : b).base}/api/resume/signalements-details/${code}`)).status,
      );
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(PUBLIC_LOOKUPS_PER_ADDRESS);
    expect(statuses.slice(PUBLIC_LOOKUPS_PER_ADDRESS)).toEqual([429, 429]);
  });

  it('sends each queued e-mail exactly once although both servers deliver', async () => {
    const emails = Array.from({ length: 12 }, (_, i) => `invite${i}@example.mg`);
    for (const [i, email] of emails.entries()) {
      const res = await call(i % 2 === 0 ? a : b, '/api/utilisateur/create-user', {
        method: 'POST',
        cookie: admin,
        body: JSON.stringify({
          email,
          nomPrenom: `Invité ${i}`,
          utilisateurRole: '/api/utilisateur_roles/ROLE_USER',
        }),
      });
      expect(res.status).toBe(201);
    }
    await expect
      .poll(() => smtp.received.filter((m) => emails.includes(m.to)).length, { timeout: 30_000 })
      .toBe(emails.length);
    // Both workers finish what they started before the count: every message is marked sent (none can be
    // taken again), then each worker sends one more; a worker sends one message at a time, so a second
    // copy it had taken would have come before.
    const db = new pg.Client({ connectionString: databaseUrl() });
    await db.connect();
    try {
      const sent = async (to: string[]) =>
        (
          await db.query<{ to: string; claimed_by: string }>(
            `select "to", claimed_by from mail_outbox where "to" = any($1) and status = 'sent'`,
            [to],
          )
        ).rows;
      await expect.poll(async () => (await sent(emails)).length, { timeout: 30_000 }).toBe(emails.length);
      const workers = (await db.query<{ id: string }>('select id from mail_workers')).rows.map((r) => r.id);
      expect(workers).toHaveLength(2);
      const senders = new Set<string>();
      for (let i = 0; senders.size < workers.length; i++) {
        expect(i, 'chaque serveur a envoyé un dernier message').toBeLessThan(10);
        const last = `dernier${i}@example.mg`;
        const res = await call(i % 2 === 0 ? a : b, '/api/utilisateur/create-user', {
          method: 'POST',
          cookie: admin,
          body: JSON.stringify({
            email: last,
            nomPrenom: `Dernier ${i}`,
            utilisateurRole: '/api/utilisateur_roles/ROLE_USER',
          }),
        });
        expect(res.status).toBe(201);
        await expect.poll(async () => (await sent([last])).length, { timeout: 30_000 }).toBe(1);
        senders.add((await sent([last]))[0]!.claimed_by);
      }
    } finally {
      await db.end();
    }
    const received = smtp.received.filter((m) => emails.includes(m.to)).map((m) => m.to);
    expect(received.sort()).toEqual([...emails].sort());
  });

  it('exports from either server see every report', async () => {
    for (const server of [a, b]) {
      const res = await call(server, '/api/signalements/export/list', { cookie: admin });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { totalItems: number }).totalItems).toBe(1);
    }
  });
});
