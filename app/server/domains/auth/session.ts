// Sessions after Lucia's documented design (lucia-auth.com, "Basic API"): a random token lives only
// in the browser's cookie; the database keeps its SHA-256 as the session id, with a sliding expiry.
import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { userColumns } from '../utilisateurs/dto';

export const SESSION_COOKIE = 'session';
const DAY_MS = 24 * 60 * 60 * 1000;
export const SESSION_LIFETIME_MS = 30 * DAY_MS;
/** A session used within this long of its expiry is extended to a full lifetime. */
const SESSION_RENEW_WITHIN_MS = 15 * DAY_MS;

export interface SessionUser {
  id: number;
  code: string;
  email: string;
  nomPrenom: string;
  isEnabled: boolean;
  lastConnectionAt: Date | null;
  role: { code: string; designation: string };
  /** Has a TOTP key (two-factor log-in enrolled). */
  twoFactorEnrolled: boolean;
  /**
   * The client address of the request acting as this user (set with the session, from request.ip),
   * so services write it in the access log whichever door (tRPC or REST) was used.
   */
  address?: string;
}

export interface Session {
  id: string;
  userId: number;
  expiresAt: Date;
  /** The second factor was checked in this session (Lucia's two-factor guide). */
  twoFactorVerified: boolean;
}

export function generateSessionToken(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

export function sessionIdFromToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

export async function createSession(db: Database, token: string, userId: number): Promise<Session> {
  const session: Session = {
    id: sessionIdFromToken(token),
    userId,
    expiresAt: new Date(Date.now() + SESSION_LIFETIME_MS),
    twoFactorVerified: false,
  };
  await db.transaction((tx) => tx.insert(db.t.sessions).values(session));
  return session;
}

/** The session and its user for a token, or null when unknown, expired or the user is disabled. */
export async function validateSessionToken(
  db: Database,
  token: string,
): Promise<{ session: Session; user: SessionUser } | null> {
  const { sessions, utilisateurs, utilisateurRoles, twoFactorKeys } = db.t;
  const sessionId = sessionIdFromToken(token);
  // Run on every request: prepared once (server/db/prepared.ts).
  const [row] = await db.prepared(
    'session_check',
    (orm) =>
      orm
        .select({
          session: {
            id: sessions.id,
            userId: sessions.userId,
            expiresAt: sessions.expiresAt,
            twoFactorVerified: sessions.twoFactorVerified,
          },
          ...userColumns(db.t),
          keyOwner: twoFactorKeys.userId,
        })
        .from(sessions)
        .innerJoin(utilisateurs, eq(utilisateurs.id, sessions.userId))
        .innerJoin(utilisateurRoles, eq(utilisateurRoles.id, utilisateurs.roleId))
        .leftJoin(twoFactorKeys, eq(twoFactorKeys.userId, utilisateurs.id))
        .where(eq(sessions.id, sql.placeholder('id')))
        .limit(1),
    { id: sessionId },
  );
  if (!row) return null;
  const { session, keyOwner, ...user } = row;
  if (Date.now() >= session.expiresAt.getTime() || !user.isEnabled) {
    await invalidateSession(db, session.id);
    return null;
  }
  if (Date.now() >= session.expiresAt.getTime() - SESSION_RENEW_WITHIN_MS) {
    session.expiresAt = new Date(Date.now() + SESSION_LIFETIME_MS);
    await db.transaction((tx) =>
      tx.update(sessions).set({ expiresAt: session.expiresAt }).where(eq(sessions.id, session.id)),
    );
  }
  return { session, user: { ...user, twoFactorEnrolled: keyOwner !== null } };
}

export async function invalidateSession(db: Database, sessionId: string): Promise<void> {
  await db.transaction((tx) => tx.delete(db.t.sessions).where(eq(db.t.sessions.id, sessionId)));
}

/** Ends every session of a user (disabling, password change), except `keep` when given. */
export async function invalidateUserSessions(db: Database, userId: number, keep?: string): Promise<void> {
  const { sessions } = db.t;
  await db.transaction(async (tx) => {
    const rows = await tx.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId));
    for (const { id } of rows) {
      if (id !== keep) await tx.delete(sessions).where(eq(sessions.id, id));
    }
  });
}

/** Marks a session as having passed its second factor. */
export async function setSessionTwoFactorVerified(db: Database, sessionId: string): Promise<void> {
  const { sessions } = db.t;
  await db.transaction((tx) =>
    tx.update(sessions).set({ twoFactorVerified: true }).where(eq(sessions.id, sessionId)),
  );
}
