import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { serverSuite } from '#tests/helpers/suite';
import { outbox, passwordLinkIn } from '#tests/helpers/smtp';
import { PASSWORD_STRENGTH_MESSAGES } from '../auth/password-strength';
import { hashPasswordToken, PASSWORD_TOKEN_TTL_MS } from '../auth/password-tokens';
import { createUser, setPassword } from './service';

describe.each(await testEngines())('user accounts on %s', (engine) => {
  const PUBLIC_URL = 'http://signalements.test';
  const { app: t, admin, user: agent } = serverSuite(engine, { env: { PUBLIC_URL } });

  // As the application's own pages send them (fetch metadata), so the CSRF check lets them through.
  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, cookie: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
      ...(payload ? { payload } : {}),
    });
  const createRest = (payload: object, cookie = admin.cookie) =>
    inject('POST', '/api/utilisateur/create-user', cookie, payload);
  const trpc = (path: string, cookie: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/trpc/${path}`, headers: { cookie }, payload });
  const userRow = async (email: string) =>
    (await t.db.read.select().from(t.db.t.utilisateurs).where(eq(t.db.t.utilisateurs.email, email)))[0]!;
  const mailsTo = async (email: string) => (await outbox(t.db)).filter((m) => m.to === email);

  it('creates a user through REST, sends a set-up e-mail with a single-use 48 h link, and stores only its hash', async () => {
    const before = Date.now();
    const res = await createRest({
      email: 'Nouveau@Example.mg',
      nomPrenom: 'Rakoto Nouveau',
      utilisateurRole: 'ROLE_USER',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      '@id': expect.stringMatching(/^\/api\/utilisateurs\/USR-/),
      '@type': 'Utilisateur',
      email: 'nouveau@example.mg',
      nomPrenom: 'Rakoto Nouveau',
      isEnabled: true,
      isCurrentUser: false,
      lastConnectionAt: null,
      utilisateurRole: {
        code: 'ROLE_USER',
        designation: 'Utilisateur',
        '@id': '/api/utilisateur_roles/ROLE_USER',
      },
    });
    const [mail] = await mailsTo('nouveau@example.mg');
    expect(mail).toMatchObject({
      kind: 'account-setup',
      status: 'pending',
      subject: 'Signalements : activez votre compte',
    });
    const link = passwordLinkIn(mail!);
    expect(link.startsWith(`${PUBLIC_URL}/admin/definir-mot-de-passe/`)).toBe(true);
    const token = link.split('/').pop()!;
    const user = await userRow('nouveau@example.mg');
    expect(user.passwordHash).toBeNull();
    const tokens = await t.db.read
      .select()
      .from(t.db.t.passwordTokens)
      .where(eq(t.db.t.passwordTokens.userId, user.id));
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ purpose: 'setup', usedAt: null, tokenHash: hashPasswordToken(token) });
    expect(tokens[0]!.tokenHash).not.toContain(token);
    const ttl = tokens[0]!.expiresAt.getTime() - before;
    expect(ttl).toBeGreaterThanOrEqual(PASSWORD_TOKEN_TTL_MS - 1000);
    expect(ttl).toBeLessThanOrEqual(PASSWORD_TOKEN_TTL_MS + 60_000);
  });

  it('creates a user through tRPC with a role given as an IRI', async () => {
    const res = await trpc('utilisateurs.create', admin.cookie, {
      email: 'trpc@example.mg',
      nomPrenom: 'Rasolo Trpc',
      utilisateurRole: '/api/utilisateur_roles/ROLE_ANALYSTE',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data.utilisateurRole.code).toBe('ROLE_ANALYSTE');
    expect(await mailsTo('trpc@example.mg')).toHaveLength(1);
  });

  it('refuses a duplicate e-mail whatever its case with a French 409, and queues no e-mail', async () => {
    const count = (await outbox(t.db)).length;
    const res = await createRest({
      email: 'AGENT@example.MG',
      nomPrenom: 'Doublon',
      utilisateurRole: 'ROLE_USER',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Un utilisateur avec cet email existe déjà.');
    const viaTrpc = await trpc('utilisateurs.create', admin.cookie, {
      email: 'agent@example.mg',
      nomPrenom: 'Doublon',
      utilisateurRole: 'ROLE_USER',
    });
    expect(viaTrpc.statusCode).toBe(409);
    expect(viaTrpc.json().error.message).toBe('Un utilisateur avec cet email existe déjà.');
    expect((await outbox(t.db)).length).toBe(count);
  });

  it('creates one account when the same e-mail is submitted twice at the same moment', async () => {
    const payload = { email: 'simultane@example.mg', nomPrenom: 'Deux Fois', utilisateurRole: 'ROLE_USER' };
    const results = await Promise.all([createRest(payload), createRest(payload), createRest(payload)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    expect(await mailsTo('simultane@example.mg')).toHaveLength(1);
  });

  it('validates the creation form on the server with the French messages of §5', async () => {
    const cases: Array<[object, string]> = [
      [{ nomPrenom: 'Rakoto', utilisateurRole: 'ROLE_USER' }, "L'email est requis."],
      [{ email: '  ', nomPrenom: 'Rakoto', utilisateurRole: 'ROLE_USER' }, "L'email est requis."],
      [
        { email: 'pas-un-email', nomPrenom: 'Rakoto', utilisateurRole: 'ROLE_USER' },
        "Format d'email invalide.",
      ],
      [
        { email: 'a@b.mg', nomPrenom: ' R ', utilisateurRole: 'ROLE_USER' },
        'Le nom et prénom doivent contenir au moins 2 caractères.',
      ],
      [{ email: 'a@b.mg', nomPrenom: 'Rakoto' }, 'Veuillez sélectionner un rôle.'],
      [
        { email: 'a@b.mg', nomPrenom: 'Rakoto', utilisateurRole: 'ROLE_INCONNU' },
        'Rôle sélectionné introuvable',
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await createRest(payload);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const viaTrpc = await trpc('utilisateurs.create', admin.cookie, {
      email: 'x',
      nomPrenom: 'Rakoto',
      utilisateurRole: 'ROLE_USER',
    });
    expect(viaTrpc.statusCode).toBe(400);
    expect(viaTrpc.json().error.message).toBe("Format d'email invalide.");
  });

  it('keeps every account action for administrators, on both doors', async () => {
    const code = (await userRow('agent@example.mg')).code;
    expect(
      (await createRest({ email: 'x@y.mg', nomPrenom: 'Xy', utilisateurRole: 'ROLE_USER' }, agent.cookie))
        .statusCode,
    ).toBe(403);
    expect(
      (await inject('PATCH', `/api/utilisateurs/${code}`, agent.cookie, { nomPrenom: 'Pirate' })).statusCode,
    ).toBe(403);
    expect((await inject('GET', `/api/utilisateur/reset-password/${code}`, agent.cookie)).statusCode).toBe(
      403,
    );
    for (const [path, payload] of [
      ['utilisateurs.create', { email: 'x@y.mg', nomPrenom: 'Xy', utilisateurRole: 'ROLE_USER' }],
      ['utilisateurs.update', { code, nomPrenom: 'Pirate' }],
      ['utilisateurs.resetPassword', { code }],
    ] as const) {
      expect((await trpc(path, agent.cookie, payload)).statusCode, path).toBe(403);
    }
    expect((await userRow('agent@example.mg')).nomPrenom).toBe('Rabe Hery');
  });

  it('filters users by name ignoring accents and case, in the list and in the picker', async () => {
    await t.user('helene@example.mg', 'ROLE_USER', 'Hélène Intégrité');
    const listed = async (search: string) =>
      (await inject('GET', `/api/utilisateurs?nomPrenom=${encodeURIComponent(search)}`, admin.cookie))
        .json()
        .member.map((u: { nomPrenom: string }) => u.nomPrenom);
    for (const search of ['integrite', 'intégrité', 'HELENE INTEG', 'hélène'])
      expect(await listed(search), search).toEqual(['Hélène Intégrité']);
    const options = await t.app.inject({
      url: `/trpc/utilisateurs.options?input=${encodeURIComponent(JSON.stringify({ search: 'HELENE' }))}`,
      headers: { cookie: agent.cookie },
    });
    expect(options.json().result.data.map((u: { nomPrenom: string }) => u.nomPrenom)).toEqual([
      'Hélène Intégrité',
    ]);
  });

  it('lists users 20 per page ordered by name, filtered by name, with lastConnectionAt set at login', async () => {
    for (let i = 0; i < 22; i++)
      await t.user(
        `liste${String(i).padStart(2, '0')}@example.mg`,
        'ROLE_USER',
        `Zz Liste ${String(i).padStart(2, '0')}`,
      );
    const page1 = (await inject('GET', '/api/utilisateurs', admin.cookie)).json();
    expect(page1.member).toHaveLength(20);
    const names = page1.member.map((u: { nomPrenom: string }) => u.nomPrenom);
    expect(names).toEqual([...names].sort());
    const filtered = (
      await inject('GET', '/api/utilisateurs?nomPrenom=zz%20liste&page=2', admin.cookie)
    ).json();
    expect(filtered.totalItems).toBe(22);
    expect(filtered.member.map((u: { nomPrenom: string }) => u.nomPrenom)).toEqual([
      'Zz Liste 20',
      'Zz Liste 21',
    ]);
    const viaTrpc = await t.app.inject({
      url: `/trpc/utilisateurs.list?input=${encodeURIComponent(JSON.stringify({ nomPrenom: 'Liste 21' }))}`,
      headers: { cookie: admin.cookie },
    });
    const [listed] = viaTrpc.json().result.data.items;
    expect(listed).toMatchObject({ nomPrenom: 'Zz Liste 21', lastConnectionAt: null });
    await t.login('liste21@example.mg');
    const after = (await inject('GET', '/api/utilisateurs?nomPrenom=Liste%2021', admin.cookie)).json()
      .member[0];
    expect(Date.parse(after.lastConnectionAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('edits the name and role by PATCH (merge-patch), the role given as an IRI; the e-mail is not editable', async () => {
    const code = await t.user('edition@example.mg', 'ROLE_USER', 'Avant Edition');
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/utilisateurs/${code}`,
      headers: { cookie: admin.cookie, 'content-type': 'application/merge-patch+json' },
      payload: JSON.stringify({
        nomPrenom: 'Après Edition',
        utilisateurRole: '/api/utilisateur_roles/ROLE_GESTIONNAIRE',
        email: 'autre@example.mg',
      }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      nomPrenom: 'Après Edition',
      email: 'edition@example.mg',
      utilisateurRole: { code: 'ROLE_GESTIONNAIRE' },
    });
    const viaTrpc = await trpc('utilisateurs.update', admin.cookie, {
      code,
      nomPrenom: 'Par Trpc',
      utilisateurRole: 'ROLE_USER',
    });
    expect(viaTrpc.json().result.data).toMatchObject({
      nomPrenom: 'Par Trpc',
      utilisateurRole: { code: 'ROLE_USER' },
    });
    const bad = await inject('PATCH', `/api/utilisateurs/${code}`, admin.cookie, { nomPrenom: 'A' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Le nom et prénom doivent contenir au moins 2 caractères.');
    expect((await inject('PATCH', `/api/utilisateurs/${code}`, admin.cookie, {})).json().message).toBe(
      'Aucune modification demandée.',
    );
    expect(
      (await inject('PATCH', '/api/utilisateurs/USR-INCONNU', admin.cookie, { nomPrenom: 'Personne' }))
        .statusCode,
    ).toBe(404);
  });

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
    await expect(updateUser(t.db, actor, lone.code, { isEnabled: false })).rejects.toThrow(
      'Impossible de désactiver le dernier administrateur actif.',
    );
    await expect(updateUser(t.db, actor, lone.code, { utilisateurRole: 'ROLE_USER' })).rejects.toThrow(
      'Impossible de retirer le rôle du dernier administrateur actif.',
    );
    expect((await userRow('admin@example.mg')).isEnabled).toBe(true);
  });

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

  it('gives any logged-in user the creator picker (codes and names only, at most 300) while the user list stays admin only', async () => {
    expect((await inject('GET', '/api/utilisateurs', agent.cookie)).statusCode).toBe(403);
    for (let i = 0; i < 3; i++) await t.user(`picker${i}@example.mg`, 'ROLE_USER', `Picker ${i}`);
    const input = encodeURIComponent(JSON.stringify({ search: 'picker' }));
    const res = await t.app.inject({
      url: `/trpc/utilisateurs.options?input=${input}`,
      headers: { cookie: agent.cookie },
    });
    expect(res.statusCode).toBe(200);
    const options = res.json().result.data;
    expect(options.map((o: { nomPrenom: string }) => o.nomPrenom)).toEqual([
      'Picker 0',
      'Picker 1',
      'Picker 2',
    ]);
    expect(Object.keys(options[0]).sort()).toEqual(['code', 'nomPrenom']);
    const all = (
      await t.app.inject({ url: '/trpc/utilisateurs.options', headers: { cookie: agent.cookie } })
    ).json().result.data;
    expect(all.length).toBeGreaterThan(30);
    const [role] = await t.db.read
      .select()
      .from(t.db.t.utilisateurRoles)
      .where(eq(t.db.t.utilisateurRoles.code, 'ROLE_USER'));
    const bulk = Array.from({ length: 305 - all.length }, (_, i) => ({
      code: `USR-MASSE${i}`,
      email: `masse${i}@example.mg`,
      nomPrenom: `Masse ${i}`,
      roleId: role!.id,
    }));
    await t.db.transaction((tx) => tx.insert(t.db.t.utilisateurs).values(bulk));
    const capped = (
      await t.app.inject({ url: '/trpc/utilisateurs.options', headers: { cookie: agent.cookie } })
    ).json().result.data;
    expect(capped).toHaveLength(300);
    expect((await t.app.inject({ url: '/trpc/utilisateurs.options' })).statusCode).toBe(401);
  });
});
