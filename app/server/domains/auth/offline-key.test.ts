// The offline store's key (docs/decisions/0048-offline-store.md): one per session, only to that session,
// never cached, and useless once the session has ended.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import type { TestApp } from '#tests/helpers/app';
import { authApp } from './auth.harness';

describe.each(await testEngines())('offline-store key on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await authApp(engine);
  });
  afterAll(async () => t?.close());

  const offlineKey = (cookie?: string) =>
    t.app.inject({ url: '/trpc/auth.offlineKey', headers: cookie ? { cookie } : {} });

  it('gives each session its own stable key, with the session expiry, never cached', async () => {
    const first = await t.login('admin@example.mg');
    const second = await t.login('admin@example.mg');
    const a1 = await offlineKey(first);
    const a2 = await offlineKey(first);
    const b = await offlineKey(second);
    expect(a1.statusCode).toBe(200);
    expect(a1.headers['cache-control']).toBe('no-store');
    const data = a1.json().result.data as { key: string; expiresAt: string };
    expect(Buffer.from(data.key, 'base64url')).toHaveLength(32);
    expect(new Date(data.expiresAt).getTime()).toBeGreaterThan(Date.now());
    expect(a2.json().result.data.key).toBe(data.key);
    expect(b.json().result.data.key).not.toBe(data.key);
  });

  // Null, not 401: the client asks once it has seen a session, and a log-out meanwhile must not log a
  // failed request in the browser (a browser test failed on it); null makes the client wipe its store.
  const noKey = (res: Awaited<ReturnType<typeof offlineKey>>) => {
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json().result.data).toBeNull();
  };

  it('gives no key to a caller without a session, nor to a session that logged out', async () => {
    noKey(await offlineKey());
    noKey(await offlineKey('session=' + 'a'.repeat(43)));
    const cookie = await t.login('admin@example.mg');
    expect((await offlineKey(cookie)).json().result.data.key).toEqual(expect.any(String));
    const out = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.logout',
      headers: { cookie },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    noKey(await offlineKey(cookie));
  });

  it('gives no key to a session that still owes its second factor', async () => {
    const email = 'second-facteur@example.mg';
    await t.user(email, 'ROLE_ADMIN');
    const { cookie, twoFactor } = await t.loginPasswordOnly(email);
    expect(twoFactor).toBe('enrol');
    noKey(await offlineKey(cookie));
  });
});
