import { z } from 'zod';
import { authedProcedure, router } from '#server/trpc/init';
import * as service from './service';

const code = z.string().trim().max(64);

export const referentielsRouter = router({
  subjects: authedProcedure.query(({ ctx }) => service.listSubjects(ctx.db)),
  canals: authedProcedure.query(({ ctx }) => service.listCanals(ctx.db)),
  niveaux: authedProcedure.query(({ ctx }) => service.listNiveaux(ctx.db)),
  statuts: authedProcedure.query(({ ctx }) => service.listStatuts(ctx.db)),
  resultats: authedProcedure.query(({ ctx }) => service.listResultats(ctx.db)),
  regions: authedProcedure.query(({ ctx }) => service.listRegions(ctx.db)),
  districts: authedProcedure
    .input(z.object({ region: code.optional() }))
    .query(({ ctx, input }) => service.listDistricts(ctx.db, input.region)),
  communes: authedProcedure
    .input(z.object({ district: code.optional() }))
    .query(({ ctx, input }) => service.listCommunes(ctx.db, input.district)),
});
