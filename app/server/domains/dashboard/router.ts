import { authedProcedure, router } from '#server/trpc/init';
import { mapStyleConfig } from './map-style';
import { myCases } from './my-cases';
import {
  overviewDistribution,
  overviewPerDay,
  overviewSeries,
  overviewSummary,
  overviewTop,
} from './overview';
import {
  dateRangeSchema,
  distributionInputSchema,
  localisationInputSchema,
  periodInputSchema,
} from './schema';
import { keyMetrics, perCanal, perDay, perLocalisation, perNiveau, perResultat, perSubject } from './service';

const range = dateRangeSchema.optional();

/** The dashboard's data for the client: the seven calls of spec §7, the map style and the period analysis. */
export const dashboardRouter = router({
  keyMetrics: authedProcedure.input(range).query(({ ctx, input }) => keyMetrics(ctx.db, input)),
  myCases: authedProcedure.query(({ ctx }) => myCases(ctx, ctx.auth.user)),
  perLocalisation: authedProcedure
    .input(localisationInputSchema)
    .query(({ ctx, input }) => perLocalisation(ctx.db, input.type, input)),
  perCanal: authedProcedure.input(range).query(({ ctx, input }) => perCanal(ctx.db, input)),
  perDay: authedProcedure.input(range).query(({ ctx, input }) => perDay(ctx, input)),
  perSubject: authedProcedure.input(range).query(({ ctx, input }) => perSubject(ctx.db, input)),
  perNiveau: authedProcedure.input(range).query(({ ctx, input }) => perNiveau(ctx.db, input)),
  perResultat: authedProcedure.input(range).query(({ ctx, input }) => perResultat(ctx.db, input)),
  mapStyle: authedProcedure.query(({ ctx }) => mapStyleConfig(ctx.config)),
  overview: router({
    summary: authedProcedure
      .input(periodInputSchema)
      .query(({ ctx, input }) => overviewSummary(ctx, input.period)),
    series: authedProcedure
      .input(periodInputSchema)
      .query(({ ctx, input }) => overviewSeries(ctx, input.period)),
    distribution: authedProcedure
      .input(distributionInputSchema)
      .query(({ ctx, input }) => overviewDistribution(ctx, input.period, input.dimension)),
    top: authedProcedure.input(periodInputSchema).query(({ ctx, input }) => overviewTop(ctx, input.period)),
    perDay: authedProcedure
      .input(periodInputSchema)
      .query(({ ctx, input }) => overviewPerDay(ctx, input.period)),
  }),
});
