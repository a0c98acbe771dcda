// Two-factor log-in with TOTP, after Lucia's two-factor guide (lucia-auth.com, "Two-factor
// authentication with TOTP"): a 20-byte random key, codes of 6 digits every 30 s, and a
// `twoFactorVerified` flag on the session. Ten single-use recovery codes, kept as SHA-256 hashes. Every
// code is counted against the address limits (throttle.ts) before it is checked, and a wrong one on a
// session that owes its code against that session (two-factor-guesses.ts); a TOTP code works once.
// Enrolment: two-factor-enrol.ts; reset by an administrator: two-factor-reset.ts.
// Model and choices: docs/decisions/0016-two-factor.md.
import { timingSafeEqual } from 'node:crypto';
import { sha256 } from '@oslojs/crypto/sha2';
import { decodeBase64, encodeHexLowerCase } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { cipherOf, type Auth, type Services } from '#server/context';
import type { Database } from '#server/db/client';
import { conflict, DomainError, invalid } from '#server/errors';
import type { LoginFailure, LoginStep } from '../journal/describe';
import { recordLogin, recordLoginFailure } from '../journal/record';
import { setSessionTwoFactorVerified, type SessionUser } from './session';
import { releaseAttempt, reserveAttempt } from './throttle';
import { countWrongCode } from './two-factor-guesses';

export const TOTP_PERIOD_SECONDS = 30;
/**
 * A code of the previous or next 30-second step is accepted too (RFC 6238 §5.2): a phone's clock a
 * little off, or a code typed as its step ends, must not lock a person out.
 */
export const TOTP_GRACE_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;

export const TWO_FACTOR_TEXT = {
  wrongCode: 'Code incorrect. Vérifiez l’heure de votre téléphone et réessayez.',
  usedCode: 'Ce code a déjà été utilisé. Attendez le code suivant de votre application.',
  wrongRecoveryCode: 'Code de secours incorrect ou déjà utilisé.',
  wrongPassword: 'Mot de passe incorrect.',
  alreadyEnrolled: 'La double authentification est déjà activée pour ce compte.',
  notEnrolled: "La double authentification n'est pas activée pour ce compte.",
  noPendingKey: 'Aucune activation en cours. Recommencez l’activation.',
  userNotFound: 'Utilisateur introuvable.',
} as const;

async function keyOf(ctx: Services, userId: number): Promise<Uint8Array | null> {
  const { db } = ctx;
  const [row] = await db.read
    .select({ key: db.t.twoFactorKeys.key })
    .from(db.t.twoFactorKeys)
    .where(eq(db.t.twoFactorKeys.userId, userId))
    .limit(1);
  // Stored encrypted with the data key, like the sources (docs/decisions/0017).
  return row ? decodeBase64(cipherOf(ctx).decrypt(row.key, 'two_factor_keys.key')) : null;
}

/** The 30-second step (previous, current or next) whose code `code` is, or null. */
export function totpStepOf(key: Uint8Array, code: string, now = Date.now()): number | null {
  const current = Math.floor(now / 1000 / TOTP_PERIOD_SECONDS);
  const grace = TOTP_GRACE_SECONDS / TOTP_PERIOD_SECONDS;
  const typed = Buffer.from(code);
  for (let step = current - grace; step <= current + grace; step++) {
    const expected = Buffer.from(generateHOTP(key, BigInt(step), TOTP_DIGITS));
    if (typed.length === expected.length && timingSafeEqual(typed, expected)) return step;
  }
  return null;
}

/**
 * Spends a step for the user: one conditional UPDATE, so a code (or an older one) is accepted once,
 * even by two simultaneous requests.
 */
async function spendStep(db: Database, userId: number, step: number): Promise<boolean> {
  const k = db.t.twoFactorKeys;
  const spent = await db.transaction((tx) =>
    tx
      .update(k)
      .set({ lastUsedStep: step })
      .where(and(eq(k.userId, userId), or(isNull(k.lastUsedStep), lt(k.lastUsedStep, step))))
      .returning({ userId: k.userId }),
  );
  return spent.length === 1;
}

