import { z } from 'zod';
import {
  auteurCreateSchema,
  auteurSchema,
  sourceCreateSchema,
  sourceSchema,
  victimeCreateSchema,
  victimeSchema,
} from '#shared/schemas/signalements';
import { authedProcedure, router } from '#server/trpc/init';
import * as service from './service';
import { trpcIdempotent } from '../idempotency/doors';

const code = z.string().trim().min(1).max(64);
const bySignalement = z.object({ signalement: code });
const byCode = z.object({ code });

export const auteursRouter = router({
  list: authedProcedure
    .input(bySignalement)
    .query(({ ctx, input }) => service.listAuteurs(ctx, ctx.auth.user, input.signalement)),
  create: authedProcedure.input(auteurCreateSchema).mutation(({ ctx, input }) =>
    trpcIdempotent(
      ctx,
      'auteurs.create',
      input,
      () => service.createAuteur(ctx, ctx.auth.user, input),
      (stored) => service.rereadAuteur(ctx, ctx.auth.user, stored),
    ),
  ),
  update: authedProcedure
    .input(byCode.extend({ data: auteurSchema }))
    .mutation(({ ctx, input }) => service.updateAuteur(ctx, ctx.auth.user, input.code, input.data)),
  delete: authedProcedure.input(byCode).mutation(async ({ ctx, input }) => {
    await service.deletePerson(ctx, ctx.auth.user, 'auteur', input.code);
    return { success: true as const };
  }),
});

export const sourcesRouter = router({
  list: authedProcedure
    .input(bySignalement)
    .query(({ ctx, input }) => service.listSources(ctx, ctx.auth.user, input.signalement)),
  create: authedProcedure.input(sourceCreateSchema).mutation(({ ctx, input }) =>
    trpcIdempotent(
      ctx,
      'sources.create',
      input,
      () => service.createSource(ctx, ctx.auth.user, input),
      (stored) => service.rereadSource(ctx, ctx.auth.user, stored),
    ),
  ),
  update: authedProcedure
    .input(byCode.extend({ data: sourceSchema }))
    .mutation(({ ctx, input }) => service.updateSource(ctx, ctx.auth.user, input.code, input.data)),
  delete: authedProcedure.input(byCode).mutation(async ({ ctx, input }) => {
    await service.deletePerson(ctx, ctx.auth.user, 'source', input.code);
    return { success: true as const };
  }),
});

export const victimesRouter = router({
  list: authedProcedure
    .input(bySignalement)
    .query(({ ctx, input }) => service.listVictimes(ctx, ctx.auth.user, input.signalement)),
  create: authedProcedure.input(victimeCreateSchema).mutation(({ ctx, input }) =>
    trpcIdempotent(
      ctx,
      'victimes.create',
      input,
      () => service.createVictime(ctx, ctx.auth.user, input),
      (stored) => service.rereadVictime(ctx, ctx.auth.user, stored),
    ),
  ),
  update: authedProcedure
    .input(byCode.extend({ data: victimeSchema }))
    .mutation(({ ctx, input }) => service.updateVictime(ctx, ctx.auth.user, input.code, input.data)),
  delete: authedProcedure.input(byCode).mutation(async ({ ctx, input }) => {
    await service.deletePerson(ctx, ctx.auth.user, 'victime', input.code);
    return { success: true as const };
  }),
});
