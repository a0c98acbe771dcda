import { z } from 'zod';
import { adminProcedure, router } from '#server/trpc/init';
import { listFailedMails, retryMail } from './service';

// At most PostgreSQL's integer: a larger id is refused there (a 500) while SQLite just finds nothing.
export const mailIdSchema = z.coerce
  .number({ error: 'Identifiant invalide.' })
  .int('Identifiant invalide.')
  .positive('Identifiant invalide.')
  .max(2_147_483_647, 'Identifiant invalide.');

export const mailRouter = router({
  failed: adminProcedure.query(({ ctx }) => listFailedMails(ctx.db, ctx.auth.user)),
  retry: adminProcedure
    .input(z.object({ id: mailIdSchema }))
    .mutation(({ ctx, input }) => retryMail(ctx.db, ctx.auth.user, input.id)),
});
