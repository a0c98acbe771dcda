// The tRPC door of the saved filters « Mes filtres » (docs/decisions/0046-saved-filters.md): input schema,
// one service call. No REST door: partners' systems read the list by its own filters, not by a user's names.
import { filtreCreateSchema, filtreIdSchema, filtreRenameSchema } from '#shared/schemas/filtres';
import { authedProcedure, router } from '#server/trpc/init';
import * as service from './service';

export const filtresRouter = router({
  list: authedProcedure.query(({ ctx }) => service.listFiltres(ctx, ctx.auth.user)),
  create: authedProcedure
    .input(filtreCreateSchema)
    .mutation(({ ctx, input }) => service.createFiltre(ctx, ctx.auth.user, input)),
  rename: authedProcedure
    .input(filtreRenameSchema)
    .mutation(({ ctx, input }) => service.renameFiltre(ctx, ctx.auth.user, input)),
  delete: authedProcedure.input(filtreIdSchema).mutation(async ({ ctx, input }) => {
    await service.deleteFiltre(ctx, ctx.auth.user, input.id);
    return { success: true as const };
  }),
});
