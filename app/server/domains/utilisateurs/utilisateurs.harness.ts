// The fixture of the account tests (utilisateurs-*.test.ts): the server suite (an administrator and an agent
// signed in) with a public address for the e-mails' links, and the requests and reads those tests share.
import { eq } from 'drizzle-orm';
import type { Engine } from '#server/db/client';
import { outbox } from '#tests/helpers/smtp';
import { serverSuite } from '#tests/helpers/suite';

export const PUBLIC_URL = 'http://signalements.test';

/** Call in the describe block of one engine, as serverSuite. */
export function accountsSuite(engine: Engine) {
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
  return { t, admin, agent, inject, createRest, trpc, userRow, mailsTo };
}
