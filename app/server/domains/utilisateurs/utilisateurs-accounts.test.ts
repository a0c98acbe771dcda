// Creating, listing and editing accounts: both doors, the set-up e-mail, duplicates, the form's messages,
// administrators only, the list and the picker (which counts the accounts the tests before it created).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testEngines } from '#tests/helpers/db';
import { outbox, passwordLinkIn } from '#tests/helpers/smtp';
import { hashPasswordToken, PASSWORD_TOKEN_TTL_MS } from '../auth/password-tokens';
import { accountsSuite, PUBLIC_URL } from './utilisateurs.harness';

describe.each(await testEngines())('user accounts on %s', (engine) => {
  const { t, admin, agent, inject, createRest, trpc, userRow, mailsTo } = accountsSuite(engine);

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
