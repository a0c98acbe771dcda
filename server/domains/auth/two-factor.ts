// Two-factor log-in with TOTP, after Lucia's two-factor guide (lucia-auth.com, "Two-factor
// authentication with TOTP"): a 20-byte random key, codes of 6 digits every 30 s checked with
// @oslojs/otp, and a `twoFactorVerified` flag on the session. Ten single-use recovery codes, kept as
// SHA-256 hashes. Every code is counted against the log-in limits (throttle.ts) before it is checked.
// Model and choices: docs/decisions/0016-two-factor.md.
import { sha256 } from '@oslojs/crypto/sha2';
import { decodeBase64, encodeBase32UpperCaseNoPadding, encodeBase64, encodeHexLowerCase } from '@oslojs/encoding';
import { createTOTPKeyURI, verifyTOTPWithGracePeriod } from '@oslojs/otp';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Auth } from '../../context';
import { cipherOf } from '../../crypto/registry';
import type { Database } from '../../db/client';
import { conflict, DomainError, invalid, notFound } from '../../errors';
import { requireAdmin } from './guards';
import type { LoginFailure, LoginStep } from '../journal/describe';
import { recordLogin, recordLoginFailure, recordRightsChange } from '../journal/record';
import { setSessionTwoFactorVerified, type SessionUser } from './session';
import { releaseAttempt, reserveAttempt } from './throttle';

export const TOTP_PERIOD_SECONDS = 30;
/**
 * A code of the previous or next 30-second step is accepted too (RFC 6238 §5.2): a phone's clock a
 * little off, or a code typed as its step ends, must not lock a person out.
 */
export const TOTP_GRACE_SECONDS = 30;
export const TOTP_DIGITS = 6;
const KEY_BYTES = 20;
export const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'Signalements';

export const TWO_FACTOR_TEXT = {
  wrongCode: 'Code incorrect. Vérifiez l’heure de votre téléphone et réessayez.',
  wrongRecoveryCode: 'Code de secours incorrect ou déjà utilisé.',
  alreadyEnrolled: 'La double authentification est déjà activée pour ce compte.',
  notEnrolled: "La double authentification n'est pas activée pour ce compte.",
  badKey: 'Clé invalide. Recommencez l’activation.',
  userNotFound: 'Utilisateur introuvable.',
} as const;

async function keyOf(db: Database, userId: number): Promise<Uint8Array | null> {
  const [row] = await db.read
    .select({ key: db.t.twoFactorKeys.key })
    .from(db.t.twoFactorKeys)
    .where(eq(db.t.twoFactorKeys.userId, userId))
    .limit(1);
  // Stored encrypted with the data key, like the sources (docs/decisions/0017).
  return row ? decodeBase64(cipherOf(db).decrypt(row.key, 'two_factor_keys.key')) : null;
}

/** A new key to enrol with: base64 to send back with the first code, base32 to type, and the QR URI. */
export function newEnrolment(user: Pick<SessionUser, 'email' | 'twoFactorEnrolled'>) {
  if (user.twoFactorEnrolled) throw conflict(TWO_FACTOR_TEXT.alreadyEnrolled);
  const key = new Uint8Array(KEY_BYTES);
  crypto.getRandomValues(key);
  return {
    key: encodeBase64(key),
    secret: encodeBase32UpperCaseNoPadding(key),
    uri: createTOTPKeyURI(ISSUER, user.email, key, TOTP_PERIOD_SECONDS, TOTP_DIGITS),
  };
}

const normaliseRecoveryCode = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '');
const hashRecoveryCode = (code: string) =>
  encodeHexLowerCase(sha256(new TextEncoder().encode(normaliseRecoveryCode(code))));

function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = new Uint8Array(10);
    crypto.getRandomValues(bytes);
    return encodeBase32UpperCaseNoPadding(bytes).match(/.{4}/g)!.join('-');
  });
}

/**
 * Counts the attempt, then runs `check`. A right code gives the attempt back (as a right password
 * does) and is logged as a log-in; a wrong one leaves it counted, is logged as a failed log-in (never
 * the code) and answers 400 with `message`. An attempt refused by the limiter is logged too.
 */
async function counted(
  db: Database,
  user: Pick<SessionUser, 'id' | 'email'>,
  ip: string,
  message: string,
  step: { success: LoginStep; failure: LoginFailure },
  check: () => Promise<boolean>,
) {
  const failed = (motif: LoginFailure) => recordLoginFailure(db, { userId: user.id, email: user.email, address: ip, motif });
  try {
    await reserveAttempt(db, user.email, ip);
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'too_many_requests') await failed('trop_de_tentatives');
    throw error;
  }
  if (!(await check())) {
    await failed(step.failure);
    throw invalid(message);
  }
  await releaseAttempt(db, user.email, ip, 'success');
  await recordLogin(db, user, ip, step.success);
}

const TOTP_STEP = { success: 'double_authentification', failure: 'code_incorrect' } as const;
const RECOVERY_STEP = { success: 'code_de_secours', failure: 'code_de_secours_incorrect' } as const;

/**
 * Confirms an enrolment with a first code: stores the key, issues ten recovery codes (returned once,
 * kept hashed), marks this session verified and ends the user's other sessions.
 */
