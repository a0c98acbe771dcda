import { decodeBase32IgnorePadding, encodeBase64 } from '@oslojs/encoding';
import { generateTOTP } from '@oslojs/otp';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, sessionCookie, TEST_PASSWORD, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { appRouter } from '#server/trpc/router';
import { sessionIdFromToken } from './session';
import { purgeRateWindows } from '#server/http/public-limit';
import {
  GUESSES_MAIL_INTERVAL_MS,
  GUESSES_MAIL_KEY_PREFIX,
  MAX_WRONG_CODES_PER_SESSION,
} from './two-factor-guesses';

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

  it('enrols with the current password and a first code of the key the server chose and kept; ten recovery codes are returned once and stored hashed', async () => {
    const { cookie } = await t.loginPasswordOnly('chef@example.mg');
    const setup = await trpc('twoFactor.setup', cookie);
    expect(setup.statusCode).toBe(200);
    const data = setup.json().result.data as { secret: string; uri: string };
    // The key is not handed out to be sent back: the server keeps it for the session.
    expect(Object.keys(data).sort()).toEqual(['secret', 'uri']);
    const { secret, uri } = data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Signalements:chef%40example\.mg\?/);
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toContain('period=30');
    expect(uri).toContain('digits=6');
    const bytes = decodeBase32IgnorePadding(secret);
    const session = (
      await t.db.read
        .select()
        .from(t.db.t.sessions)
        .where(eq(t.db.t.sessions.id, sessionIdFromToken(cookie.slice(8))))
    )[0]!;
    expect(session.twoFactorPendingKey).not.toBeNull();
    expect(session.twoFactorPendingKey).not.toContain(secret);

    const noPassword = await trpc('twoFactor.enrol', cookie, { code: generateTOTP(bytes, 30, 6) });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().error.message).toBe('Le mot de passe est requis.');
    const badPassword = await trpc(
      'twoFactor.enrol',
      cookie,
      { password: 'pas-le-bon', code: generateTOTP(bytes, 30, 6) },
      '10.1.5.1',
    );
    expect(badPassword.statusCode).toBe(400);
    expect(badPassword.json().error.message).toBe('Mot de passe incorrect.');
    expect(await whoAmI(cookie)).toMatchObject({ twoFactor: 'enrol' });

    const refused = await trpc('twoFactor.enrol', cookie, {
      password: TEST_PASSWORD,
      code: wrong(generateTOTP(bytes, 30, 6)),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toMatch(/^Code incorrect/);
    expect(await whoAmI(cookie)).toMatchObject({ twoFactor: 'enrol' });

    const enrolled = await trpc('twoFactor.enrol', cookie, {
      password: TEST_PASSWORD,
      code: generateTOTP(bytes, 30, 6),
    });
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
    // The confirming code's step is spent; the session no longer holds a pending key.
    const [key] = await t.db.read
      .select()
      .from(t.db.t.twoFactorKeys)
      .where(eq(t.db.t.twoFactorKeys.userId, id));
    expect(key!.lastUsedStep).toBeGreaterThan(0);
    const after = (
      await t.db.read.select().from(t.db.t.sessions).where(eq(t.db.t.sessions.id, session.id))
    )[0]!;
    expect(after.twoFactorPendingKey).toBeNull();

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

  it('refuses a key chosen by the client (all zeros): only the key the server proposed can be enrolled', async () => {
    await t.user('zero@example.mg', 'ROLE_ADMIN', 'Rabe Zero');
    const { cookie } = await t.loginPasswordOnly('zero@example.mg');
    const zeros = new Uint8Array(20);
    const chosen = { key: encodeBase64(zeros), password: TEST_PASSWORD, code: generateTOTP(zeros, 30, 6) };
    const withoutSetup = await trpc('twoFactor.enrol', cookie, chosen);
    expect(withoutSetup.statusCode).toBe(400);
    expect(withoutSetup.json().error.message).toBe('Aucune activation en cours. Recommencez l’activation.');
    expect((await trpc('twoFactor.setup', cookie)).statusCode).toBe(200);
    const afterSetup = await trpc('twoFactor.enrol', cookie, chosen);
    expect(afterSetup.statusCode).toBe(400);
    expect(afterSetup.json().error.message).toMatch(/^Code incorrect/);
    const id = await userId('zero@example.mg');
    expect(
      await t.db.read.select().from(t.db.t.twoFactorKeys).where(eq(t.db.t.twoFactorKeys.userId, id)),
    ).toEqual([]);
    expect(await whoAmI(cookie)).toMatchObject({ twoFactor: 'enrol', twoFactorEnrolled: false });
  });

  it('asks an enrolled user for a code after the password; wrong codes are counted per address and session, not per account; a right one opens the session', async () => {
    await t.login('limite@example.mg'); // enrols through the helper, which keeps the key
    const { cookie, twoFactor } = await t.loginPasswordOnly('limite@example.mg');
    expect(twoFactor).toBe('verify');
    expect((await t.app.inject({ url: '/api/utilisateurs?page=1', headers: { cookie } })).statusCode).toBe(
      403,
    );

    const ip = '10.2.0.7';
    const throttleRow = async (key: string) =>
      (await t.db.read.select().from(t.db.t.loginThrottle).where(eq(t.db.t.loginThrottle.key, key)))[0];
    const code = t.totp('limite@example.mg');
    for (let i = 1; i < MAX_WRONG_CODES_PER_SESSION; i++) {
      const res = await rest('/api/two-factor/verify', cookie, { code: wrong(code) }, ip);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^Code incorrect/);
      expect((await throttleRow(`code-ip:limite@example.mg|${ip}`))?.failures).toBe(i);
    }
    // Nothing counted against the account itself: guesses by whoever knows the password cannot lock the owner out.
    expect((await throttleRow('account:limite@example.mg'))?.failures ?? 0).toBe(0);

    const ok = await trpc('twoFactor.verify', cookie, { code }, '10.2.0.8');
    expect(ok.statusCode).toBe(200);
    expect(await whoAmI(cookie)).toMatchObject({ twoFactor: null });
    expect((await t.app.inject({ url: '/api/utilisateurs?page=1', headers: { cookie } })).statusCode).toBe(
      200,
    );
  });

  it('accepts a code once: the same code, or an older one, is refused on another session', async () => {
    await t.user('unique@example.mg', 'ROLE_ADMIN', 'Rabe Unique');
    await t.login('unique@example.mg');
    const [previous, current, next] = [-1, 0, 1].map((s) => t.totpAtStep('unique@example.mg', s));
    const first = await t.loginPasswordOnly('unique@example.mg');
    expect(
      (await rest('/api/two-factor/verify', first.cookie, { code: current! }, '10.6.0.1')).statusCode,
    ).toBe(204);

    const second = await t.loginPasswordOnly('unique@example.mg');
    const replay = await rest('/api/two-factor/verify', second.cookie, { code: current! }, '10.6.0.2');
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe(
      'Ce code a déjà été utilisé. Attendez le code suivant de votre application.',
    );
    expect((await trpc('twoFactor.verify', second.cookie, { code: previous! }, '10.6.0.2')).statusCode).toBe(
      400,
    );
    expect(await whoAmI(second.cookie)).toMatchObject({ twoFactor: 'verify' });
    // The next step's code is new.
    expect(
      (await rest('/api/two-factor/verify', second.cookie, { code: next! }, '10.6.0.2')).statusCode,
    ).toBe(204);
    expect(await whoAmI(second.cookie)).toMatchObject({ twoFactor: null });
  });

  it('ends a session after five wrong codes and tells the owner by e-mail, at most once an hour; the owner with the password and a code still gets in', async () => {
    const email = 'devine@example.mg';
    await t.user(email, 'ROLE_ADMIN', 'Rasoa Devine');
    await t.login(email);
    const attackerLogin = async (ip: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email, password: TEST_PASSWORD },
        headers: { 'x-forwarded-for': ip },
      });
      expect(res.statusCode).toBe(200);
      return sessionCookie(res);
    };
    const mails = () => t.db.read.select().from(t.db.t.mailOutbox).where(eq(t.db.t.mailOutbox.to, email));

    // More wrong codes than the per-account limit of log-ins (30 an hour), from seven addresses.
    for (let n = 1; n <= 7; n++) {
      const ip = `10.7.${n}.1`;
      const cookie = await attackerLogin(ip);
      for (let i = 1; i < MAX_WRONG_CODES_PER_SESSION; i++) {
        expect(
          (await rest('/api/two-factor/verify', cookie, { code: wrong(t.totpAtStep(email, 0)) }, ip))
            .statusCode,
        ).toBe(400);
      }
      const last = await rest('/api/two-factor/verify', cookie, { code: wrong(t.totpAtStep(email, 0)) }, ip);
      expect(last.statusCode).toBe(401);
      expect(last.json().message).toBe(
        'Trop de codes incorrects : la session a été fermée. Reconnectez-vous avec votre mot de passe.',
      );
      expect((await t.app.inject({ url: '/api/utilisateur/who-am-i', headers: { cookie } })).statusCode).toBe(
        401,
      );
      // Even the right code no longer opens that session.
      expect(
        (await rest('/api/two-factor/verify', cookie, { code: t.totpAtStep(email, 0) }, ip)).statusCode,
      ).toBe(401);
      if (n === 1) {
        // That address is held back: a new session from it does not get a code checked, not even the right one.
        const again = await attackerLogin(ip);
        const held = await rest('/api/two-factor/verify', again, { code: t.totpAtStep(email, 0) }, ip);
        expect(held.statusCode).toBe(429);
        expect(held.json().message).toMatch(/^Trop de tentatives de connexion/);
        const [mail] = await mails();
        expect(mail).toMatchObject({ kind: 'two-factor-guesses', status: 'pending' });
        expect(mail!.subject).toBe(
          'Signalements : codes de double authentification incorrects sur votre compte',
        );
        expect(mail!.text).toContain('Bonjour Rasoa Devine,');
        expect(mail!.text).toContain(`depuis l'adresse ${ip}`);
        expect(mail!.text).toMatch(/le \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2} \(heure de Madagascar\)/);
        expect(mail!.html).toContain(ip);
      }
    }
    // Seven sessions ended, one e-mail: at most one an hour per account, so guesses cannot flood the inbox.
    expect((await mails()).filter((m) => m.kind === 'two-factor-guesses')).toHaveLength(1);
    // The hourly purge keeps the account's window within its hour; once the hour is over, the next
    // session ended tells the owner again.
    const w = t.db.t.rateWindows;
    const windowKey = `${GUESSES_MAIL_KEY_PREFIX}${await userId(email)}`;
    const moveWindow = (ms: number) =>
      t.db.transaction((tx) =>
        tx
          .update(w)
          .set({ startedAt: new Date(Date.now() - ms) })
          .where(eq(w.key, windowKey)),
      );
    await moveWindow(10 * 60_000);
    await purgeRateWindows(t.db);
    expect(await t.db.read.select().from(w).where(eq(w.key, windowKey))).toHaveLength(1);
    await moveWindow(GUESSES_MAIL_INTERVAL_MS);
    const ip = '10.7.9.1';
    const cookie = await attackerLogin(ip);
    for (let i = 1; i <= MAX_WRONG_CODES_PER_SESSION; i++)
      await rest('/api/two-factor/verify', cookie, { code: wrong(t.totpAtStep(email, 0)) }, ip);
    expect((await t.app.inject({ url: '/api/utilisateur/who-am-i', headers: { cookie } })).statusCode).toBe(
      401,
    );
    expect((await mails()).filter((m) => m.kind === 'two-factor-guesses')).toHaveLength(2);

    // The owner, from their own address, with the password and a code or a recovery code.
    const owner = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email, password: TEST_PASSWORD },
      headers: { 'x-forwarded-for': '10.8.0.1' },
    });
    expect(owner.statusCode).toBe(200);
    const ownerCookie = sessionCookie(owner);
    expect(
      (await rest('/api/two-factor/verify', ownerCookie, { code: t.totp(email) }, '10.8.0.1')).statusCode,
    ).toBe(204);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email, password: TEST_PASSWORD },
      headers: { 'x-forwarded-for': '10.8.0.2' },
    });
    expect(
      (
        await rest(
          '/api/two-factor/recovery',
          sessionCookie(other),
          { code: t.recoveryCode(email) },
          '10.8.0.2',
        )
      ).statusCode,
    ).toBe(200);
  });

  it('counts wrong codes from one address across sessions: four per session and a new log-in do not escape the limit', async () => {
    const email = 'patient@example.mg';
    await t.user(email, 'ROLE_ADMIN', 'Rabe Patient');
    await t.login(email);
    const ip = '10.9.0.1';
    const session = async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email, password: TEST_PASSWORD },
        headers: { 'x-forwarded-for': ip },
      });
      expect(res.statusCode).toBe(200);
      return sessionCookie(res);
    };
    const first = await session();
    for (let i = 1; i < MAX_WRONG_CODES_PER_SESSION; i++) {
      expect(
        (await rest('/api/two-factor/verify', first, { code: wrong(t.totpAtStep(email, 0)) }, ip)).statusCode,
      ).toBe(400);
    }
    const second = await session();
    const fifth = await rest('/api/two-factor/verify', second, { code: wrong(t.totpAtStep(email, 0)) }, ip);
    expect(fifth.statusCode).toBe(401);
    expect(fifth.json().message).toMatch(/^Trop de codes incorrects/);
    const mails = await t.db.read.select().from(t.db.t.mailOutbox).where(eq(t.db.t.mailOutbox.to, email));
    expect(mails.map((m) => m.kind)).toEqual(['two-factor-guesses']);
    expect(mails[0]!.text).toContain(`5 codes de double authentification incorrects`);
  });

  it('accepts a code of the step before or after (a phone clock a little off), not one 90 seconds away', async () => {
    await t.user('horloge@example.mg', 'ROLE_ADMIN', 'Rabe Horloge');
    await t.login('horloge@example.mg'); // enrols through the helper, which keeps the key
    for (const steps of [-3, 3]) {
      const { cookie } = await t.loginPasswordOnly('horloge@example.mg');
      const far = await rest(
        '/api/two-factor/verify',
        cookie,
        { code: t.totpAtStep('horloge@example.mg', steps) },
        '10.3.0.1',
      );
      expect(far.statusCode).toBe(400);
    }
    for (const steps of [-1, 1]) {
      const { cookie } = await t.loginPasswordOnly('horloge@example.mg');
      const near = await rest(
        '/api/two-factor/verify',
        cookie,
        { code: t.totpAtStep('horloge@example.mg', steps) },
        '10.3.0.2',
      );
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
    // The user is told, in French, by whom and when.
    const mails = await t.db.read
      .select()
      .from(t.db.t.mailOutbox)
      .where(eq(t.db.t.mailOutbox.to, 'limite@example.mg'));
    expect(mails.map((m) => [m.kind, m.subject])).toEqual([
      ['two-factor-reset', 'Signalements : votre double authentification a été réinitialisée'],
    ]);
    expect(mails[0]!.text).toContain('Bonjour Randria Limite,');
    expect(mails[0]!.text).toContain(
      'Ravelo Secours, administrateur, a réinitialisé la double authentification',
    );
    expect(mails[0]!.text).toMatch(/le \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2} \(heure de Madagascar\)/);

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
