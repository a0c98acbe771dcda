// Sessions: who-am-i on both doors, log-out, password change, sliding expiry, the Secure cookie.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, sessionCookie, TEST_PASSWORD, type TestApp } from '#tests/helpers/app';
import { authApp, authRequests } from './auth.harness';
import { testEngines } from '#tests/helpers/db';
import { setPassword } from '../utilisateurs/service';
import { sessionIdFromToken } from './session';

describe.each(await testEngines())('sessions on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await authApp(engine);
  });
  afterAll(async () => t?.close());

  const { loginRes } = authRequests(() => t);

  it('returns the current user from who-am-i on REST and tRPC', async () => {
    const cookie = await t.login('admin@example.mg');
    const rest = await t.app.inject({ url: '/api/utilisateur/who-am-i', headers: { cookie } });
    expect(rest.statusCode).toBe(200);
    expect(rest.json()).toMatchObject({
      '@id': expect.stringMatching(/^\/api\/utilisateurs\/USR-/),
      email: 'admin@example.mg',
      utilisateurRole: { code: 'ROLE_ADMIN', designation: 'Administrateur' },
    });
    const trpc = await t.app.inject({ url: '/trpc/auth.whoAmI', headers: { cookie } });
    expect(trpc.statusCode).toBe(200);
    expect(trpc.json().result.data).toEqual(rest.json());
    // auth.session: the same user with a session, null (and 200) without one or with a stale cookie.
    const session = await t.app.inject({ url: '/trpc/auth.session', headers: { cookie } });
    expect(session.json().result.data).toEqual(rest.json());
    for (const headers of [{}, { cookie: 'session=inconnu' }]) {
      const anonymous = await t.app.inject({ url: '/trpc/auth.session', headers });
      expect(anonymous.statusCode).toBe(200);
      expect(anonymous.json().result.data).toBeNull();
    }
  });

  it("answers a log-in on both doors with who-am-i's shape, the business time zone included", async () => {
    const rest = await loginRes('agent@example.mg', TEST_PASSWORD, '10.4.0.1');
    expect(rest.statusCode).toBe(200);
    expect(rest.json()).toMatchObject({ timeZone: t.config.APP_TIMEZONE, twoFactor: null });
    const whoAmI = await t.app.inject({
      url: '/api/utilisateur/who-am-i',
      headers: { cookie: sessionCookie(rest) },
    });
    const withoutTime = ({ lastConnectionAt: _at, ...rest }: Record<string, unknown>) => rest;
    expect(Object.keys(rest.json())).toEqual(Object.keys(whoAmI.json()));
    expect(withoutTime(rest.json())).toEqual(withoutTime(whoAmI.json()));
    const trpc = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.login',
      payload: { email: 'agent@example.mg', password: TEST_PASSWORD },
      headers: { 'x-forwarded-for': '10.4.0.2' },
    });
    expect(Object.keys(trpc.json().result.data)).toEqual(Object.keys(rest.json()));
    expect(withoutTime(trpc.json().result.data)).toEqual(withoutTime(rest.json()));
  });

  it('logs in and out through tRPC too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.login',
      payload: { email: 'agent@example.mg', password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const cookie = sessionCookie(res);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.login',
      payload: { email: 'agent@example.mg', password: 'faux' },
      headers: { 'x-forwarded-for': '10.3.0.1' },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().error.message).toBe('Email ou mot de passe incorrect.');
    const out = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.logout',
      headers: { cookie },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    const after = await t.app.inject({ url: '/trpc/auth.whoAmI', headers: { cookie } });
    expect(after.statusCode).toBe(401);
  });

  it('ends the session on logout', async () => {
    const cookie = await t.login('agent@example.mg');
    const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
    expect(out.statusCode).toBe(204);
    const cleared = out.cookies.find((c) => c.name === 'session');
    expect(cleared?.value).toBe('');
    const after = await t.app.inject({ url: '/api/utilisateur/who-am-i', headers: { cookie } });
    expect(after.statusCode).toBe(401);
  });

  it('ends the other sessions on password change', async () => {
    await t.user('change@example.mg');
    const first = await t.login('change@example.mg');
    const [user] = await t.db.read
      .select()
      .from(t.db.t.utilisateurs)
      .where(eq(t.db.t.utilisateurs.email, 'change@example.mg'));
    await setPassword(t.db, user!.id, 'un-nouveau-mot-de-passe');
    expect(
      (await t.app.inject({ url: '/api/utilisateur/who-am-i', headers: { cookie: first } })).statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ url: '/api/utilisateur/who-am-i', headers: { cookie: 'session=inconnu' } }))
        .statusCode,
    ).toBe(401);
    await t.login('change@example.mg', 'un-nouveau-mot-de-passe');
  });

  it('extends a session used close to its expiry (sliding expiry) and refuses an expired one', async () => {
    const cookie = await t.login('agent@example.mg');
    const id = sessionIdFromToken(cookie.replace('session=', ''));
    const soon = new Date(Date.now() + 24 * 3600 * 1000);
    await t.db.transaction((tx) =>
      tx.update(t.db.t.sessions).set({ expiresAt: soon }).where(eq(t.db.t.sessions.id, id)),
    );
    const res = await t.app.inject({ url: '/api/utilisateur/who-am-i', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const [row] = await t.db.read.select().from(t.db.t.sessions).where(eq(t.db.t.sessions.id, id));
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
    expect(res.cookies.find((c) => c.name === 'session')?.expires?.getTime()).toBeGreaterThan(soon.getTime());

    await t.db.transaction((tx) =>
      tx
        .update(t.db.t.sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(t.db.t.sessions.id, id)),
    );
    expect((await t.app.inject({ url: '/api/utilisateur/who-am-i', headers: { cookie } })).statusCode).toBe(
      401,
    );
  });
});

describe('session cookie behind HTTPS', () => {
  it('is Secure when PUBLIC_URL is https', async () => {
    const t = await createTestApp('sqlite', { PUBLIC_URL: 'https://signalements.example.mg' });
    try {
      await t.user('agent@example.mg');
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'agent@example.mg', password: TEST_PASSWORD },
      });
      expect(res.cookies.find((c) => c.name === 'session')!.secure).toBe(true);
    } finally {
      await t.close();
    }
  });
});
