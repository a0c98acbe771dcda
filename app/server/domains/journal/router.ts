import { alertIdSchema, journalListInputSchema } from '#shared/schemas/journal';
import { adminProcedure, router } from '#server/trpc/init';
import { listAlerts, listJournal, markAlertSeen } from './service';

/** The access log and its alerts: administrators only (the service checks again). */
export const journalRouter = router({
  list: adminProcedure
    .input(journalListInputSchema)
    .query(({ ctx, input }) => listJournal(ctx, ctx.auth.user, input)),
  alerts: adminProcedure.query(({ ctx }) => listAlerts(ctx.db, ctx.auth.user)),
  markAlertSeen: adminProcedure.input(alertIdSchema).mutation(async ({ ctx, input }) => {
    await markAlertSeen(ctx, ctx.auth.user, input.id);
    return { success: true };
  }),
});
