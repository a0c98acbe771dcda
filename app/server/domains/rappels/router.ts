// The tRPC door of a staff member's own preferences (docs/decisions/0036-daily-reminders.md).
import { preferencesPatchSchema } from '#shared/schemas/preferences';
import { authedProcedure, router } from '#server/trpc/init';
import { getPreferences, updatePreferences } from './preferences';

export const preferencesRouter = router({
  get: authedProcedure.query(({ ctx }) => getPreferences(ctx, ctx.auth.user)),
  update: authedProcedure
    .input(preferencesPatchSchema)
    .mutation(({ ctx, input }) => updatePreferences(ctx, ctx.auth.user, input)),
});
