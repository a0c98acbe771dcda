import { z } from 'zod';
import { adminProcedure, router } from '../../trpc/init';
import { listFailedMails, retryMail } from './service';

export const mailIdSchema = z.coerce.number({ error: 'Identifiant invalide.' }).int().positive('Identifiant invalide.');

export const mailRouter = router({
  failed: adminProcedure.query(({ ctx }) => listFailedMails(ctx.db, ctx.auth.user)),
  retry: adminProcedure
    .input(z.object({ id: mailIdSchema }))
    .mutation(({ ctx, input }) => retryMail(ctx.db, ctx.auth.user, input.id)),
});
