// Password reset e-mails and password strength.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { passwordLinkIn } from '#tests/helpers/smtp';
import { PASSWORD_STRENGTH_MESSAGES } from '../auth/password-strength';
import { createUser, setPassword } from './service';
import { accountsSuite } from './utilisateurs.harness';

describe.each(await testEngines())('passwords of user accounts on %s', (engine) => {
  const { t, admin, inject, trpc, userRow, mailsTo } = accountsSuite(engine);

  it('sends a reset e-mail by GET /api/utilisateur/reset-password/{code}; the new link replaces the previous one', async () => {
    const code = await t.user('oubli@example.mg', 'ROLE_USER', 'Rabe Oubli');
    const first = await inject('GET', `/api/utilisateur/reset-password/${code}`, admin.cookie);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: 'Email de réinitialisation envoyé avec succès !' });
    const second = await trpc('utilisateurs.resetPassword', admin.cookie, { code });
    expect(second.json().result.data.message).toBe('Email de réinitialisation envoyé avec succès !');
    const mails = await mailsTo('oubli@example.mg');
    expect(mails.map((m) => m.kind)).toEqual(['password-reset', 'password-reset']);
    expect(mails[0]!.subject).toBe('Signalements : réinitialisation de votre mot de passe');
    const [oldToken, newToken] = mails.map((m) => passwordLinkIn(m).split('/').pop()!);
    const inspect = async (token: string) =>
      (await t.app.inject({ url: `/api/definir-mot-de-passe/${token}` })).json().status;
    expect(await inspect(oldToken!)).toBe('used');
    expect(await inspect(newToken!)).toBe('valid');
    expect(
      (await inject('GET', '/api/utilisateur/reset-password/USR-INCONNU', admin.cookie)).statusCode,
    ).toBe(404);
  });

  it('refuses a reset e-mail for a disabled user', async () => {
    const code = await t.user('off-reset@example.mg');
    await inject('PATCH', `/api/utilisateurs/${code}`, admin.cookie, { isEnabled: false });
    const res = await inject('GET', `/api/utilisateur/reset-password/${code}`, admin.cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      "Impossible d'envoyer un email de réinitialisation à un utilisateur désactivé.",
    );
    expect(await mailsTo('off-reset@example.mg')).toHaveLength(0);
  });

  it('refuses a weak password when a user is created with one or when a password is set, and changes nothing', async () => {
    await expect(
      createUser(t.db, {
        email: 'faible@example.mg',
        nomPrenom: 'Rabe Faible',
        roleCode: 'ROLE_USER',
        password: 'azertyuiop12',
      }),
    ).rejects.toMatchObject({ kind: 'invalid', message: PASSWORD_STRENGTH_MESSAGES.weak });
    expect(
      await t.db.read
        .select()
        .from(t.db.t.utilisateurs)
        .where(eq(t.db.t.utilisateurs.email, 'faible@example.mg')),
    ).toHaveLength(0);

    await t.user('change-faible@example.mg', 'ROLE_USER', 'Randria Tsiky');
    const { id, passwordHash } = await userRow('change-faible@example.mg');
    await expect(setPassword(t.db, id, 'motdepasse123')).rejects.toMatchObject({
      message: PASSWORD_STRENGTH_MESSAGES.weak,
    });
    await expect(setPassword(t.db, id, 'Randria-Tsiky-2025')).rejects.toMatchObject({
      message: PASSWORD_STRENGTH_MESSAGES.personal,
    });
    expect((await userRow('change-faible@example.mg')).passwordHash).toBe(passwordHash);
    await setPassword(t.db, id, 'girafe violette sous la pluie');
    expect((await userRow('change-faible@example.mg')).passwordHash).not.toBe(passwordHash);
  });
});
