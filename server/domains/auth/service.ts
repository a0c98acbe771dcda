import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { DomainError } from '../../errors';
import { utilisateurDto, type UtilisateurDto } from '../utilisateurs/dto';
import { findUserByEmail } from '../utilisateurs/service';
import { burnPasswordCheck, verifyPassword } from './password';
import { createSession, generateSessionToken, invalidateSession, type Session } from './session';
import { assertNotThrottled, clearFailures, recordFailure, tooManyAttempts } from './throttle';

export const BAD_CREDENTIALS = 'Email ou mot de passe incorrect.';

export interface LoginResult {
  token: string;
  session: Session;
  user: UtilisateurDto;
}

/**
 * Checks the credentials and opens a session. A wrong e-mail, a wrong password and a disabled
 * account all get the same answer, so the form reveals nothing about which accounts exist.
 */
export async function login(
  db: Database,
  input: { email: string; password: string },
  ip: string,
): Promise<LoginResult> {
  await assertNotThrottled(db, input.email, ip);
  const user = await findUserByEmail(db, input.email);
  const valid = user?.passwordHash
    ? await verifyPassword(user.passwordHash, input.password)
    : (await burnPasswordCheck(input.password), false);
  if (!user || !valid || !user.isEnabled) {
    const blockedUntil = await recordFailure(db, input.email, ip);
    if (blockedUntil) throw tooManyAttempts(blockedUntil);
    throw new DomainError('unauthenticated', BAD_CREDENTIALS);
  }
  await clearFailures(db, input.email);
  const token = generateSessionToken();
  const now = new Date();
  const session = await createSession(db, token, user.id);
  await db.transaction((tx) =>
    tx.update(db.t.utilisateurs).set({ lastConnectionAt: now }).where(eq(db.t.utilisateurs.id, user.id)),
  );
  return { token, session, user: utilisateurDto({ ...user, lastConnectionAt: now }, user.code) };
}

export async function logout(db: Database, sessionId: string): Promise<void> {
  await invalidateSession(db, sessionId);
}
