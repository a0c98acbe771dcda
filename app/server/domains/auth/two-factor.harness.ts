// The fixture of the two-factor tests (two-factor-*.test.ts): one app per file and engine with two
// administrators, a spare one and an agent, the doors a session owing its second factor may use, and
// requests sent from a given address (wrong codes count per address and session).
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import type { Engine } from '#server/db/client';

export const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };
export const STEP_REQUIRED = 'Double authentification requise. Saisissez votre code pour continuer.';
/** The doors a session owing its second factor may use, besides the public ones. */
export const STEP_PROCEDURES = [
  'auth.whoAmI',
  'auth.logout',
  'twoFactor.setup',
  'twoFactor.enrol',
  'twoFactor.verify',
  'twoFactor.recover',
];
export const STEP_ROUTES = [
  'GET /api/utilisateur/who-am-i',
  'POST /api/logout',
  'POST /api/two-factor/verify',
  'POST /api/two-factor/recovery',
];

export const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

export async function twoFactorApp(engine: Engine): Promise<TestApp> {
  const t = await createTestApp(engine);
  await t.user('chef@example.mg', 'ROLE_ADMIN', 'Rasoa Chef');
  await t.user('agent@example.mg', 'ROLE_USER', 'Rabe Agent');
  await t.user('secours@example.mg', 'ROLE_ADMIN', 'Ravelo Secours');
  await t.user('limite@example.mg', 'ROLE_ADMIN', 'Randria Limite');
  return t;
}

/** The requests of the two-factor tests, on the app `app()` returns once it exists. */
export function twoFactorRequests(app: () => TestApp) {
  const trpc = (path: string, cookie: string, payload: object = {}, ip = '10.1.0.1') =>
    app().app.inject({
      method: 'POST',
      url: `/trpc/${path}`,
      headers: { cookie, ...SAME_ORIGIN, 'x-forwarded-for': ip },
      payload,
    });
  const rest = (url: string, cookie: string, payload: object, ip = '10.1.0.1') =>
    app().app.inject({
      method: 'POST',
      url,
      headers: { cookie, ...SAME_ORIGIN, 'x-forwarded-for': ip },
      payload,
    });
  const whoAmI = async (cookie: string) =>
    (await app().app.inject({ url: '/api/utilisateur/who-am-i', headers: { cookie } })).json();
  const userId = async (email: string) => {
    const t = app();
    return (
      await t.db.read.select().from(t.db.t.utilisateurs).where(eq(t.db.t.utilisateurs.email, email))
    )[0]!.id;
  };
  return { trpc, rest, whoAmI, userId };
}
