// The log-in limits: per account and address, tRPC batches, floods, hashing shares per client.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_PASSWORD, type TestApp } from '#tests/helpers/app';
import { authApp, authRequests } from './auth.harness';
import { testEngines } from '#tests/helpers/db';
import { TRPC_MAX_BATCH } from '#shared/constants';
import { hashGate } from './password';
import {
  MAX_ATTEMPTS_PER_ACCOUNT,
  MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS,
  MAX_ATTEMPTS_PER_ADDRESS,
} from './throttle';

describe.each(await testEngines())('log-in limits on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await authApp(engine);
  });
  afterAll(async () => t?.close());

  const { loginRes } = authRequests(() => t);

  it('refuses a sixth guess on one account from one address, in French, even with the right password', async () => {
    await t.user('cible@example.mg');
    for (let i = 0; i < MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS; i++) {
      expect((await loginRes('cible@example.mg', 'mauvais', '10.1.0.1')).statusCode).toBe(401);
    }
    const blocked = await loginRes('cible@example.mg', TEST_PASSWORD, '10.1.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(
      /^Trop de tentatives de connexion\. Réessayez dans \d+ minute\(s\)\.$/,
    );
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The owner, from another address, is not locked out by someone else's guesses.
    expect((await loginRes('cible@example.mg', TEST_PASSWORD, '10.2.0.1')).statusCode).toBe(200);
  });

  it('stops guessing on one account from many addresses with a slower per-account limit', async () => {
    await t.user('distribuee@example.mg');
    for (let i = 0; i < MAX_ATTEMPTS_PER_ACCOUNT; i++) {
      expect(
        (await loginRes('distribuee@example.mg', 'mauvais', `10.3.${i >> 8}.${i & 255}`)).statusCode,
      ).toBe(401);
    }
    const blocked = await loginRes('distribuee@example.mg', TEST_PASSWORD, '10.4.0.1');
    expect(blocked.statusCode).toBe(429);
  });

  it('slows down repeated failures from one address across accounts', async () => {
    for (let i = 0; i < MAX_ATTEMPTS_PER_ADDRESS; i++) {
      expect((await loginRes(`inconnu${i}@example.mg`, 'mauvais', '10.9.9.9')).statusCode).toBe(401);
    }
    expect((await loginRes('agent@example.mg', TEST_PASSWORD, '10.9.9.9')).statusCode).toBe(429);
  });

  it('gives a successful attempt back, so colleagues behind one address are not counted', async () => {
    for (let i = 0; i < MAX_ATTEMPTS_PER_ADDRESS + 5; i++) {
      expect((await loginRes('agent@example.mg', TEST_PASSWORD, '10.9.8.8')).statusCode).toBe(200);
    }
  });

  it('checks no more passwords than the limit under 100 simultaneous guesses', async () => {
    await t.user('concurrente@example.mg');
    const before = hashGate.started;
    const results = await Promise.all(
      Array.from({ length: 100 }, () => loginRes('concurrente@example.mg', 'mauvais', '10.5.0.1')),
    );
    expect(hashGate.started - before).toBeLessThanOrEqual(MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS);
    expect(results.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(
      MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS,
    );
    expect(results.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(
      100 - MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS,
    );
  });

  it('refuses a log-in inside a tRPC batch without checking any password', async () => {
    await t.user('lot@example.mg');
    const before = hashGate.started;
    const calls = ['auth.login', 'auth.login', 'auth.login'];
    const input = Object.fromEntries(
      calls.map((_, i) => [i, { email: 'lot@example.mg', password: i === 2 ? TEST_PASSWORD : 'mauvais' }]),
    );
    const res = await t.app.inject({
      method: 'POST',
      url: `/trpc/${calls.join(',')}?batch=1`,
      payload: input,
      headers: { 'x-forwarded-for': '10.6.0.1' },
    });
    expect(hashGate.started).toBe(before);
    expect(res.cookies.find((c) => c.name === 'session')).toBeUndefined();
    const body = res.json() as Array<{ error?: { message: string } }>;
    expect(body).toHaveLength(3);
    for (const item of body)
      expect(item.error?.message).toBe("Cette opération ne peut pas être groupée avec d'autres.");
  });

  it('refuses a tRPC batch of more than TRPC_MAX_BATCH calls, in French', async () => {
    const cookie = await t.login('agent@example.mg');
    const paths = Array.from({ length: TRPC_MAX_BATCH + 1 }, () => 'auth.whoAmI');
    const res = await t.app.inject({
      url: `/trpc/${paths.join(',')}?batch=1&input=%7B%7D`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('Requête invalide.');
    const ok = await t.app.inject({
      url: `/trpc/${paths.slice(1).join(',')}?batch=1&input=%7B%7D`,
      headers: { cookie },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses a flood of log-ins from one address and still lets another person in', async () => {
    await t.user('flot@example.mg');
    const before = hashGate.started;
    const flood = Array.from({ length: 450 }, (_, i) =>
      loginRes(i % 2 ? 'flot@example.mg' : `flot${i}@example.mg`, 'mauvais', '10.7.0.1'),
    );
    const other = loginRes('admin@example.mg', TEST_PASSWORD, '10.8.0.1');
    const [floodResults, otherResult] = await Promise.all([Promise.all(flood), other]);
    expect(otherResult.statusCode).toBe(200);
    expect(floodResults.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(
      450 - MAX_ATTEMPTS_PER_ADDRESS,
    );
    expect(hashGate.started - before).toBeLessThanOrEqual(MAX_ATTEMPTS_PER_ADDRESS + 1);
  });

  /** Holds the hashes of `ip` inside their slot until `open()`; records whose hash started, in order. */
  function holdHashesOf(ip: string) {
    const started: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    hashGate.beforeWork = async (key) => {
      started.push(key);
      if (key === ip) await gate;
    };
    return { started, open };
  }
  const ipCount = async (ip: string) =>
    (
      await t.db.read
        .select()
        .from(t.db.t.loginThrottle)
        .where(eq(t.db.t.loginThrottle.key, `ip:${ip}`))
    )[0]?.failures ?? 0;

  it("refuses an address's log-in beyond its share at once, before counting or hashing it", async () => {
    const ip = '10.10.0.1';
    const hold = holdHashesOf(ip);
    try {
      const first = [
        loginRes('agent@example.mg', 'mauvais', ip),
        loginRes('admin@example.mg', 'mauvais', ip),
      ];
      await vi.waitFor(() => expect(hashGate.placesOf(ip)).toBe(hashGate.perKey));
      await vi.waitFor(async () => expect(await ipCount(ip)).toBe(2));
      const hashed = hashGate.started;
      const refused = await loginRes('agent@example.mg', TEST_PASSWORD, ip);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toBe(
        'Trop de tentatives de connexion simultanées. Réessayez dans un instant.',
      );
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Neither counted nor hashed.
      expect(await ipCount(ip)).toBe(2);
      expect(hashGate.started).toBe(hashed);
      hold.open();
      expect((await Promise.all(first)).map((r) => r.statusCode)).toEqual([401, 401]);
      expect(hashGate.placesOf(ip)).toBe(0);
      expect((await loginRes('agent@example.mg', TEST_PASSWORD, ip)).statusCode).toBe(200);
    } finally {
      hold.open();
      hashGate.beforeWork = undefined;
    }
  });

  it('counts the log-ins of many addresses of one IPv6 /64 as one client, and IPv4 addresses apart', async () => {
    for (let i = 0; i < MAX_ATTEMPTS_PER_ADDRESS; i++) {
      expect(
        (await loginRes(`tournant${i}@example.mg`, 'mauvais', `2001:db8:5:6::${(i + 1).toString(16)}`))
          .statusCode,
      ).toBe(401);
    }
    expect((await loginRes('agent@example.mg', TEST_PASSWORD, '2001:db8:5:6:aaaa::1')).statusCode).toBe(429);
    expect(await ipCount('2001:db8:5:6::/64')).toBe(MAX_ATTEMPTS_PER_ADDRESS);
    // Another /64 and a neighbouring IPv4 address are not concerned.
    expect((await loginRes('agent@example.mg', TEST_PASSWORD, '2001:db8:5:7::1')).statusCode).toBe(200);
    for (let i = 0; i < MAX_ATTEMPTS_PER_ADDRESS; i++) {
      expect((await loginRes(`voisin${i}@example.mg`, 'mauvais', '10.13.0.1')).statusCode).toBe(401);
    }
    expect((await loginRes('agent@example.mg', TEST_PASSWORD, '10.13.0.2')).statusCode).toBe(200);
    // The access log keeps the exact address.
    const logged = await t.db.read.select({ address: t.db.t.accessLog.address }).from(t.db.t.accessLog);
    expect(logged.map((row) => row.address)).toContain('2001:db8:5:6::3');
  });

  it('gives one hashing share to all the addresses of one IPv6 /64', async () => {
    const network = '2001:db8:9:9::/64';
    const hold = holdHashesOf(network);
    try {
      const first = [
        loginRes('agent@example.mg', 'mauvais', '2001:db8:9:9::1'),
        loginRes('admin@example.mg', 'mauvais', '2001:db8:9:9::2'),
      ];
      await vi.waitFor(() => expect(hashGate.placesOf(network)).toBe(hashGate.perKey));
      const refused = await loginRes('agent@example.mg', TEST_PASSWORD, '2001:db8:9:9::3');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toBe(
        'Trop de tentatives de connexion simultanées. Réessayez dans un instant.',
      );
      hold.open();
      expect((await Promise.all(first)).map((r) => r.statusCode)).toEqual([401, 401]);
    } finally {
      hold.open();
      hashGate.beforeWork = undefined;
    }
  });

  it("hashes another address's log-in before the queued ones of a busy address", async () => {
    const ip = '10.11.0.1';
    const hold = holdHashesOf(ip);
    const slots = hashGate.running;
    hashGate.running = 1;
    try {
      const flood = [loginRes('agent@example.mg', 'mauvais', ip)];
      await vi.waitFor(() => expect(hold.started).toEqual([ip]));
      flood.push(loginRes('admin@example.mg', 'mauvais', ip));
      await vi.waitFor(() => expect(hashGate.queued).toBe(1));
      const other = loginRes('admin@example.mg', TEST_PASSWORD, '10.12.0.1');
      await vi.waitFor(() => expect(hashGate.queued).toBe(2));
      hold.open();
      expect((await other).statusCode).toBe(200);
      expect((await Promise.all(flood)).map((r) => r.statusCode)).toEqual([401, 401]);
      // The slot A freed went to B, not to A's second log-in that was waiting before B came.
      expect(hold.started).toEqual([ip, '10.12.0.1', ip]);
    } finally {
      hold.open();
      hashGate.running = slots;
      hashGate.beforeWork = undefined;
    }
  });
});