export async function confirmEnrolment(
  db: Database,
  auth: Auth,
  ip: string,
  input: { key: string; code: string },
): Promise<{ recoveryCodes: string[] }> {
  const { user, session } = auth;
  if (user.twoFactorEnrolled) throw conflict(TWO_FACTOR_TEXT.alreadyEnrolled);
  let key: Uint8Array;
  try {
    key = decodeBase64(input.key);
  } catch {
    throw invalid(TWO_FACTOR_TEXT.badKey);
  }
  if (key.length !== KEY_BYTES) throw invalid(TWO_FACTOR_TEXT.badKey);
  await counted(db, user, ip, TWO_FACTOR_TEXT.wrongCode, TOTP_STEP, async () =>
    verifyTOTPWithGracePeriod(key, TOTP_PERIOD_SECONDS, TOTP_DIGITS, input.code, TOTP_GRACE_SECONDS),
  );
  const recoveryCodes = newRecoveryCodes();
  const { twoFactorKeys, recoveryCodes: codes, sessions } = db.t;
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(twoFactorKeys)
      .values({ userId: user.id, key: cipherOf(db).encrypt(encodeBase64(key), 'two_factor_keys.key') })
      .onConflictDoNothing()
      .returning({ userId: twoFactorKeys.userId });
    if (inserted.length === 0) throw conflict(TWO_FACTOR_TEXT.alreadyEnrolled);
    await tx.delete(codes).where(eq(codes.userId, user.id));
    await tx.insert(codes).values(recoveryCodes.map((code) => ({ userId: user.id, codeHash: hashRecoveryCode(code) })));
    await tx.update(sessions).set({ twoFactorVerified: true }).where(eq(sessions.id, session.id));
    const others = await tx.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id));
    for (const { id } of others) if (id !== session.id) await tx.delete(sessions).where(eq(sessions.id, id));
  });
  return { recoveryCodes };
}

/** Second step of a log-in: a code of the authenticator app. */
export async function verifyTwoFactorCode(db: Database, auth: Auth, ip: string, code: string): Promise<void> {
  const key = await keyOf(db, auth.user.id);
  if (!key) throw conflict(TWO_FACTOR_TEXT.notEnrolled);
  await counted(db, auth.user, ip, TWO_FACTOR_TEXT.wrongCode, TOTP_STEP, async () =>
    verifyTOTPWithGracePeriod(key, TOTP_PERIOD_SECONDS, TOTP_DIGITS, code, TOTP_GRACE_SECONDS),
  );
  await setSessionTwoFactorVerified(db, auth.session.id);
}

/** Second step with a recovery code instead: each code works once. Returns how many are left. */
export async function useRecoveryCode(
  db: Database,
  auth: Auth,
  ip: string,
  code: string,
): Promise<{ remaining: number }> {
  if (!auth.user.twoFactorEnrolled) throw conflict(TWO_FACTOR_TEXT.notEnrolled);
  const { recoveryCodes: codes } = db.t;
  await counted(db, auth.user, ip, TWO_FACTOR_TEXT.wrongRecoveryCode, RECOVERY_STEP, async () => {
    // Spent in one conditional UPDATE: two simultaneous uses of the same code cannot both succeed.
    const spent = await db.transaction((tx) =>
      tx
        .update(codes)
        .set({ usedAt: new Date() })
        .where(
          and(eq(codes.userId, auth.user.id), eq(codes.codeHash, hashRecoveryCode(code)), isNull(codes.usedAt)),
        )
        .returning({ id: codes.id }),
    );
    return spent.length === 1;
  });
  await setSessionTwoFactorVerified(db, auth.session.id);
  const left = await db.read
    .select({ id: codes.id })
    .from(codes)
    .where(and(eq(codes.userId, auth.user.id), isNull(codes.usedAt)));
  return { remaining: left.length };
}

/**
 * An administrator removes a user's second factor (lost phone and codes): key and recovery codes
 * are deleted and every session of the user ends, so the next log-in starts a new enrolment when
 * one is required. Recorded in the access log and the server log (who, whom; no secret).
 */
export async function resetTwoFactor(
  db: Database,
  actor: SessionUser,
  code: string,
  log: FastifyBaseLogger,
): Promise<void> {
  requireAdmin(actor);
  const { utilisateurs, twoFactorKeys, recoveryCodes: codes, sessions } = db.t;
  const [target] = await db.read
    .select({ id: utilisateurs.id, code: utilisateurs.code })
    .from(utilisateurs)
    .where(eq(utilisateurs.code, code))
    .limit(1);
  if (!target) throw notFound(TWO_FACTOR_TEXT.userNotFound);
  const removed = await db.transaction(async (tx) => {
    const keys = await tx
      .delete(twoFactorKeys)
      .where(eq(twoFactorKeys.userId, target.id))
      .returning({ userId: twoFactorKeys.userId });
    await tx.delete(codes).where(eq(codes.userId, target.id));
    await tx.delete(sessions).where(eq(sessions.userId, target.id));
    const removed = keys.length > 0;
    await recordRightsChange(
      db,
      actor,
      { action: 'reinitialisation_2fa', utilisateur: target.code, avaitDeuxiemeFacteur: removed },
      tx,
    );
    return removed;
  });
  log.info(
    { event: 'two_factor_reset', by: actor.code, user: target.code, hadSecondFactor: removed },
    'double authentification réinitialisée par un administrateur',
  );
}
