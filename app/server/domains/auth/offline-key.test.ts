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

  it('refuses a caller without a session, and a session that logged out', async () => {
    expect((await offlineKey()).statusCode).toBe(401);
    const cookie = await t.login('admin@example.mg');
    expect((await offlineKey(cookie)).statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.logout',
      headers: { cookie },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    expect((await offlineKey(cookie)).statusCode).toBe(401);
  });
});
