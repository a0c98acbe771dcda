// The tRPC door of the internal notes: input schema, one service call (docs/decisions/0029-internal-notes.md).
import { noteCodeSchema, noteCreateSchema, noteUpdateSchema, notesListSchema } from '#shared/schemas/notes';
import { authedProcedure, router } from '#server/trpc/init';
import { trpcIdempotent } from '../idempotency/doors';
import * as service from './service';

export const notesRouter = router({
  list: authedProcedure
    .input(notesListSchema)
    .query(({ ctx, input }) => service.listNotes(ctx, ctx.auth.user, input.signalement)),
  create: authedProcedure.input(noteCreateSchema).mutation(({ ctx, input }) =>
    trpcIdempotent(
      ctx,
      'notes.create',
      input,
      () => service.createNote(ctx, ctx.auth.user, input),
      (stored) => service.rereadNote(ctx, ctx.auth.user, stored),
    ),
  ),
  update: authedProcedure
    .input(noteUpdateSchema)
    .mutation(({ ctx, input }) => service.updateNote(ctx, ctx.auth.user, input.code, input)),
  delete: authedProcedure.input(noteCodeSchema).mutation(async ({ ctx, input }) => {
    await service.deleteNote(ctx, ctx.auth.user, input.code);
    return { success: true as const };
  }),
});
