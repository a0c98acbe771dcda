// Disabling accounts and the rules that keep an enabled administrator.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { accountsSuite } from './utilisateurs.harness';

describe.each(await testEngines())('disabling user accounts on %s', (engine) => {
  const { t, admin, inject, trpc, userRow } = accountsSuite(engine);

  it('ends the sessions of a disabled user at once and lets them back in once enabled again', async () => {
    const code = await t.user('bientot-off@example.mg');
    const cookie = await t.login('bientot-off@example.mg');
    const userId = (await userRow('bientot-off@example.mg')).id;
    const res = await inject('PATCH', `/api/utilisateurs/${code}`, admin.cookie, { isEnabled: false });
    expect(res.statusCode).toBe(200);
    expect(res.json().isEnabled).toBe(false);
    expect(
      await t.db.read.select().from(t.db.t.sessions).where(eq(t.db.t.sessions.userId, userId)),
    ).toHaveLength(0);
    expect((await inject('GET', '/api/utilisateur/who-am-i', cookie)).statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'bientot-off@example.mg', password: TEST_PASSWORD },
    });
    expect(login.statusCode).toBe(401);
    expect(
      (await trpc('utilisateurs.update', admin.cookie, { code, isEnabled: true })).json().result.data
        .isEnabled,
    ).toBe(true);
    await t.login('bientot-off@example.mg');
  });

  it('refuses that an administrator disables or demotes themself', async () => {
    const code = (await userRow('admin@example.mg')).code;
    const off = await inject('PATCH', `/api/utilisateurs/${code}`, admin.cookie, { isEnabled: false });
    expect(off.statusCode).toBe(403);
    expect(off.json().message).toBe('Vous ne pouvez pas désactiver votre propre compte.');
    const demote = await trpc('utilisateurs.update', admin.cookie, { code, utilisateurRole: 'ROLE_USER' });
    expect(demote.statusCode).toBe(403);
    expect(demote.json().error.message).toBe(
      "Vous ne pouvez pas retirer votre propre rôle d'administrateur.",
    );
    // Renaming oneself, keeping the admin role, is fine.
    expect(
      (
        await inject('PATCH', `/api/utilisateurs/${code}`, admin.cookie, {
          nomPrenom: 'Rasoa Admin',
          utilisateurRole: 'ROLE_ADMIN',
        })
      ).statusCode,
    ).toBe(200);
    const row = await userRow('admin@example.mg');
    expect(row.isEnabled).toBe(true);
  });

  it('never leaves the application without an enabled administrator, even when two admins disable each other at once', async () => {
    const codeA = await t.user('chef-a@example.mg', 'ROLE_ADMIN', 'Chef A');
    const codeB = await t.user('chef-b@example.mg', 'ROLE_ADMIN', 'Chef B');
    const a = await t.login('chef-a@example.mg');
    const b = await t.login('chef-b@example.mg');
    // The first administrator steps aside, so A and B are the only enabled administrators.
    const first = (await userRow('admin@example.mg')).code;
    expect((await inject('PATCH', `/api/utilisateurs/${first}`, a, { isEnabled: false })).statusCode).toBe(
      200,
    );
    const [ab, ba] = await Promise.all([
      inject('PATCH', `/api/utilisateurs/${codeB}`, a, { isEnabled: false }),
      inject('PATCH', `/api/utilisateurs/${codeA}`, b, { isEnabled: false }),
    ]);
    const statuses = [ab.statusCode, ba.statusCode].sort();
    // Either the second is refused as the last administrator, or its author was disabled first.
    expect(statuses[0]).toBe(200);
    expect([401, 409]).toContain(statuses[1]);
    if (statuses[1] === 409) {
      expect([ab, ba].find((r) => r.statusCode === 409)!.json().message).toBe(
        'Impossible de désactiver le dernier administrateur actif.',
      );
    }
    const admins = await t.db.read
      .select()
      .from(t.db.t.utilisateurs)
      .where(eq(t.db.t.utilisateurs.isEnabled, true));
    const enabledAdmins = [];
    for (const u of admins)
      if (['chef-a@example.mg', 'chef-b@example.mg'].includes(u.email)) enabledAdmins.push(u.email);
    expect(enabledAdmins).toHaveLength(1);
    // Put the first administrator back for the other tests.
    const survivor = enabledAdmins[0] === 'chef-a@example.mg' ? a : b;
    expect(
      (await inject('PATCH', `/api/utilisateurs/${first}`, survivor, { isEnabled: true })).statusCode,
    ).toBe(200);
    admin.cookie = await t.login('admin@example.mg');
  });

  it('refuses to disable or demote the last enabled administrator, even for a session that is no longer current', async () => {
    const { updateUser } = await import('./manage');
    const lone = await userRow('admin@example.mg');
    const stale = await userRow('chef-a@example.mg').then(async (row) =>
      row.isEnabled ? row : userRow('chef-b@example.mg'),
    );
    // The only other enabled administrator loses its rights, but its session object is still in hand.
    await t.db.transaction((tx) =>
      tx.update(t.db.t.utilisateurs).set({ isEnabled: false }).where(eq(t.db.t.utilisateurs.id, stale.id)),
    );
    const actor = {
      ...stale,
      role: { code: 'ROLE_ADMIN', designation: 'Administrateur' },
      twoFactorEnrolled: false,
    };
    await expect(updateUser(t.ctx, actor, lone.code, { isEnabled: false })).rejects.toThrow(
      'Impossible de désactiver le dernier administrateur actif.',
    );
    await expect(updateUser(t.ctx, actor, lone.code, { utilisateurRole: 'ROLE_USER' })).rejects.toThrow(
      'Impossible de retirer le rôle du dernier administrateur actif.',
    );
    expect((await userRow('admin@example.mg')).isEnabled).toBe(true);
  });
});
