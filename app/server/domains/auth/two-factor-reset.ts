// Reset of a user's second factor by an administrator (lost phone and codes),
// docs/decisions/0016-two-factor.md.
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '#server/context';
import { notFound } from '#server/errors';
import { recordRightsChange } from '../journal/record';
import { enqueueMail } from '../mail/outbox';
import { requireAdmin } from './guards';
import type { SessionUser } from './session';
import { TWO_FACTOR_TEXT } from './two-factor';
import { twoFactorResetMail } from './two-factor-mail';

/**
 * Key and recovery codes are deleted and every session of the user ends, so the next log-in starts a
 * new enrolment when one is required. Recorded in the access log and the server log (who, whom; no
 * secret); the user is told by e-mail in the same transaction, so a reset nobody asked for is noticed.
 */
export async function resetTwoFactor(
  ctx: Pick<AppContext, 'db' | 'calendar' | 'clock'>,
  actor: SessionUser,
  code: string,
  log: FastifyBaseLogger,
): Promise<void> {
  requireAdmin(actor);
  const { db, calendar } = ctx;
  const now = ctx.clock.now();
  const { utilisateurs, twoFactorKeys, recoveryCodes: codes, sessions } = db.t;
  const [target] = await db.read
    .select({
      id: utilisateurs.id,
      code: utilisateurs.code,
      email: utilisateurs.email,
      nomPrenom: utilisateurs.nomPrenom,
    })
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
      ctx,
      actor,
      { action: 'reinitialisation_2fa', utilisateur: target.code, avaitDeuxiemeFacteur: removed },
      tx,
    );
    await enqueueMail(
      db,
      twoFactorResetMail({
        to: target.email,
        nomPrenom: target.nomPrenom,
        by: actor.nomPrenom,
        at: now,
        calendar,
      }),
    );
    return removed;
  });
  log.info(
    { event: 'two_factor_reset', by: actor.code, user: target.code, hadSecondFactor: removed },
    'double authentification réinitialisée par un administrateur',
  );
}
