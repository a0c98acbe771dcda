// The tRPC door of the handling deadlines (docs/decisions/0032-deadlines.md).
import { delaisUpdateSchema } from '#shared/schemas/delais';
import { adminProcedure, authedProcedure, router } from '#server/trpc/init';
import { listDelais, updateDelais } from './service';

export const delaisRouter = router({
  list: authedProcedure.query(({ ctx }) => listDelais(ctx.db)),
  update: adminProcedure
    .input(delaisUpdateSchema)
    .mutation(({ ctx, input }) => updateDelais(ctx, ctx.auth.user, input)),
});