export const normaliseRecoveryCode = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '');
export const hashRecoveryCode = (code: string) =>
  encodeHexLowerCase(sha256(new TextEncoder().encode(normaliseRecoveryCode(code))));

/** What a check says: right, wrong, or right but already used (answered with its own message). */
export type CodeCheck = true | false | 'used';

/**
 * Counts the attempt against the address limits, then runs `check`. A right code gives the attempt
 * back (as a right password does) and is logged as a log-in; a wrong one leaves it counted, is logged
 * as a failed log-in (never the code) and answers 400 with `message`. With `session`, a wrong code also
 * counts against the session, which ends at its limit (401). A refusal by the limiter is logged too.
 */
export async function counted(
  ctx: Services,
  user: Pick<SessionUser, 'id' | 'email'>,
  ip: string,
  message: string,
  step: { success: LoginStep; failure: LoginFailure },
  check: () => Promise<CodeCheck>,
  session?: Auth,
) {
  const { db } = ctx;
  const failed = (motif: LoginFailure) =>
    recordLoginFailure(ctx, { userId: user.id, email: user.email, address: ip, motif });
  let fromAddress: number;
  try {
    const counts = await reserveAttempt(db, user.email, ip, 'code');
    fromAddress = counts.get('code-ip') ?? 0;
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'too_many_requests')
      await failed('trop_de_tentatives');
    throw error;
  }
  const result = await check();
  if (result !== true) {
    await failed(step.failure);
    if (session) await countWrongCode(ctx, session, ip, fromAddress);
    throw invalid(result === 'used' ? TWO_FACTOR_TEXT.usedCode : message);
  }
  await releaseAttempt(db, user.email, ip, 'success', 'code');
  await recordLogin(ctx, user, ip, step.success);
}

export const TOTP_STEP = { success: 'double_authentification', failure: 'code_incorrect' } as const;
const RECOVERY_STEP = { success: 'code_de_secours', failure: 'code_de_secours_incorrect' } as const;

/** Second step of a log-in: a code of the authenticator app, accepted once. */
export async function verifyTwoFactorCode(
  ctx: Services,
  auth: Auth,
  ip: string,
  code: string,
): Promise<void> {
  const { db } = ctx;
  const key = await keyOf(ctx, auth.user.id);
  if (!key) throw conflict(TWO_FACTOR_TEXT.notEnrolled);
  await counted(
    ctx,
    auth.user,
    ip,
    TWO_FACTOR_TEXT.wrongCode,
    TOTP_STEP,
    async () => {
      const step = totpStepOf(key, code);
      if (step === null) return false;
      return (await spendStep(db, auth.user.id, step)) || 'used';
    },
    auth,
  );
  await setSessionTwoFactorVerified(db, auth.session.id);
}

/** Second step with a recovery code instead: each code works once. Returns how many are left. */
export async function useRecoveryCode(
  ctx: Services,
  auth: Auth,
  ip: string,
  code: string,
): Promise<{ remaining: number }> {
  const { db } = ctx;
  if (!auth.user.twoFactorEnrolled) throw conflict(TWO_FACTOR_TEXT.notEnrolled);
  const { recoveryCodes: codes } = db.t;
  await counted(
    ctx,
    auth.user,
    ip,
    TWO_FACTOR_TEXT.wrongRecoveryCode,
    RECOVERY_STEP,
    async () => {
      // Spent in one conditional UPDATE: two simultaneous uses of the same code cannot both succeed.
      const spent = await db.transaction((tx) =>
        tx
          .update(codes)
          .set({ usedAt: new Date() })
          .where(
            and(
              eq(codes.userId, auth.user.id),
              eq(codes.codeHash, hashRecoveryCode(code)),
              isNull(codes.usedAt),
            ),
          )
          .returning({ id: codes.id }),
      );
      return spent.length === 1;
    },
    auth,
  );
  await setSessionTwoFactorVerified(db, auth.session.id);
  const left = await db.read
    .select({ id: codes.id })
    .from(codes)
    .where(and(eq(codes.userId, auth.user.id), isNull(codes.usedAt)));
  return { remaining: left.length };
}
