import { decodeBase64 } from '@oslojs/encoding';
import { generateTOTP } from '@oslojs/otp';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, sessionCookie, TEST_PASSWORD, type TestApp } from '../../../tests/helpers/app';
import { testEngines } from '../../../tests/helpers/db';
import { appRouter } from '../../trpc/router';
import { MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS } from './throttle';

const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };
const STEP_REQUIRED = 'Double authentification requise. Saisissez votre code pour continuer.';
/** The doors a session owing its second factor may use, besides the public ones. */
const STEP_PROCEDURES = [
  'auth.whoAmI',
  'auth.logout',
  'twoFactor.setup',
  'twoFactor.enrol',
  'twoFactor.verify',
  'twoFactor.recover',
];
const STEP_ROUTES = [
  'GET /api/utilisateur/who-am-i',
  'POST /api/logout',
  'POST /api/two-factor/verify',
  'POST /api/two-factor/recovery',
];

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe.each(await testEngines())('two-factor log-in on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('chef@example.mg', 'ROLE_ADMIN', 'Rasoa Chef');
    await t.user('agent@example.mg', 'ROLE_USER', 'Rabe Agent');
    await t.user('secours@example.mg', 'ROLE_ADMIN', 'Ravelo Secours');
    await t.user('limite@example.mg', 'ROLE_ADMIN', 'Randria Limite');
  });
  afterAll(async () => t?.close());

  const trpc = (path: string, cookie: string, payload: object = {}, ip = '10.1.0.1') =>
    t.app.inject({
      method: 'POST',
      url: `/trpc/${path}`,
      headers: { cookie, ...SAME_ORIGIN, 'x-forwarded-for': ip },
      payload,
    });
  const rest = (url: string, cookie: string, payload: object, ip = '10.1.0.1') =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { cookie, ...SAME_ORIGIN, 'x-forwarded-for': ip },
      payload,
    });
  const whoAmI = async (cookie: string) =>
    (await t.app.inject({ url: '/api/utilisateur/who-am-i', headers: { cookie } })).json();
  const userId = async (email: string) =>
    (await t.db.read.select().from(t.db.t.utilisateurs).where(eq(t.db.t.utilisateurs.email, email)))[0]!.id;

  it('lets a user who is not required to enrol in without a second step', async () => {
    const { cookie, twoFactor } = await t.loginPasswordOnly('agent@example.mg');
    expect(twoFactor).toBeNull();
    const list = await t.app.inject({ url: '/trpc/utilisateurs.roles', headers: { cookie } });
    expect(list.statusCode).toBe(200);
  });

  it('sends an administrator without a second factor to enrolment, and refuses every other door with 403', async () => {
    const { cookie, twoFactor } = await t.loginPasswordOnly('chef@example.mg');
    expect(twoFactor).toBe('enrol');
    expect(await whoAmI(cookie)).toMatchObject({
      email: 'chef@example.mg',
      twoFactor: 'enrol',
      twoFactorEnrolled: false,
    });
    // auth.session tells the client the same step, so the guard sends it to enrolment.
    const session = await t.app.inject({ url: '/trpc/auth.session', headers: { cookie } });
    expect(session.json().result.data).toMatchObject({ email: 'chef@example.mg', twoFactor: 'enrol' });

    const procedures = Object.entries(
      appRouter._def.procedures as unknown as Record<
        string,
        { _def: { type: string; meta?: { public?: boolean } } }
      >,
    );
    const refused: string[] = [];
    for (const [path, procedure] of procedures) {
      if (procedure._def.meta?.public || STEP_PROCEDURES.includes(path)) continue;
      const res =
        procedure._def.type === 'query'
          ? await t.app.inject({ url: `/trpc/${path}?input=%7B%7D`, headers: { cookie } })
          : await trpc(path, cookie, {});
      if (res.statusCode === 403 && res.json().error.message === STEP_REQUIRED) refused.push(path);
    }
    const expected = procedures
      .map(([p, d]) => (d._def.meta?.public || STEP_PROCEDURES.includes(p) ? null : p))
      .filter(Boolean);
    expect(expected.length).toBeGreaterThan(20);
    expect(refused).toEqual(expected);

    const routes = t.app.routeList.filter(
      (r) => r.url.startsWith('/api/') && !r.config.public && !STEP_ROUTES.includes(`${r.method} ${r.url}`),
    );
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const res = await t.app.inject({
        method: route.method as 'GET',
        url: route.url.replace(/:[a-zA-Z]+/g, 'X1'),
        headers: {
          cookie,
          ...SAME_ORIGIN,
          ...(route.method === 'GET' ? {} : { 'content-type': 'application/json' }),
        },
        ...(route.method === 'GET' ? {} : { payload: '{}' }),
      });
      expect(`${route.method} ${route.url} ${res.statusCode}`).toBe(`${route.method} ${route.url} 403`);
      expect(res.json().message).toBe(STEP_REQUIRED);
    }
  });

  it('enrols with a confirmation code: the key is kept, never shown again; ten recovery codes are returned once and stored hashed', async () => {
    const { cookie } = await t.loginPasswordOnly('chef@example.mg');
    const setup = await trpc('twoFactor.setup', cookie);
    expect(setup.statusCode).toBe(200);
    const { key, secret, uri } = setup.json().result.data;
    expect(decodeBase64(key)).toHaveLength(20);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Signalements:chef%40example\.mg\?/);
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toContain('period=30');
    expect(uri).toContain('digits=6');
    const bytes = decodeBase64(key);

    const refused = await trpc('twoFactor.enrol', cookie, { key, code: wrong(generateTOTP(bytes, 30, 6)) });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toMatch(/^Code incorrect/);
    expect(await whoAmI(cookie)).toMatchObject({ twoFactor: 'enrol' });

    const enrolled = await trpc('twoFactor.enrol', cookie, { key, code: generateTOTP(bytes, 30, 6) });
    expect(enrolled.statusCode).toBe(200);
    const { recoveryCodes } = enrolled.json().result.data as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);

    const id = await userId('chef@example.mg');
    const stored = await t.db.read
      .select()
      .from(t.db.t.recoveryCodes)
      .where(eq(t.db.t.recoveryCodes.userId, id));
    expect(stored).toHaveLength(10);
    const dump = JSON.stringify(stored);
    for (const code of recoveryCodes) expect(dump).not.toContain(code.replaceAll('-', ''));
    expect(stored.every((row) => /^[0-9a-f]{64}$/.test(row.codeHash))).toBe(true);

    // The session that enrolled is verified; the key is never sent back.
    const me = await whoAmI(cookie);
    expect(me).toMatchObject({ twoFactor: null, twoFactorEnrolled: true });
    expect(JSON.stringify(me)).not.toContain(secret);
    expect((await t.app.inject({ url: '/api/utilisateurs?page=1', headers: { cookie } })).statusCode).toBe(
      200,
    );
    const again = await trpc('twoFactor.setup', cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('La double authentification est déjà activée pour ce compte.');
  });

  it('asks an enrolled user for a code after the password; a wrong code is refused and counted, a right one opens the session', async () => {
    await t.login('limite@example.mg'); // enrols through the helper, which keeps the key
    const { cookie, twoFactor } = await t.loginPasswordOnly('limite@example.mg');
    expect(twoFactor).toBe('verify');
    expect((await t.app.inject({ url: '/api/utilisateurs?page=1', headers: { cookie } })).statusCode).toBe(
      403,
    );

    const ip = '10.2.0.7';
    const throttleRow = async () =>
      (
        await t.db.read
          .select()
          .from(t.db.t.loginThrottle)
          .where(eq(t.db.t.loginThrottle.key, `account-ip:limite@example.mg|${ip}`))
      )[0];
    for (let i = 1; i <= MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS; i++) {
      const res = await rest(
        '/api/two-factor/verify',
        cookie,
        { code: wrong(t.totp('limite@example.mg')) },
        ip,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^Code incorrect/);
      expect((await throttleRow())?.failures).toBe(i);
    }
    // At the limit, even the right code is not checked from this address.
    const blocked = await rest('/api/two-factor/verify', cookie, { code: t.totp('limite@example.mg') }, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Trop de tentatives de connexion/);
    expect(await whoAmI(cookie)).toMatchObject({ twoFactor: 'verify' });

    const ok = await trpc('twoFactor.verify', cookie, { code: t.totp('limite@example.mg') }, '10.2.0.8');
    expect(ok.statusCode).toBe(200);
    expect(await whoAmI(cookie)).toMatchObject({ twoFactor: null });
    expect((await t.app.inject({ url: '/api/utilisateurs?page=1', headers: { cookie } })).statusCode).toBe(
      200,
    );
  });

  it('accepts a code of the step before or after (a phone clock a little off), not one 90 seconds away', async () => {
    await t.user('horloge@example.mg', 'ROLE_ADMIN', 'Rabe Horloge');
    await t.login('horloge@example.mg'); // enrols through the helper, which keeps the key
    for (const steps of [-3, 3]) {
      const { cookie } = await t.loginPasswordOnly('horloge@example.mg');
      const far = await rest('/api/two-factor/verify', cookie, { code: t.totpAtStep('horloge@example.mg', steps) }, '10.3.0.1');
      expect(far.statusCode).toBe(400);
    }
    for (const steps of [-1, 1]) {
      const { cookie } = await t.loginPasswordOnly('horloge@example.mg');
      const near = await rest('/api/two-factor/verify', cookie, { code: t.totpAtStep('horloge@example.mg', steps) }, '10.3.0.2');
      expect(near.statusCode, near.body).toBe(204);
      expect(await whoAmI(cookie)).toMatchObject({ twoFactor: null });
    }
  });

  it('accepts a recovery code once, instead of a code of the app', async () => {
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'secours@example.mg', password: TEST_PASSWORD },
    });
    const cookie = sessionCookie(first);
    const codes = await t.enrolTwoFactor('secours@example.mg', cookie);

    const second = await t.loginPasswordOnly('secours@example.mg');
    expect(second.twoFactor).toBe('verify');
    const used = await trpc('twoFactor.recover', second.cookie, { code: codes[0]!.toLowerCase() });
    expect(used.statusCode).toBe(200);
    expect(used.json().result.data).toEqual({ remaining: 9 });
    expect(await whoAmI(second.cookie)).toMatchObject({ twoFactor: null });

    const third = await t.loginPasswordOnly('secours@example.mg');
    const reused = await rest('/api/two-factor/recovery', third.cookie, { code: codes[0]! });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toBe('Code de secours incorrect ou déjà utilisé.');
    expect(await whoAmI(third.cookie)).toMatchObject({ twoFactor: 'verify' });
    const other = await rest('/api/two-factor/recovery', third.cookie, { code: codes[1]! });
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual({ remaining: 8 });
  });

  it('lets an administrator reset a second factor: key and codes removed, sessions ended, next log-in enrols again', async () => {
    const admin = await t.login('secours@example.mg');
    const victim = await t.login('limite@example.mg');
    const agent = await t.login('agent@example.mg');

    const byAgent = await trpc('utilisateurs.resetTwoFactor', agent, { code: (await whoAmI(victim)).code });
    expect(byAgent.statusCode).toBe(403);

    const code = (await whoAmI(victim)).code;
    const reset = await rest(`/api/utilisateur/reset-two-factor/${code}`, admin, {});
    expect(reset.statusCode).toBe(204);
    const id = await userId('limite@example.mg');
    expect(
      await t.db.read.select().from(t.db.t.twoFactorKeys).where(eq(t.db.t.twoFactorKeys.userId, id)),
    ).toEqual([]);
    expect(
      await t.db.read.select().from(t.db.t.recoveryCodes).where(eq(t.db.t.recoveryCodes.userId, id)),
    ).toEqual([]);
    expect(
      (await t.app.inject({ url: '/api/utilisateur/who-am-i', headers: { cookie: victim } })).statusCode,
    ).toBe(401);
    expect((await t.loginPasswordOnly('limite@example.mg')).twoFactor).toBe('enrol');

    const viaTrpc = await trpc('utilisateurs.resetTwoFactor', admin, { code: 'USR-INCONNU' });
    expect(viaTrpc.statusCode).toBe(404);
  });
});

describe.each(await testEngines())('two-factor log-in required of all staff on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { TWO_FACTOR_REQUIRED: 'all' });
    await t.user('agent@example.mg', 'ROLE_USER', 'Rabe Agent');
  });
  afterAll(async () => t?.close());

  it('sends a plain user to enrolment when TWO_FACTOR_REQUIRED=all', async () => {
    const { cookie, twoFactor } = await t.loginPasswordOnly('agent@example.mg');
    expect(twoFactor).toBe('enrol');
    const res = await t.app.inject({ url: '/trpc/utilisateurs.roles', headers: { cookie } });
    expect(res.statusCode).toBe(403);
    await t.enrolTwoFactor('agent@example.mg', cookie);
    expect((await t.app.inject({ url: '/trpc/utilisateurs.roles', headers: { cookie } })).statusCode).toBe(
      200,
    );
  });
});
