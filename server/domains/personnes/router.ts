import { z } from 'zod';
import {
  auteurCreateSchema,
  auteurSchema,
  sourceCreateSchema,
  sourceSchema,
  victimeCreateSchema,
  victimeSchema,
} from '../../../shared/schemas/signalements';
import { authedProcedure, router } from '../../trpc/init';
import * as service from './service';
import { trpcIdempotent } from '../idempotency/doors';

const code = z.string().trim().min(1).max(64);
const bySignalement = z.object({ signalement: code });
const byCode = z.object({ code });

export const auteursRouter = router({
  list: authedProcedure
    .input(bySignalement)
    .query(({ ctx, input }) => service.listAuteurs(ctx.db, ctx.auth.user, input.signalement)),
  create: authedProcedure.input(auteurCreateSchema).mutation(({ ctx, input }) =>
    trpcIdempotent(
      ctx,
      'auteurs.create',
      input,
      () => service.createAuteur(ctx.db, ctx.auth.user, input),
      (stored) => service.rereadAuteur(ctx.db, ctx.auth.user, stored),
    ),
  ),
  update: authedProcedure
    .input(byCode.extend({ data: auteurSchema }))
    .mutation(({ ctx, input }) => service.updateAuteur(ctx.db, ctx.auth.user, input.code, input.data)),
  delete: authedProcedure.input(byCode).mutation(async ({ ctx, input }) => {
    await service.deletePerson(ctx.db, ctx.auth.user, 'auteur', input.code);
    return { success: true as const };
  }),
});

export const sourcesRouter = router({
  list: authedProcedure
    .input(bySignalement)
    .query(({ ctx, input }) => service.listSources(ctx.db, ctx.auth.user, input.signalement)),
  create: authedProcedure.input(sourceCreateSchema).mutation(({ ctx, input }) =>
    trpcIdempotent(
      ctx,
      'sources.create',
      input,
      () => service.createSource(ctx.db, ctx.auth.user, input),
      (stored) => service.rereadSource(ctx.db, ctx.auth.user, stored),
    ),
  ),
  update: authedProcedure
    .input(byCode.extend({ data: sourceSchema }))
    .mutation(({ ctx, input }) => service.updateSource(ctx.db, ctx.auth.user, input.code, input.data)),
  delete: authedProcedure.input(byCode).mutation(async ({ ctx, input }) => {
    await service.deletePerson(ctx.db, ctx.auth.user, 'source', input.code);
    return { success: true as const };
  }),
});

export const victimesRouter = router({
  list: authedProcedure
    .input(bySignalement)
    .query(({ ctx, input }) => service.listVictimes(ctx.db, ctx.auth.user, input.signalement)),
  create: authedProcedure.input(victimeCreateSchema).mutation(({ ctx, input }) =>
    trpcIdempotent(
      ctx,
      'victimes.create',
      input,
      () => service.createVictime(ctx.db, ctx.auth.user, input),
      (stored) => service.rereadVictime(ctx.db, ctx.auth.user, stored),
    ),
  ),
  update: authedProcedure
    .input(byCode.extend({ data: victimeSchema }))
    .mutation(({ ctx, input }) => service.updateVictime(ctx.db, ctx.auth.user, input.code, input.data)),
  delete: authedProcedure.input(byCode).mutation(async ({ ctx, input }) => {
    await service.deletePerson(ctx.db, ctx.auth.user, 'victime', input.code);
    return { success: true as const };
  }),
});
