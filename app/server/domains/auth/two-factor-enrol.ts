// Enrolment in two-factor log-in (docs/decisions/0016-two-factor.md). The server chooses the key and
// keeps it on the session until a first code confirms it: a client never sends a key. Confirming asks
// for the current password again, so an open session alone cannot enrol a factor of its choosing and
// lock the owner out.
import { encodeBase32UpperCaseNoPadding, encodeBase64, decodeBase64 } from '@oslojs/encoding';
import { createTOTPKeyURI } from '@oslojs/otp';
import { eq } from 'drizzle-orm';
import { cipherOf, type Auth, type Services } from '#server/context';
import { conflict, DomainError, invalid } from '#server/errors';
import { clientKeyOf } from '#server/http/network';
import { recordLoginFailure } from '../journal/record';
import { hashGate, isBusy, verifyPassword } from './password';
import { releaseAttempt, reserveAttempt } from './throttle';
import {
  counted,
  hashRecoveryCode,
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  TOTP_STEP,
  totpStepOf,
  TWO_FACTOR_TEXT,
} from './two-factor';

const KEY_BYTES = 20;
const ISSUER = 'Signalements';
const PENDING = 'sessions.two_factor_pending_key';

/**
 * A new key for the enrolment screen, kept (encrypted) on this session, replacing any earlier one:
 * base32 to type and the QR URI to scan. Nothing is stored for the user until a code confirms it.
 */
export async function newEnrolment(ctx: Services, auth: Auth): Promise<{ secret: string; uri: string }> {
  const { db } = ctx;
  if (auth.user.twoFactorEnrolled) throw conflict(TWO_FACTOR_TEXT.alreadyEnrolled);
  const key = new Uint8Array(KEY_BYTES);
  crypto.getRandomValues(key);
  const { sessions } = db.t;
  await db.transaction((tx) =>
    tx
      .update(sessions)
      .set({ twoFactorPendingKey: cipherOf(ctx).encrypt(encodeBase64(key), PENDING) })
      .where(eq(sessions.id, auth.session.id)),
  );
  return {
    secret: encodeBase32UpperCaseNoPadding(key),
    uri: createTOTPKeyURI(ISSUER, auth.user.email, key, TOTP_PERIOD_SECONDS, TOTP_DIGITS),
  };
}

async function pendingKey(ctx: Services, sessionId: string): Promise<Uint8Array> {
  const { db } = ctx;
  const { sessions } = db.t;
  const [row] = await db.read
    .select({ key: sessions.twoFactorPendingKey })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1);
  if (!row?.key) throw invalid(TWO_FACTOR_TEXT.noPendingKey);
  try {
    return decodeBase64(cipherOf(ctx).decrypt(row.key, PENDING));
  } catch {
    // Written under a data key since rotated: the person scans a new one.
    throw invalid(TWO_FACTOR_TEXT.noPendingKey);
  }
}

/**
 * The current password, checked like a log-in: a place in the hashing gate, an attempt reserved for
 * the account and the address before the check and given back when right. A wrong one answers 400
 * (not 401: the session stays open) and is logged as a failed log-in.
 */
async function checkPassword(ctx: Services, auth: Auth, ip: string, password: string): Promise<void> {
  const { db } = ctx;
  const { email, id } = auth.user;
  const place = hashGate.admit(clientKeyOf(ip));
  try {
    try {
      await reserveAttempt(db, email, ip);
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'too_many_requests') {
        await recordLoginFailure(ctx, { userId: id, email, address: ip, motif: 'trop_de_tentatives' });
      }
      throw error;
    }
    const u = db.t.utilisateurs;
    const [row] = await db.read.select({ hash: u.passwordHash }).from(u).where(eq(u.id, id)).limit(1);
    let valid: boolean;
    try {
      valid = row?.hash ? await verifyPassword(row.hash, password, clientKeyOf(ip)) : false;
    } catch (error) {
      if (isBusy(error)) await releaseAttempt(db, email, ip, 'unchecked');
      throw error;
    }
    if (!valid) {
      await recordLoginFailure(ctx, { userId: id, email, address: ip, motif: 'mot_de_passe_incorrect' });
      throw invalid(TWO_FACTOR_TEXT.wrongPassword);
    }
    await releaseAttempt(db, email, ip, 'success');
  } finally {
    place.release();
  }
}

function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = new Uint8Array(10);
    crypto.getRandomValues(bytes);
    return encodeBase32UpperCaseNoPadding(bytes).match(/.{4}/g)!.join('-');
  });
}

/**
 * Confirms an enrolment with the current password and a first code of the session's pending key:
 * stores the key (its step spent), issues ten recovery codes (returned once, kept hashed), marks this
 * session verified and ends the user's other sessions.
 */
export async function confirmEnrolment(
  ctx: Services,
  auth: Auth,
  ip: string,
  input: { password: string; code: string },
): Promise<{ recoveryCodes: string[] }> {
  const { db } = ctx;
  const { user, session } = auth;
  if (user.twoFactorEnrolled) throw conflict(TWO_FACTOR_TEXT.alreadyEnrolled);
  const key = await pendingKey(ctx, session.id);
  await checkPassword(ctx, auth, ip, input.password);
  let step: number | null = null;
  await counted(ctx, user, ip, TWO_FACTOR_TEXT.wrongCode, TOTP_STEP, async () => {
    step = totpStepOf(key, input.code);
    return step !== null;
  });
  const recoveryCodes = newRecoveryCodes();
  const { twoFactorKeys, recoveryCodes: codes, sessions } = db.t;
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(twoFactorKeys)
      .values({
        userId: user.id,
        key: cipherOf(ctx).encrypt(encodeBase64(key), 'two_factor_keys.key'),
        lastUsedStep: step,
      })
      .onConflictDoNothing()
      .returning({ userId: twoFactorKeys.userId });
    if (inserted.length === 0) throw conflict(TWO_FACTOR_TEXT.alreadyEnrolled);
    await tx.delete(codes).where(eq(codes.userId, user.id));
    await tx
      .insert(codes)
      .values(recoveryCodes.map((code) => ({ userId: user.id, codeHash: hashRecoveryCode(code) })));
    await tx
      .update(sessions)
      .set({ twoFactorVerified: true, twoFactorPendingKey: null })
      .where(eq(sessions.id, session.id));
    const others = await tx.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id));
    for (const { id } of others) if (id !== session.id) await tx.delete(sessions).where(eq(sessions.id, id));
  });
  return { recoveryCodes };
}
