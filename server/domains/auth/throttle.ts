// Slows down password guessing: failed log-ins are counted per account and per client address in
// the database (so every server process sees the same counters), and a key over its limit is refused
// until its window ends, before any password is checked.
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { DomainError } from '../../errors';

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

export function throttleKeys(email: string, ip: string) {
  return [
    { key: `email:${email.trim().toLowerCase()}`, max: MAX_FAILURES_PER_ACCOUNT },
    { key: `ip:${ip}`, max: MAX_FAILURES_PER_ADDRESS },
  ];
}

export function tooManyAttempts(until: Date, now = Date.now()): DomainError {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now) / 60000));
  return new DomainError(
    'too_many_requests',
    `Trop de tentatives de connexion. Réessayez dans ${minutes} minute(s).`,
    { retryAfterSeconds: Math.ceil((until.getTime() - now) / 1000) },
  );
}

/** Throws when one of the keys is blocked. */
export async function assertNotThrottled(db: Database, email: string, ip: string): Promise<void> {
  const { loginThrottle } = db.t;
  const now = Date.now();
  for (const { key } of throttleKeys(email, ip)) {
    const [row] = await db.read.select().from(loginThrottle).where(eq(loginThrottle.key, key)).limit(1);
    if (row?.blockedUntil && row.blockedUntil.getTime() > now) throw tooManyAttempts(row.blockedUntil, now);
  }
}

/** Counts a failure for each key; returns the block end when this failure reached a limit. */
export async function recordFailure(db: Database, email: string, ip: string): Promise<Date | null> {
  const { loginThrottle } = db.t;
  const now = new Date();
  let blockedUntil: Date | null = null;
  await db.transaction(async (tx) => {
    for (const { key, max } of throttleKeys(email, ip)) {
      const [row] = await tx.select().from(loginThrottle).where(eq(loginThrottle.key, key)).limit(1);
      const fresh = !row || now.getTime() - row.windowStartedAt.getTime() > THROTTLE_WINDOW_MS;
      const failures = fresh ? 1 : row.failures + 1;
      const windowStartedAt = fresh ? now : row.windowStartedAt;
      const blocked = failures >= max ? new Date(now.getTime() + THROTTLE_WINDOW_MS) : null;
      if (blocked) blockedUntil = blocked;
      await tx
        .insert(loginThrottle)
        .values({ key, failures, windowStartedAt, blockedUntil: blocked })
        .onConflictDoUpdate({ target: loginThrottle.key, set: { failures, windowStartedAt, blockedUntil: blocked } });
    }
  });
  return blockedUntil;
}

export async function clearFailures(db: Database, email: string): Promise<void> {
  const { loginThrottle } = db.t;
  const [account] = throttleKeys(email, '');
  await db.transaction((tx) => tx.delete(loginThrottle).where(eq(loginThrottle.key, account!.key)));
}
