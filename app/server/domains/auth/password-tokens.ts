// Single-use links to choose a password (account set-up and reset). The link carries a 256-bit random
// token; the database keeps only its SHA-256, so a copy of the database does not open any account.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { PASSWORD_MIN_LENGTH, PASSWORD_TOKEN_TTL_HOURS } from '#shared/constants';
import { USER_MESSAGES } from '#shared/schemas/utilisateurs';
import type { Database } from '#server/db/client';
import { conflict, forbidden, invalid, notFound } from '#server/errors';
import { storePasswordHash } from '../utilisateurs/service';
import { hashPassword } from './password';
import { assertStrongPassword } from './password-strength';

export type PasswordTokenPurpose = 'setup' | 'reset';
export const PASSWORD_TOKEN_TTL_MS = PASSWORD_TOKEN_TTL_HOURS * 3600 * 1000;

export const TOKEN_MESSAGES = {
  invalid:
    "Ce lien n'est pas valide. Vérifiez qu'il a été copié en entier, ou demandez un nouveau lien à un administrateur.",
  expired: 'Ce lien a expiré. Demandez un nouveau lien à un administrateur.',
  used: 'Ce lien a déjà été utilisé ou a été remplacé par un lien plus récent. Demandez un nouveau lien à un administrateur si nécessaire.',
  disabled: 'Ce compte est désactivé. Contactez un administrateur.',
} as const;

export const hashPasswordToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A new link for the user; the user's earlier unused links stop working (marked used), so only the
 * latest e-mail opens the page. Joins the caller's transaction.
 */
export async function issuePasswordToken(
  db: Database,
  userId: number,
  purpose: PasswordTokenPurpose,
): Promise<{ token: string; expiresAt: Date }> {
  const pt = db.t.passwordTokens;
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  const expiresAt = new Date(now.getTime() + PASSWORD_TOKEN_TTL_MS);
  await db.transaction(async (tx) => {
    await tx
      .update(pt)
      .set({ usedAt: now })
      .where(and(eq(pt.userId, userId), isNull(pt.usedAt)));
    await tx.insert(pt).values({ tokenHash: hashPasswordToken(token), userId, purpose, expiresAt });
  });
  return { token, expiresAt };
}

export type PasswordTokenState =
  | { status: 'valid'; purpose: PasswordTokenPurpose; email: string; nomPrenom: string; expiresAt: string }
  | { status: 'invalid' | 'expired' | 'used' | 'disabled'; message: string };

/** What the set-up page shows for a link: the form, or why the link cannot be used. */
export async function inspectPasswordToken(db: Database, token: string): Promise<PasswordTokenState> {
  const { passwordTokens: pt, utilisateurs: u } = db.t;
  const [row] = await db.read
    .select({
      purpose: pt.purpose,
      expiresAt: pt.expiresAt,
      usedAt: pt.usedAt,
      email: u.email,
      nomPrenom: u.nomPrenom,
      isEnabled: u.isEnabled,
    })
    .from(pt)
    .innerJoin(u, eq(u.id, pt.userId))
    .where(eq(pt.tokenHash, hashPasswordToken(token)))
    .limit(1);
  if (!row) return { status: 'invalid', message: TOKEN_MESSAGES.invalid };
  if (row.usedAt) return { status: 'used', message: TOKEN_MESSAGES.used };
  if (row.expiresAt.getTime() <= Date.now()) return { status: 'expired', message: TOKEN_MESSAGES.expired };
  if (!row.isEnabled) return { status: 'disabled', message: TOKEN_MESSAGES.disabled };
  return {
    status: 'valid',
    purpose: row.purpose,
    email: row.email,
    nomPrenom: row.nomPrenom,
    expiresAt: row.expiresAt.toISOString(),
  };
}

function refusal(state: Exclude<PasswordTokenState, { status: 'valid' }>) {
  switch (state.status) {
    case 'invalid':
      return notFound(state.message);
    case 'disabled':
      return forbidden(state.message);
    default:
      return conflict(state.message);
  }
}

/**
 * Sets the password of the link's user and uses up the link. The link is claimed by a conditional
 * UPDATE, so two submissions of the same link cannot both succeed; every session of the user ends.
 */
export async function definePassword(db: Database, token: string, password: string): Promise<void> {
  if (password.length < PASSWORD_MIN_LENGTH) throw invalid(USER_MESSAGES.passwordMin);
  const state = await inspectPasswordToken(db, token);
  if (state.status !== 'valid') throw refusal(state);
  // After the link check: the estimator costs tens of milliseconds, only a link's holder may spend them.
  await assertStrongPassword(password, [state.email, state.nomPrenom]);
  // Hashed before the transaction: argon2 takes tens of milliseconds, the SQLite writer must not wait for it.
  const passwordHash = await hashPassword(password);
  const pt = db.t.passwordTokens;
  await db.transaction(async (tx) => {
    const now = new Date();
    const [claimed] = await tx
      .update(pt)
      .set({ usedAt: now })
      .where(and(eq(pt.tokenHash, hashPasswordToken(token)), isNull(pt.usedAt), gt(pt.expiresAt, now)))
      .returning({ userId: pt.userId });
    if (!claimed) throw conflict(TOKEN_MESSAGES.used);
    await storePasswordHash(db, claimed.userId, passwordHash);
  });
}
