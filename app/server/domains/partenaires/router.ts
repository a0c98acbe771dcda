import { z } from 'zod';
import {
  listPartenairesInputSchema,
  partenaireCodeSchema,
  partenaireInputSchema,
  partenaireUpdateInputSchema,
} from '#shared/schemas/partenaires';
import { adminProcedure, authedProcedure, router } from '#server/trpc/init';
import {
  createPartenaire,
  deletePartenaire,
  getPartenaire,
  listPartenaires,
  updatePartenaire,
} from './service';
import { trpcIdempotent } from '../idempotency/doors';
import { storedAnswer } from '../idempotency/service';

const byCode = z.object({ code: partenaireCodeSchema });

export const partenairesRouter = router({
  list: authedProcedure
    .input(listPartenairesInputSchema)
    .query(({ ctx, input }) => listPartenaires(ctx.db, ctx.auth.user, input)),
  get: authedProcedure
    .input(byCode)
    .query(({ ctx, input }) => getPartenaire(ctx.db, ctx.auth.user, input.code)),
  create: adminProcedure
    .input(partenaireInputSchema)
    .mutation(({ ctx, input }) =>
      trpcIdempotent(
        ctx,
        'partenaires.create',
        input,
        () => createPartenaire(ctx.db, ctx.auth.user, input),
        storedAnswer,
      ),
    ),
  update: adminProcedure
    .input(partenaireUpdateInputSchema)
    .mutation(({ ctx, input: { code, ...data } }) => updatePartenaire(ctx.db, ctx.auth.user, code, data)),
  delete: adminProcedure.input(byCode).mutation(async ({ ctx, input }) => {
    await deletePartenaire(ctx.db, ctx.auth.user, input.code);
    return { success: true };
  }),
});
