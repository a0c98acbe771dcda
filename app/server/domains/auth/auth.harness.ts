// The fixture of the log-in tests (auth-*.test.ts): one app per file and engine with an agent and an
// administrator, and a log-in sent from a given address (the limits count per address).
import { createTestApp, type TestApp } from '#tests/helpers/app';
import type { Engine } from '#server/db/client';

export async function authApp(engine: Engine): Promise<TestApp> {
  const t = await createTestApp(engine);
  await t.user('agent@example.mg', 'ROLE_USER', 'Rabe Hery');
  await t.user('admin@example.mg', 'ROLE_ADMIN', 'Rasoa Admin');
  return t;
}

/** `loginRes(email, password, ip)`: a REST log-in from `ip`, on the app `app()` returns once it exists. */
export const authRequests = (app: () => TestApp) => ({
  loginRes: (email: string, password: string, ip = '10.0.0.1') =>
    app().app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email, password },
      headers: { 'x-forwarded-for': ip },
    }),
});
