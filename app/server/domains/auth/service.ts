import { eq } from 'drizzle-orm';
import type { AppContext, Auth, Services } from '#server/context';
import type { Database } from '#server/db/client';
import { DomainError } from '#server/errors';
import { clientKeyOf } from '#server/http/network';
import { recordLogin, recordLoginFailure } from '../journal/record';
import { utilisateurDto } from '../utilisateurs/dto';
import { findUserByEmail } from '../utilisateurs/service';
import { burnPasswordCheck, hashGate, isBusy, verifyPassword } from './password';
import { createSession, generateSessionToken, invalidateSession, type Session } from './session';
import { releaseAttempt, reserveAttempt } from './throttle';
import { twoFactorStep } from './two-factor-step';

export const BAD_CREDENTIALS = 'Email ou mot de passe incorrect.';

export interface LoginResult {
  token: string;
  session: Session;
  /** The new session and its user: what the perimeter decides the second-factor step from. */
  auth: Auth;
}

/**
 * The answer of log-in and who-am-i on both doors: the user, the second-factor step still owed, and
 * the business calendar's zone (docs/decisions/0018).
 */
export function currentUserAnswer(auth: Auth, { config, calendar }: Pick<AppContext, 'config' | 'calendar'>) {
  return {
    ...utilisateurDto(auth.user, auth.user.code),
    twoFactor: twoFactorStep(auth, config),
    twoFactorEnrolled: auth.user.twoFactorEnrolled,
    timeZone: calendar.zone,
  };
}

/**
 * Checks the credentials and opens a session. A wrong e-mail, a wrong password and a disabled
 * account all get the same answer, so the form reveals nothing about which accounts exist.
 */
export async function login(
  ctx: Services,
  input: { email: string; password: string },
  ip: string,
): Promise<LoginResult> {
  // One of the address's places in the hashing gate, before anything else (no database work for a
  // flood from one address: it is refused here at once).
  // An IPv6 host rotating through its /64 has one share (network.ts).
  const place = hashGate.admit(clientKeyOf(ip));
  try {
    return await checkAndOpen(ctx, input, ip);
  } finally {
    place.release();
  }
}

async function checkAndOpen(
  ctx: Services,
  input: { email: string; password: string },
  ip: string,
): Promise<LoginResult> {
  const { db } = ctx;
  // Counted first (atomically, nothing checked when over a limit), then checked.
  try {
    await reserveAttempt(db, input.email, ip);
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'too_many_requests') {
      // Logged without checking anything: the account is looked up only to name it in the log.
      const known = await findUserByEmail(db, input.email);
      await recordLoginFailure(ctx, {
        userId: known?.id ?? null,
        email: input.email,
        address: ip,
        motif: 'trop_de_tentatives',
      });
    }
    throw error;
  }
  const user = await findUserByEmail(db, input.email);
  let valid: boolean;
  try {
    valid = user?.passwordHash
      ? await verifyPassword(user.passwordHash, input.password, clientKeyOf(ip))
      : (await burnPasswordCheck(input.password, clientKeyOf(ip)), false);
  } catch (error) {
    // Refused by the hashing gate before any check: the attempt is given back.
    if (isBusy(error)) await releaseAttempt(db, input.email, ip, 'unchecked');
    throw error;
  }
  if (!user || !valid || !user.isEnabled) {
    // The log says why (administrators only read it); the answer stays the same for every reason.
    const motif = !user
      ? 'compte_inconnu'
      : !user.passwordHash
        ? 'compte_sans_mot_de_passe'
        : !valid
          ? 'mot_de_passe_incorrect'
          : 'compte_desactive';
    await recordLoginFailure(ctx, { userId: user?.id ?? null, email: input.email, address: ip, motif });
    throw new DomainError('unauthenticated', BAD_CREDENTIALS);
  }
  await releaseAttempt(db, input.email, ip, 'success');
  await recordLogin(ctx, user, ip, 'mot_de_passe');
  const token = generateSessionToken();
  const now = new Date();
  const session = await createSession(db, token, user.id);
  await db.transaction((tx) =>
    tx.update(db.t.utilisateurs).set({ lastConnectionAt: now }).where(eq(db.t.utilisateurs.id, user.id)),
  );
  const [key] = await db.read
    .select({ userId: db.t.twoFactorKeys.userId })
    .from(db.t.twoFactorKeys)
    .where(eq(db.t.twoFactorKeys.userId, user.id))
    .limit(1);
  const { passwordHash: _hash, ...fields } = user;
  const sessionUser = { ...fields, lastConnectionAt: now, twoFactorEnrolled: key !== undefined };
  return { token, session, auth: { session, user: sessionUser } };
}

export async function logout(db: Database, sessionId: string): Promise<void> {
  await invalidateSession(db, sessionId);
}
