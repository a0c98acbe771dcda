// Two-factor log-in: codes after the password, used once, counted, a step off, recovery codes.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookie, TEST_PASSWORD, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { purgeRateWindows } from '#server/http/public-limit';
import {
  GUESSES_MAIL_INTERVAL_MS,
  GUESSES_MAIL_KEY_PREFIX,
  MAX_WRONG_CODES_PER_SESSION,
} from './two-factor-guesses';
import { twoFactorApp, twoFactorRequests, wrong } from './two-factor.harness';

describe.each(await testEngines())('two-factor codes on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await twoFactorApp(engine);
  });
  afterAll(async () => t?.close());

  const { trpc, rest, whoAmI, userId } = twoFactorRequests(() => t);

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
});
