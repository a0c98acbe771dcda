// Behind a proxy, the client does not choose its address (decision 0015, "Client address"). The proxy appends
// the address it saw to X-Forwarded-For; anything to its left was written by the client. Rotating that
// left-most value must not get a client past the per-address log-in limit, nor write its text as its address
// in the access log. `app.inject` connects from 127.0.0.1, the proxy of these tests.
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { MAX_ATTEMPTS_PER_ADDRESS } from '../domains/auth/throttle';

describe.each(await testEngines())('the client address behind a proxy on %s', (engine) => {
  const apps: TestApp[] = [];
  const app = async (TRUST_PROXY: string) => {
    const t = await createTestApp(engine, { TRUST_PROXY });
    await t.user('agent@example.mg', 'ROLE_USER', 'Rabe Hery');
    apps.push(t);
    return t;
  };
  let t: TestApp;
  beforeAll(async () => {
    t = await app('true');
  });
  afterAll(async () => Promise.all(apps.map((a) => a.close())));

  const login = (on: TestApp, forwardedFor: string, email = 'agent@example.mg', password = TEST_PASSWORD) =>
    on.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'x-forwarded-for': forwardedFor },
      payload: { email, password },
    });
  /** The address of the access log's last log-in. */
  const lastLoginAddress = async (on: TestApp) => {
    const l = on.db.t.accessLog;
    const [row] = await on.db.read
      .select({ address: l.address })
      .from(l)
      .where(eq(l.kind, 'connexion'))
      .orderBy(desc(l.id))
      .limit(1);
    return row?.address;
  };

  it('counts the log-in attempts of one client whatever left-most X-Forwarded-For it rotates', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= MAX_ATTEMPTS_PER_ADDRESS; i++) {
      // A different account each time: only the per-address limit can answer 429.
      const res = await login(
        t,
        `203.0.113.${i + 1}, 41.188.60.6`,
        `inconnu-${i}@example.mg`,
        'mauvais-mot-de-passe',
      );
      statuses.push(res.statusCode);
    }
    expect(
      statuses.slice(0, MAX_ATTEMPTS_PER_ADDRESS).every((s) => s === 401),
      statuses.join(' '),
    ).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another client behind the same proxy is not affected.
    expect((await login(t, '41.188.60.7')).statusCode).toBe(200);
  });

  it('writes the address the proxy saw in the access log, never the text a client put to its left', async () => {
    expect((await login(t, '8.8.8.8, 41.188.61.1')).statusCode).toBe(200);
    expect(await lastLoginAddress(t)).toBe('41.188.61.1');
    // A forwarded value that is no address (a proxy passing the client's header on): the socket's address.
    expect((await login(t, "admin'); DROP TABLE x; --")).statusCode).toBe(200);
    expect(await lastLoginAddress(t)).toBe('127.0.0.1');
  });

  it('with the proxies listed, or counted, keeps the first address that is not a proxy', async () => {
    const listed = await app('10.0.0.0/8, 127.0.0.1');
    expect((await login(listed, '8.8.8.8, 41.188.62.2, 10.1.2.3')).statusCode).toBe(200);
    expect(await lastLoginAddress(listed)).toBe('41.188.62.2');
    const hops = await app('2');
    expect((await login(hops, '8.8.8.8, 41.188.63.3, 10.1.2.3')).statusCode).toBe(200);
    expect(await lastLoginAddress(hops)).toBe('41.188.63.3');
    // Two hops trusted where the client wrote the second one itself: not an address, so the socket's.
    expect((await login(hops, 'pas-une-adresse')).statusCode).toBe(200);
    expect(await lastLoginAddress(hops)).toBe('127.0.0.1');
  });

  it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
    const direct = await app('false');
    expect((await login(direct, '41.188.64.4')).statusCode).toBe(200);
    expect(await lastLoginAddress(direct)).toBe('127.0.0.1');
  });
});
