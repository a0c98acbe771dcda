import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { SESSION_COOKIE, validateSessionToken, type Session } from '../domains/auth/session';

export function setSessionCookie(reply: FastifyReply, config: Config, token: string, session: Session) {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.PUBLIC_URL.startsWith('https:'),
    path: '/',
    expires: session.expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config) {
  reply.clearCookie(SESSION_COOKIE, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.PUBLIC_URL.startsWith('https:'),
    path: '/',
  });
}

/** Resolves request.auth from the session cookie, renewing the cookie when the session was extended. */
export async function authenticate(
  request: FastifyRequest,
  reply: FastifyReply,
  db: Database,
  config: Config,
) {
  request.auth = null;
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return;
  const result = await validateSessionToken(db, token);
  if (!result) {
    clearSessionCookie(reply, config);
    return;
  }
  // The address travels with the user so every service can write it in the access log.
  request.auth = { ...result, user: { ...result.user, address: request.ip } };
  setSessionCookie(reply, config, token, result.session);
}
