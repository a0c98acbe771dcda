import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { serverSuite } from '#tests/helpers/suite';
import { outbox, passwordLinkIn } from '#tests/helpers/smtp';
import { PASSWORD_STRENGTH_MESSAGES } from './password-strength';
import { hashPasswordToken, TOKEN_MESSAGES } from './password-tokens';

const NEW_PASSWORD = 'un-mot-de-passe-solide';

describe.each(await testEngines())('password set-up links on %s', (engine) => {
  const { app: t, admin } = serverSuite(engine);
  let n = 0;

  /** Creates an account as the admin would and returns the token of its set-up e-mail. */
  async function invite(
    email = `invite${++n}@example.mg`,
  ): Promise<{ email: string; token: string; code: string }> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/utilisateur/create-user',
      headers: { cookie: admin.cookie },
      payload: { email, nomPrenom: 'Rakoto Invité', utilisateurRole: 'ROLE_USER' },
    });
    expect(res.statusCode).toBe(201);
    const mail = (await outbox(t.db)).filter((m) => m.to === email).pop()!;
    return { email, token: passwordLinkIn(mail).split('/').pop()!, code: res.json().code };
  }
  const inspect = (token: string) => t.app.inject({ url: `/api/definir-mot-de-passe/${token}` });
  const define = (token: string, password = NEW_PASSWORD) =>
    t.app.inject({ method: 'POST', url: `/api/definir-mot-de-passe/${token}`, payload: { password } });
  const login = (email: string, password = NEW_PASSWORD) =>
    t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });

  it('shows who the link is for, without a session, on REST and tRPC', async () => {
    const { email, token } = await invite();
    const res = await inspect(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'valid',
      purpose: 'setup',
      email,
      nomPrenom: 'Rakoto Invité',
    });
    const input = encodeURIComponent(JSON.stringify({ token }));
    const viaTrpc = await t.app.inject({ url: `/trpc/passwordTokens.inspect?input=${input}` });
    expect(viaTrpc.json().result.data).toEqual(res.json());
  });

  it('sets the password once: the user logs in with it and the link is then used up', async () => {
    const { email, token } = await invite();
    expect((await login(email)).statusCode).toBe(401);
    expect((await define(token)).statusCode).toBe(204);
    expect((await login(email)).statusCode).toBe(200);
    expect((await inspect(token)).json()).toEqual({ status: 'used', message: TOKEN_MESSAGES.used });
    const again = await define(token, 'encore-un-autre-mot-de-passe');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(TOKEN_MESSAGES.used);
    expect((await login(email)).statusCode).toBe(200);
  });

  it('sets the password through tRPC too', async () => {
    const { email, token } = await invite();
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/passwordTokens.define',
      payload: { token, password: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect((await login(email)).statusCode).toBe(200);
  });

  it('accepts a link only once when it is submitted twice at the same moment', async () => {
    const { token } = await invite();
    const results = await Promise.all([
      define(token, 'premier-mot-de-passe'),
      define(token, 'second-mot-de-passe'),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([204, 409]);
  });

  it('requires at least 12 characters on the server, and the link stays usable', async () => {
    const { token } = await invite();
    const res = await define(token, 'court');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Le mot de passe doit contenir au moins 12 caractères.');
    const viaTrpc = await t.app.inject({
      method: 'POST',
      url: '/trpc/passwordTokens.define',
      payload: { token, password: '12345678901' },
    });
    expect(viaTrpc.statusCode).toBe(400);
    expect(viaTrpc.json().error.message).toBe('Le mot de passe doit contenir au moins 12 caractères.');
    expect((await inspect(token)).json().status).toBe('valid');
  });

  it('refuses a common password with the French message on REST and tRPC; the password and the link stay as they were', async () => {
    const { email, token } = await invite();
    const before = (
      await t.db.read.select().from(t.db.t.utilisateurs).where(eq(t.db.t.utilisateurs.email, email))
    )[0]!;
    for (const password of ['azertyuiop12', 'motdepasse123']) {
      const res = await define(token, password);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(PASSWORD_STRENGTH_MESSAGES.weak);
    }
    const viaTrpc = await t.app.inject({
      method: 'POST',
      url: '/trpc/passwordTokens.define',
      payload: { token, password: 'password1234' },
    });
    expect(viaTrpc.statusCode).toBe(400);
    expect(viaTrpc.json().error.message).toBe(PASSWORD_STRENGTH_MESSAGES.weak);
    const personal = await define(token, `${email}-2025`);
    expect(personal.statusCode).toBe(400);
    expect(personal.json().message).toBe(PASSWORD_STRENGTH_MESSAGES.personal);

    const after = (
      await t.db.read.select().from(t.db.t.utilisateurs).where(eq(t.db.t.utilisateurs.email, email))
    )[0]!;
    expect(after.passwordHash).toBe(before.passwordHash);
    expect((await login(email, 'azertyuiop12')).statusCode).toBe(401);
    expect((await inspect(token)).json().status).toBe('valid');
    expect((await define(token)).statusCode).toBe(204);
  });

  it('refuses an expired link with a clear French message', async () => {
    const { token } = await invite();
    await t.db.transaction((tx) =>
      tx
        .update(t.db.t.passwordTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(t.db.t.passwordTokens.tokenHash, hashPasswordToken(token))),
    );
    expect((await inspect(token)).json()).toEqual({
      status: 'expired',
      message: 'Ce lien a expiré. Demandez un nouveau lien à un administrateur.',
    });
    const res = await define(token);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(TOKEN_MESSAGES.expired);
  });

  it('refuses an unknown link and a link of a disabled account', async () => {
    expect((await inspect('inconnu')).json()).toEqual({ status: 'invalid', message: TOKEN_MESSAGES.invalid });
    expect((await define('inconnu')).statusCode).toBe(404);
    const { token, code } = await invite();
    await t.app.inject({
      method: 'PATCH',
      url: `/api/utilisateurs/${code}`,
      headers: { cookie: admin.cookie },
      payload: { isEnabled: false },
    });
    expect((await inspect(token)).json()).toEqual({
      status: 'disabled',
      message: 'Ce compte est désactivé. Contactez un administrateur.',
    });
    expect((await define(token)).statusCode).toBe(403);
  });

  it('ends every open session of the user when the password is set from a reset link', async () => {
    const code = await t.user('reset@example.mg');
    const cookie = await t.login('reset@example.mg');
    await t.app.inject({
      url: `/api/utilisateur/reset-password/${code}`,
      headers: { cookie: admin.cookie, 'x-requested-with': 'fetch' },
    });
    const mail = (await outbox(t.db)).filter((m) => m.to === 'reset@example.mg').pop()!;
    const token = passwordLinkIn(mail).split('/').pop()!;
    expect((await inspect(token)).json()).toMatchObject({ status: 'valid', purpose: 'reset' });
    expect((await define(token)).statusCode).toBe(204);
    expect((await t.app.inject({ url: '/api/utilisateur/who-am-i', headers: { cookie } })).statusCode).toBe(
      401,
    );
    expect((await login('reset@example.mg')).statusCode).toBe(200);
  });

  it('stores only the SHA-256 of each token', async () => {
    const { token } = await invite();
    const rows = await t.db.read.select().from(t.db.t.passwordTokens);
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    expect(rows.filter((r) => r.tokenHash === hashPasswordToken(token))).toHaveLength(1);
  });
});
