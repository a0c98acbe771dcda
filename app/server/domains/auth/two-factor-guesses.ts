// Wrong second-factor codes sent by a session that owes its code (decision 0016, "Limits"). Whoever sends
// them knows the password; they are stopped per session (ended after MAX_WRONG_CODES_PER_SESSION) and per
// address (throttle.ts), never per account, so the owner with the password and a right code is never refused
// because of someone else's guesses. The owner is told by e-mail, with the address and time, at most once
// an hour per account (a window in rate_windows): whoever has the password and many addresses would
// otherwise fill the owner's inbox, one e-mail per session ended.
import { eq, sql } from 'drizzle-orm';
import type { AppContext, Auth } from '#server/context';
import type { Database, Orm } from '#server/db/client';
import { countInWindow } from '#server/db/rate-windows';
import { DomainError } from '#server/errors';
import { enqueueMail } from '../mail/outbox';
import { MAX_CODES_PER_ACCOUNT_AND_ADDRESS } from './throttle';
import { twoFactorGuessesMail } from './two-factor-mail';

/** Wrong codes a session may send; the same number from one address for one account (throttle.ts). */
export const MAX_WRONG_CODES_PER_SESSION = MAX_CODES_PER_ACCOUNT_AND_ADDRESS;

/** At most one e-mail about wrong codes per account in this time (each session is still ended). */
export const GUESSES_MAIL_INTERVAL_MS = 60 * 60_000;

/** The key of an account's e-mail window in rate_windows (kept an hour by the purge: public-limit.ts). */
export const GUESSES_MAIL_KEY_PREFIX = 'courriel-2fa:';

export const SESSION_ENDED_MESSAGE =
  'Trop de codes incorrects : la session a été fermée. Reconnectez-vous avec votre mot de passe.';

/**
 * Counts one wrong code on the session (one atomic UPDATE … RETURNING). At the limit, counted on the
 * session or from this address for this account (`fromAddress`, the code counter of throttle.ts, which a
 * right password does not reset: four codes per session and a new log-in do not escape it), the session
 * is deleted and the owner's e-mail queued in the same transaction, and this throws 401.
 */
export async function countWrongCode(
  { db, calendar }: Pick<AppContext, 'db' | 'calendar'>,
  auth: Auth,
  ip: string,
  fromAddress: number,
): Promise<void> {
  const { sessions } = db.t;
  const ended = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(sessions)
      .set({ twoFactorFailures: sql`${sessions.twoFactorFailures} + 1` })
      .where(eq(sessions.id, auth.session.id))
      .returning({ failures: sessions.twoFactorFailures });
    if (!row) return true; // ended meanwhile (another wrong code, a log-out)
    const wrongCodes = Math.max(row.failures, fromAddress);
    if (wrongCodes < MAX_WRONG_CODES_PER_SESSION) return false;
    await tx.delete(sessions).where(eq(sessions.id, auth.session.id));
    if (!(await firstMailOfHour(db, tx, auth.user.id))) return true;
    const { email, nomPrenom } = auth.user;
    await enqueueMail(
      db,
      twoFactorGuessesMail({ to: email, nomPrenom, address: ip, at: new Date(), calendar, wrongCodes }),
    );
    return true;
  });
  if (ended) throw new DomainError('unauthenticated', SESSION_ENDED_MESSAGE);
}

/**
 * Counts one e-mail about wrong codes for this account (one atomic upsert, so concurrent sessions
 * ended at once agree); true for the first of its hour.
 */
async function firstMailOfHour(db: Database, tx: Orm, userId: number, now = new Date()): Promise<boolean> {
  const row = await countInWindow(
    db,
    tx,
    `${GUESSES_MAIL_KEY_PREFIX}${userId}`,
    GUESSES_MAIL_INTERVAL_MS,
    now,
  );
  return row.count === 1;
}
