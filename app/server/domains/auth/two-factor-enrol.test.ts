// Two-factor log-in: who must enrol, enrolment, an administrator's reset, TWO_FACTOR_REQUIRED=all.
import { decodeBase32IgnorePadding, encodeBase64 } from '@oslojs/encoding';
import { generateTOTP } from '@oslojs/otp';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { appRouter } from '#server/trpc/router';
import { sessionIdFromToken } from './session';

import {
  SAME_ORIGIN,
  STEP_PROCEDURES,
  STEP_REQUIRED,
  STEP_ROUTES,
  twoFactorApp,
  twoFactorRequests,
  wrong,
} from './two-factor.harness';

describe.each(await testEngines())('two-factor enrolment on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await twoFactorApp(engine);
  });
  afterAll(async () => t?.close());

  const { trpc, rest, whoAmI, userId } = twoFactorRequests(() => t);

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
          // Each door with the body type it takes (an evidence file's upload: its bytes).
          ...(route.method === 'GET'
            ? {}
            : { 'content-type': route.config.binaryBody ? 'application/octet-stream' : 'application/json' }),
        },
        ...(route.method === 'GET' ? {} : { payload: route.config.binaryBody ? '%PDF-1.4\n' : '{}' }),
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
