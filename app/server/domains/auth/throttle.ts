// Slows down password guessing (model and figures: docs/decisions/0015-security-model.md).
//
// An attempt is reserved before its password is checked, atomically: one transaction increments the
// three counters below (an upsert each, in a fixed order) and rolls back when one is over its limit,
// so a refused attempt counts nothing and no more than the limit of passwords is ever checked per
// window, whatever the concurrency (SQLite's writer lock; PostgreSQL's row locks on the upserts).
// A successful log-in gives its attempt back. Counters live in `login_throttle`, shared by every
// server process.
import { eq, sql } from 'drizzle-orm';
import type { Database, Orm } from '#server/db/client';
import { retryAfterSeconds } from '#server/db/rate-windows';
import { DomainError } from '#server/errors';
import { clientKeyOf } from '#server/http/network';

const MINUTE = 60_000;

export interface ThrottleRule {
  kind: 'ip' | 'account-ip' | 'account' | 'code-ip';
  max: number;
  windowMs: number;
}

/**
 * From one address over all accounts; for one account from one address; for one account from anywhere;
 * second-factor codes for one account from one address (apart from passwords, so that a right password
 * does not wipe the count of wrong codes: two-factor-guesses.ts).
 */
export const THROTTLE_RULES: readonly ThrottleRule[] = [
  { kind: 'ip', max: 20, windowMs: 15 * MINUTE },
  { kind: 'account-ip', max: 5, windowMs: 15 * MINUTE },
  { kind: 'account', max: 30, windowMs: 60 * MINUTE },
  { kind: 'code-ip', max: 5, windowMs: 15 * MINUTE },
];

export const MAX_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS = THROTTLE_RULES[1]!.max;
export const MAX_ATTEMPTS_PER_ADDRESS = THROTTLE_RULES[0]!.max;
export const MAX_ATTEMPTS_PER_ACCOUNT = THROTTLE_RULES[2]!.max;
export const MAX_CODES_PER_ACCOUNT_AND_ADDRESS = THROTTLE_RULES[3]!.max;

const normalise = (email: string) => email.trim().toLowerCase();

/**
 * What is being guessed. A second-factor code is counted per address only (and per session, in
 * two-factor-guesses.ts): whoever sends codes already knows the password, and an account-wide count
 * would let them lock the owner out (docs/decisions/0016-two-factor.md).
 */
export type AttemptScope = 'password' | 'code';
const SCOPES: Record<AttemptScope, ReadonlyArray<ThrottleRule['kind']>> = {
  password: ['ip', 'account-ip', 'account'],
  code: ['ip', 'code-ip'],
};

export function throttleKeys(email: string, address: string, scope: AttemptScope = 'password') {
  const account = normalise(email);
  // One IPv6 host rotating through its /64 is one client (IPv4 stays exact: network.ts).
  const ip = clientKeyOf(address);
  const keyOf: Record<ThrottleRule['kind'], string> = {
    ip: `ip:${ip}`,
    'account-ip': `account-ip:${account}|${ip}`,
    account: `account:${account}`,
    'code-ip': `code-ip:${account}|${ip}`,
  };
  return THROTTLE_RULES.filter((rule) => SCOPES[scope].includes(rule.kind)).map((rule) => ({
    ...rule,
    key: keyOf[rule.kind],
  }));
}

/** The refusal of a log-in attempt over a limit whose window (of `windowMs`) ends at `until`. */
export function tooManyAttempts(until: Date, windowMs: number, now = Date.now()): DomainError {
  const seconds = retryAfterSeconds(until.getTime(), now, windowMs);
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return new DomainError(
    'too_many_requests',
    `Trop de tentatives de connexion. Réessayez dans ${minutes} minute(s).`,
    { retryAfterSeconds: seconds },
  );
}

async function increment(db: Database, tx: Orm, key: string, windowMs: number, now: Date) {
  const t = db.t.loginThrottle;
  const expired = sql`${t.windowStartedAt} <= ${sql.param(new Date(now.getTime() - windowMs), t.windowStartedAt)}`;
  const [row] = await tx
    .insert(t)
    .values({ key, failures: 1, windowStartedAt: now, blockedUntil: null })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures: sql`CASE WHEN ${expired} THEN 1 ELSE ${t.failures} + 1 END`,
        windowStartedAt: sql`CASE WHEN ${expired} THEN ${sql.param(now, t.windowStartedAt)} ELSE ${t.windowStartedAt} END`,
      },
    })
    .returning({ attempts: t.failures, windowStartedAt: t.windowStartedAt });
  return row!;
}

/**
 * Reserves one log-in attempt for this account and address, or throws 429 (nothing counted) when
 * one of the rules is at its limit. Call before any password work. Returns the attempts each rule
 * now counts in its window, this one included.
 */
export async function reserveAttempt(
  db: Database,
  email: string,
  ip: string,
  scope: AttemptScope = 'password',
): Promise<Map<ThrottleRule['kind'], number>> {
  const now = new Date();
  return db.transaction(async (tx) => {
    const counts = new Map<ThrottleRule['kind'], number>();
    for (const { kind, key, max, windowMs } of throttleKeys(email, ip, scope)) {
      const row = await increment(db, tx, key, windowMs, now);
      if (row.attempts > max)
        throw tooManyAttempts(new Date(row.windowStartedAt.getTime() + windowMs), windowMs, now.getTime());
      counts.set(kind, row.attempts);
    }
    return counts;
  });
}

/**
 * Gives an attempt back: after a successful log-in (which also forgets the failures of this account
 * from this address), or when the attempt was refused before its password was checked.
 */
export async function releaseAttempt(
  db: Database,
  email: string,
  ip: string,
  outcome: 'success' | 'unchecked',
  scope: AttemptScope = 'password',
): Promise<void> {
  const t = db.t.loginThrottle;
  await db.transaction(async (tx) => {
    for (const { kind, key } of throttleKeys(email, ip, scope)) {
      if ((kind === 'account-ip' || kind === 'code-ip') && outcome === 'success') {
        await tx.delete(t).where(eq(t.key, key));
      } else {
        await tx
          .update(t)
          .set({ failures: sql`CASE WHEN ${t.failures} > 0 THEN ${t.failures} - 1 ELSE 0 END` })
          .where(eq(t.key, key));
      }
    }
  });
}
