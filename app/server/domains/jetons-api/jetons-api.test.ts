// Partner API tokens (docs/decisions/0038-partner-api-tokens.md), on both engines: the secret shown once and
// stored hashed; a token files reports for its partner only, idempotently; it reads that partner's reports'
// status and nothing else; bad tokens are 401 with WWW-Authenticate; its own limit; every use logged.
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { bearer, createToken } from '#tests/helpers/jetons-api';
import { accessLogRows } from '#tests/helpers/journal';
import { addPeople, SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport, MINIMAL_REPORT } from '#tests/helpers/signalements';
import { BEARER_MESSAGES } from './bearer';
import { TOKEN_IDEMPOTENCY_REQUIRED } from '#server/domains/signalements/rest-partner';
import { USER_RULES } from '../utilisateurs/manage';

const PARTNER_FIELDS = [
  '@id',
  '@type',
  'closeAt',
  'code',
  'createdAt',
  'lastActionAt',
  'niveau',
  'partenaire',
  'resultat',
  'signalementAt',
  'statut',
].sort();

describe.each(await testEngines())('partner API tokens on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let staff: string;
  let partner: string;
  let other: string;
  let secret: string;
  let key = 0;
  const idem = () => ({ 'idempotency-key': `cle-jeton-${Date.now()}-${key++}` });

  const newPartner = async (designation: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/partenaires',
      headers: { cookie: admin, ...SAME_ORIGIN },
      payload: { designation, email: 'guichet@partenaire.example.mg' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().code as string;
  };
  const push = (token: string, payload: unknown, headers: Record<string, string> = idem()) =>
    t.app.inject({
      method: 'POST',
      url: '/api/signalements',
      headers: bearer(token, headers),
      payload: payload as object,
    });

  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('admin-jetons@example.mg', 'ROLE_ADMIN', 'Rasoa Admin');
    await t.user('agent-jetons@example.mg', 'ROLE_USER', 'Rabe Agent');
    admin = await t.login('admin-jetons@example.mg');
    staff = await t.login('agent-jetons@example.mg');
    partner = await newPartner('Guichet Partenaire A');
    other = await newPartner('Guichet Partenaire B');
    secret = (await createToken(t, admin, { partenaire: partner })).secret;
  });
  afterAll(async () => t?.close());

  it('shows the secret once and keeps only its SHA-256', async () => {
    const created = await createToken(t, admin, { partenaire: partner, nom: 'Jeton de contrôle' });
    expect(created.secret).toMatch(/^sig_[a-z2-7]{16}_[a-z2-7]{32}$/);
    expect(created.jeton).toMatchObject({ nom: 'Jeton de contrôle', etat: 'actif', lastUsedAt: null });
    const list = await t.app.inject({
      url: `/trpc/jetonsApi.list?input=${encodeURIComponent(JSON.stringify({ partenaire: partner }))}`,
      headers: { cookie: admin },
    });
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('Jeton de contrôle');
    expect(list.body).not.toContain(created.secret.slice(-32));
    const [row] = await t.db.read
      .select()
      .from(t.db.t.jetonsApi)
      .where(eq(t.db.t.jetonsApi.publicId, created.jeton.id));
    expect(row!.secretHash).toBe(createHash('sha256').update(created.secret.slice(-32)).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(-32));
    // Staff never manage tokens.
    const refused = await t.app.inject({
      method: 'POST',
      url: '/trpc/jetonsApi.create',
      headers: { cookie: staff, ...SAME_ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({
        partenaire: partner,
        nom: 'Non',
        scopes: ['signalements:read'],
        dureeJours: 30,
      }),
    });
    expect(refused.statusCode).toBe(403);
  });

  it('files a report for its own partner whatever the body says, only with an Idempotency-Key', async () => {
    const without = await push(secret, MINIMAL_REPORT, {});
    expect(without.statusCode).toBe(428);
    expect(without.json().message).toBe(TOKEN_IDEMPOTENCY_REQUIRED);

    const headers = idem();
    const body = { ...MINIMAL_REPORT, partenaire: `/api/partenaires/${other}` };
    const first = await push(secret, body, headers);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().partenaire.code).toBe(partner);
    expect(Object.keys(first.json()).sort()).toEqual(PARTNER_FIELDS);
    expect(first.headers.location).toBe(`/api/signalements/${first.json().code}`);
    const again = await push(secret, body, headers);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().code).toBe(first.json().code);

    // Staff see it filed for the partner, by the token's account.
    const seen = await t.app.inject({
      url: `/api/signalements/${first.json().code}`,
      headers: { cookie: staff },
    });
    expect(seen.json().partenaire.code).toBe(partner);
    expect(seen.json().createdBy.nomPrenom).toBe('Jeton API « Guichet des plaintes » (Guichet Partenaire A)');
  });

  it("reads its partner's reports, status fields only, and never another partner's", async () => {
    const mine = await createReport(t, staff, { partenaire: `/api/partenaires/${partner}` });
    await addPeople(t, staff, mine);
    const theirs = await createReport(t, staff, { partenaire: `/api/partenaires/${other}` });

    const one = await t.app.inject({ url: `/api/signalements/${mine}`, headers: bearer(secret) });
    expect(one.statusCode, one.body).toBe(200);
    expect(Object.keys(one.json()).sort()).toEqual(PARTNER_FIELDS);
    expect(one.body).not.toMatch(/Rakoto|Rabe|description|source|auteur|victime|createdBy/i);

    const hidden = await t.app.inject({ url: `/api/signalements/${theirs}`, headers: bearer(secret) });
    expect(hidden.statusCode).toBe(404);

    const list = await t.app.inject({ url: '/api/signalements', headers: bearer(secret) });
    expect(list.statusCode, list.body).toBe(200);
    const codes = (list.json().member as { code: string; partenaire: { code: string } }[]).map((m) => m.code);
    expect(codes).toContain(mine);
    expect(codes).not.toContain(theirs);
    for (const member of list.json().member) expect(Object.keys(member).sort()).toEqual(PARTNER_FIELDS);
    expect(list.json().totalItems).toBe(codes.length);
    // The staff list's filters are not a partner's: refused, not silently ignored.
    const filtered = await t.app.inject({ url: '/api/signalements?partenaire=X', headers: bearer(secret) });
    expect(filtered.statusCode).toBe(400);
  });

  it('reaches only the routes of its scopes: people, other doors and tRPC are refused', async () => {
    const report = await createReport(t, staff, { partenaire: `/api/partenaires/${partner}` });
    const readOnly = (await createToken(t, admin, { partenaire: partner, scopes: ['signalements:read'] }))
      .secret;
    const createOnly = (await createToken(t, admin, { partenaire: partner, scopes: ['signalements:create'] }))
      .secret;
    expect((await push(readOnly, MINIMAL_REPORT)).statusCode).toBe(403);
    const noRead = await t.app.inject({ url: `/api/signalements/${report}`, headers: bearer(createOnly) });
    expect(noRead.statusCode).toBe(403);
    expect(noRead.json().message).toBe(BEARER_MESSAGES.outOfScope);
    for (const url of [
      `/api/signalements/${report}/source`,
      `/api/signalements/${report}/auteurs`,
      `/api/signalements/${report}/historique`,
      `/api/signalements/${report}/notes`,
      '/api/signalements/export/list',
      '/api/utilisateurs',
      '/api/utilisateur/who-am-i',
      '/api/partenaires',
    ]) {
      expect((await t.app.inject({ url, headers: bearer(secret) })).statusCode, url).toBe(403);
    }
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/signalements/${report}`,
      headers: bearer(secret, { 'content-type': 'application/merge-patch+json' }),
      payload: JSON.stringify({ description: 'x' }),
    });
    expect(patch.statusCode).toBe(403);
    for (const url of ['/trpc/auth.whoAmI', '/trpc/auth.session', '/trpc/signalements.list']) {
      const res = await t.app.inject({ url, headers: bearer(secret) });
      expect(res.statusCode, url).toBe(403);
      expect(res.body).toContain(BEARER_MESSAGES.notForTrpc);
    }
  });

  it('is not subject to the cross-site rule, and refuses a cookie sent with it', async () => {
    const crossSite = await push(secret, MINIMAL_REPORT, { ...idem(), 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode, crossSite.body).toBe(201);
    const both = await t.app.inject({
      url: '/api/signalements',
      headers: { ...bearer(secret), cookie: staff },
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toBe(BEARER_MESSAGES.bothCredentials);
  });

  it('answers 401 with WWW-Authenticate to malformed, unknown, revoked and expired tokens', async () => {
    const wrongSecret = `${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`;
    const unknown = `sig_${'a'.repeat(16)}_${'b'.repeat(32)}`;
    const cases: [string, string][] = [
      [`Basic ${Buffer.from('a:b').toString('base64')}`, BEARER_MESSAGES.malformed],
      ['Bearer', BEARER_MESSAGES.malformed],
      [`Bearer ${secret} extra`, BEARER_MESSAGES.malformed],
      [`Bearer\t${secret}`, BEARER_MESSAGES.malformed],
      [`Token ${secret}`, BEARER_MESSAGES.malformed],
      [secret, BEARER_MESSAGES.malformed],
      [`Bearer ${secret.toUpperCase()}`, BEARER_MESSAGES.unknown],
      [`Bearer ${secret}%00`, BEARER_MESSAGES.unknown],
      [`Bearer ${wrongSecret}`, BEARER_MESSAGES.unknown],
      [`Bearer ${unknown}`, BEARER_MESSAGES.unknown],
      [`Bearer sig_${'a'.repeat(16)}_`, BEARER_MESSAGES.unknown],
    ];
    for (const [authorization, message] of cases) {
      const res = await t.app.inject({ url: '/api/signalements', headers: { authorization } });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json().message, authorization).toBe(message);
      expect(res.headers['www-authenticate'], authorization).toMatch(/^Bearer /);
    }
    // The scheme is case-insensitive (RFC 7235).
    expect(
      (await t.app.inject({ url: '/api/signalements', headers: { authorization: `bEaReR ${secret}` } }))
        .statusCode,
    ).toBe(200);

    const revoked = await createToken(t, admin, { partenaire: partner, nom: 'À révoquer' });
    const revoke = await t.app.inject({
      method: 'POST',
      url: '/trpc/jetonsApi.revoke',
      headers: { cookie: admin, ...SAME_ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ id: revoked.jeton.id }),
    });
    expect(revoke.statusCode, revoke.body).toBe(200);
    expect(revoke.json().result.data.etat).toBe('revoque');
    const afterRevoke = await t.app.inject({ url: '/api/signalements', headers: bearer(revoked.secret) });
    expect(afterRevoke.statusCode).toBe(401);
    expect(afterRevoke.json().message).toBe(BEARER_MESSAGES.revoked);
    expect(afterRevoke.headers['www-authenticate']).toMatch(/^Bearer /);

    const expired = await createToken(t, admin, { partenaire: partner, nom: 'Expiré' });
    await t.db.transaction((tx) =>
      tx
        .update(t.db.t.jetonsApi)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(t.db.t.jetonsApi.publicId, expired.jeton.id)),
    );
    const afterExpiry = await t.app.inject({ url: '/api/signalements', headers: bearer(expired.secret) });
    expect(afterExpiry.statusCode).toBe(401);
    expect(afterExpiry.json().message).toBe(BEARER_MESSAGES.expired);
    // The token's account cannot log in.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: SAME_ORIGIN,
      payload: { email: `jeton-${expired.jeton.id}@jetons-api.invalid`, password: 'mot-de-passe-quelconque' },
    });
    expect(login.statusCode).toBe(401);
  });

  it("keeps the token's account off the users screen, disabled, and out of its edition", async () => {
    const created = await createToken(t, admin, { partenaire: partner, nom: 'Compte du jeton' });
    const [account] = await t.db.read
      .select({ code: t.db.t.utilisateurs.code, isEnabled: t.db.t.utilisateurs.isEnabled })
      .from(t.db.t.utilisateurs)
      .where(eq(t.db.t.utilisateurs.email, `jeton-${created.jeton.id}@jetons-api.invalid`));
    expect(account!.isEnabled).toBe(false);
    const users = await t.app.inject({
      url: '/api/utilisateurs?itemsPerPage=100',
      headers: { cookie: admin },
    });
    expect(users.statusCode, users.body).toBe(200);
    expect(users.body).toContain('Rabe Agent');
    expect(users.body).not.toContain('Jeton API');
    const enable = await t.app.inject({
      method: 'PATCH',
      url: `/api/utilisateurs/${account!.code}`,
      headers: { cookie: admin, ...SAME_ORIGIN, 'content-type': 'application/merge-patch+json' },
      payload: JSON.stringify({ isEnabled: true }),
    });
    expect(enable.statusCode).toBe(409);
    expect(enable.json().message).toBe(USER_RULES.tokenAccount);
  });

  it('logs every use under the token and writes its last use at most once a minute', async () => {
    const created = await createToken(t, admin, { partenaire: partner, nom: 'Jeton journalisé' });
    const before = (await accessLogRows(t, 'jeton_api')).length;
    for (let i = 0; i < 3; i++)
      expect(
        (await t.app.inject({ url: '/api/signalements', headers: bearer(created.secret) })).statusCode,
      ).toBe(200);
    const rows = (await accessLogRows(t, 'jeton_api')).slice(before);
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.userEmail).toBe(`jeton-${created.jeton.id}@jetons-api.invalid`);
      expect(row.details).toMatchObject({
        action: 'utilisation',
        jeton: 'Jeton journalisé',
        partenaire: partner,
        methode: 'GET',
        route: '/api/signalements',
      });
      expect(JSON.stringify(row)).not.toContain(created.secret.slice(-32));
    }
    const [row] = await t.db.read
      .select({ lastUsedAt: t.db.t.jetonsApi.lastUsedAt })
      .from(t.db.t.jetonsApi)
      .where(eq(t.db.t.jetonsApi.publicId, created.jeton.id));
    // Written by the first use, kept by the two that followed within the minute.
    expect(row!.lastUsedAt!.getTime()).toBe(rows[0]!.at.getTime());
  });
});

describe.each(await testEngines())("a partner API token's own limit on %s", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { API_TOKEN_REQUESTS_PER_MINUTE: '3' });
  });
  afterAll(async () => t?.close());

  it('counts before the work, atomically: 3 of 8 concurrent requests pass, then 429 with Retry-After', async () => {
    await t.user('admin-limite@example.mg', 'ROLE_ADMIN', 'Rasoa Admin');
    const admin = await t.login('admin-limite@example.mg');
    const first = await createToken(t, admin, { partenaire: 'IVY' });
    const second = await createToken(t, admin, { partenaire: 'IVY', nom: 'Autre jeton' });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.app.inject({ url: '/api/signalements', headers: bearer(first.secret) }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(refused.json().message).toBe(BEARER_MESSAGES.tooManyRequests);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another token has its own count.
    expect(
      (await t.app.inject({ url: '/api/signalements', headers: bearer(second.secret) })).statusCode,
    ).toBe(200);
  });
});
