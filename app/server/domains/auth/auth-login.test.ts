// Log-in by password: the session cookie, identical refusals, disabled accounts.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD, type TestApp } from '#tests/helpers/app';
import { authApp, authRequests } from './auth.harness';
import { testEngines } from '#tests/helpers/db';
import { sessionIdFromToken } from './session';

describe.each(await testEngines())('log-in on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await authApp(engine);
  });
  afterAll(async () => t?.close());

  const { loginRes } = authRequests(() => t);

  it('logs in with the right password and sets an HttpOnly, SameSite=Lax session cookie', async () => {
    const res = await loginRes('Agent@Example.mg', TEST_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      email: 'agent@example.mg',
      nomPrenom: 'Rabe Hery',
      isCurrentUser: true,
      utilisateurRole: {
        code: 'ROLE_USER',
        designation: 'Utilisateur',
        '@id': '/api/utilisateur_roles/ROLE_USER',
      },
    });
    const cookie = res.cookies.find((c) => c.name === 'session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.secure).toBeFalsy();
    expect(cookie.path).toBe('/');
  });

  it('stores only the SHA-256 of the session token', async () => {
    const res = await loginRes('agent@example.mg', TEST_PASSWORD);
    const token = res.cookies.find((c) => c.name === 'session')!.value;
    const rows = await t.db.read.select().from(t.db.t.sessions);
    expect(rows.some((r) => r.id === token)).toBe(false);
    expect(rows.some((r) => r.id === sessionIdFromToken(token))).toBe(true);
  });

  it('sets lastConnectionAt at login', async () => {
    const before = Date.now();
    await loginRes('agent@example.mg', TEST_PASSWORD);
    const [user] = await t.db.read
      .select()
      .from(t.db.t.utilisateurs)
      .where(eq(t.db.t.utilisateurs.email, 'agent@example.mg'));
    expect(user!.lastConnectionAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('answers a wrong password and an unknown e-mail identically', async () => {
    const wrong = await loginRes('agent@example.mg', 'mauvais-mot-de-passe', '10.0.0.2');
    const unknown = await loginRes('personne@example.mg', 'mauvais-mot-de-passe', '10.0.0.3');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe('Email ou mot de passe incorrect.');
    expect(wrong.cookies.find((c) => c.name === 'session')).toBeUndefined();
  });

  it('rejects invalid input with a French 400, not a 500', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'pas-un-email' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("Format d'email invalide.");
    const garbage = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(garbage.statusCode).toBe(400);
  });

  it('refuses a disabled user with the same answer as a wrong password', async () => {
    await t.user('desactive@example.mg');
    await t.db.transaction((tx) =>
      tx
        .update(t.db.t.utilisateurs)
        .set({ isEnabled: false })
        .where(eq(t.db.t.utilisateurs.email, 'desactive@example.mg')),
    );
    const res = await loginRes('desactive@example.mg', TEST_PASSWORD, '10.0.0.4');
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Email ou mot de passe incorrect.');
  });

  it('ends the open sessions of a user who is disabled', async () => {
    await t.user('bientot-desactive@example.mg');
    const cookie = await t.login('bientot-desactive@example.mg');
    const ok = await t.app.inject({ url: '/api/utilisateur/who-am-i', headers: { cookie } });
    expect(ok.statusCode).toBe(200);
    await t.db.transaction((tx) =>
      tx
        .update(t.db.t.utilisateurs)
        .set({ isEnabled: false })
        .where(eq(t.db.t.utilisateurs.email, 'bientot-desactive@example.mg')),
    );
    const refused = await t.app.inject({ url: '/api/utilisateur/who-am-i', headers: { cookie } });
    expect(refused.statusCode).toBe(401);
  });
});
