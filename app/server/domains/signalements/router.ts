import { z } from 'zod';
import {
  assignSchema,
  bulkActionInputSchema,
  bulkPreviewSchema,
  expectedVersionSchema,
  localisationSchema,
  notifyPartnerSchema,
  signalementCreateSchema,
  signalementListSchema,
  signalementPatchSchema,
} from '#shared/schemas/signalements';
import { authedProcedure, publicProcedure, router } from '#server/trpc/init';
import { assign, listAssignees, unassign } from './assignees';
import { previewBulk, runBulk } from './bulk';
import { listHistorique } from './history';
import { defaultMailContent, notifyPartner } from './partner-mail';
import { getImpression } from './print';
import { getResume } from './resume';
import * as service from './service';
import { trpcIdempotent } from '../idempotency/doors';
import { storedAnswer } from '../idempotency/service';
import { runReadTask } from './tasks/read-tasks';

const byCode = z.object({ code: z.string().trim().min(1).max(64) });

export const signalementsRouter = router({
  // Built on a thread of their own when the server has some (server/domains/signalements/tasks/read-tasks.ts).
  list: authedProcedure
    .input(signalementListSchema)
    .query(({ ctx, input }) => runReadTask(ctx, 'signalements.list', ctx.auth.user, input)),
  get: authedProcedure
    .input(byCode)
    .query(({ ctx, input }) => runReadTask(ctx, 'signalements.get', ctx.auth.user, input.code)),
  create: authedProcedure.input(signalementCreateSchema).mutation(({ ctx, input }) =>
    trpcIdempotent(
      ctx,
      'signalements.create',
      input,
      // The answer is the code: a report's id stays inside the server.
      async () => ({ code: (await service.createSignalement(ctx, ctx.auth.user, input)).code }),
      storedAnswer,
    ),
  ),
  // A plain object (code, patch, expectedVersion) that a client's outbox can store and send again as is.
  update: authedProcedure
    .input(byCode.extend({ patch: signalementPatchSchema, expectedVersion: expectedVersionSchema }))
    .mutation(({ ctx, input }) =>
      service.patchSignalement(ctx, ctx.auth.user, input.code, input.patch, input.expectedVersion),
    ),
  localisation: authedProcedure
    .input(byCode)
    .query(({ ctx, input }) => service.getLocalisation(ctx.db, input.code)),
  updateLocalisation: authedProcedure
    .input(localisationSchema.extend({ ...byCode.shape, expectedVersion: expectedVersionSchema }))
    .mutation(({ ctx, input }) => {
      const { code, expectedVersion, ...localisation } = input;
      return service.updateLocalisation(ctx, ctx.auth.user, code, localisation, expectedVersion);
    }),
  historique: authedProcedure
    .input(byCode)
    .query(({ ctx, input }) => listHistorique(ctx, ctx.auth.user, input.code)),
  // The print view (docs/decisions/0043-print-view.md): the report, its people as the reader may see them, logged.
  impression: authedProcedure
    .input(byCode.extend({ historique: z.boolean().default(false), notes: z.boolean().default(false) }))
    .query(({ ctx, input }) =>
      getImpression(ctx, ctx.auth.user, input.code, { historique: input.historique, notes: input.notes }),
    ),
  defaultMailContent: authedProcedure
    .input(byCode)
    .query(({ ctx, input }) => defaultMailContent(ctx, ctx.auth.user, input.code)),
  notifyPartner: authedProcedure
    .input(notifyPartnerSchema.extend(byCode.shape))
    .mutation(({ ctx, input }) => notifyPartner(ctx, ctx.auth.user, input.code, input)),
  assignees: authedProcedure.input(byCode).query(({ ctx, input }) => listAssignees(ctx.db, input.code)),
  assign: authedProcedure
    .input(assignSchema.extend(byCode.shape))
    .mutation(({ ctx, input }) => assign(ctx, ctx.auth.user, input.code, input.utilisateur)),
  unassign: authedProcedure.input(assignSchema.extend(byCode.shape)).mutation(async ({ ctx, input }) => {
    await unassign(ctx, ctx.auth.user, input.code, input.utilisateur);
    return { success: true as const };
  }),
  // Bulk actions (docs/decisions/0035-bulk-actions.md). The preview is a mutation only because its input
  // (up to 10,000 codes) does not fit a query string; it writes nothing.
  bulkPreview: authedProcedure
    .input(bulkPreviewSchema)
    .mutation(({ ctx, input }) => previewBulk(ctx, ctx.auth.user, input)),
  bulk: authedProcedure
    .input(bulkActionInputSchema)
    .mutation(({ ctx, input }) => runBulk(ctx, ctx.auth.user, input)),
  resume: publicProcedure
    .meta({ publicLookup: true })
    .input(byCode)
    .query(({ ctx, input }) => getResume(ctx, input.code)),
});
