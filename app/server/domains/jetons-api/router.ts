// The « Accès API » screen's procedures (docs/decisions/0038-partner-api-tokens.md): administrators only.
import { jetonCreateSchema, jetonListSchema, jetonRevokeSchema } from '#shared/schemas/jetons-api';
import { adminProcedure, router } from '#server/trpc/init';
import { createJeton, listJetons, revokeJeton } from './service';

export const jetonsApiRouter = router({
  list: adminProcedure
    .input(jetonListSchema)
    .query(({ ctx, input }) => listJetons(ctx.db, ctx.auth.user, input)),
  create: adminProcedure
    .input(jetonCreateSchema)
    .mutation(({ ctx, input }) => createJeton(ctx, ctx.auth.user, input)),
  revoke: adminProcedure
    .input(jetonRevokeSchema)
    .mutation(({ ctx, input }) => revokeJeton(ctx, ctx.auth.user, input.id)),
});
