// The tRPC door of the evidence files: their list and their deletion (upload and download are binary, REST
// only: rest.ts; docs/decisions/0033-evidence-files.md).
import { evidenceCodeSchema, evidenceListSchema } from '#shared/schemas/evidence';
import { authedProcedure, router } from '#server/trpc/init';
import * as service from './service';

export const evidenceRouter = router({
  list: authedProcedure
    .input(evidenceListSchema)
    .query(({ ctx, input }) => service.listEvidence(ctx, ctx.auth.user, input.signalement)),
  delete: authedProcedure.input(evidenceCodeSchema).mutation(async ({ ctx, input }) => {
    await service.deleteEvidence(ctx, ctx.auth.user, input.code);
    return { success: true as const };
  }),
});
