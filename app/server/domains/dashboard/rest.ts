import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  canalCountsSchema,
  keyMetricsSchema,
  localisationCountsSchema,
  myCasesSchema,
  niveauCountsSchema,
  perDaySchema,
  resultatCountsSchema,
  subjectCountsSchema,
} from '#shared/dto/schemas';
import type { Database } from '#server/db/client';
import { operation } from '#server/http/api-doc/operation';
import { myCases } from './my-cases';
import { dateRangeSchema, localisationInputSchema } from './schema';
import { keyMetrics, perCanal, perDay, perLocalisation, perNiveau, perResultat, perSubject } from './service';

const staffRead = (summary: string, schema: z.ZodType, query: z.ZodType | undefined = dateRangeSchema) =>
  operation({
    summary,
    access: 'staff',
    ...(query ? { query } : {}),
    responses: { 200: { description: 'Les chiffres demandés.', schema } },
  });

/** The dashboard calls of spec §7, answering the plain JSON shapes of §3. A session is required (app.ts). */
export function dashboardRoutes(app: FastifyInstance, db: Database) {
  const range = (query: unknown) => dateRangeSchema.parse(query ?? {});

  app.get(
    '/api/dashboard/key-metrics',
    staffRead('Chiffres clés : total, traités, en cours, clôturés, sur la période.', keyMetricsSchema),
    (request) => keyMetrics(db, range(request.query)),
  );
  app.get(
    '/api/dashboard/mes-dossiers',
    staffRead(
      'Mes dossiers : ouverts et en retard (et, pour un administrateur, non assignés).',
      myCasesSchema,
      undefined,
    ),
    (request) => myCases(app.ctx, request.auth!.user),
  );
  app.get(
    '/api/dashboard/count-per-localisation',
    staffRead(
      'Nombre de signalements par région, district ou commune.',
      localisationCountsSchema,
      localisationInputSchema,
    ),
    (request) => {
      const input = localisationInputSchema.parse(request.query ?? {});
      return perLocalisation(db, input.type, input);
    },
  );
  app.get(
    '/api/dashboard/count-per-canal-principal',
    staffRead('Nombre de signalements par canal principal.', canalCountsSchema),
    (request) => perCanal(db, range(request.query)),
  );
  app.get(
    '/api/dashboard/signalement-per-jour',
    staffRead('Nombre de signalements par jour (jours du calendrier de l’application).', perDaySchema),
    (request) => perDay(app.ctx, range(request.query)),
  );
  app.get(
    '/api/dashboard/count-per-subject',
    staffRead('Nombre de signalements par objet.', subjectCountsSchema),
    (request) => perSubject(db, range(request.query)),
  );
  app.get(
    '/api/dashboard/count-per-niveau',
    staffRead('Nombre de signalements par niveau.', niveauCountsSchema),
    (request) => perNiveau(db, range(request.query)),
  );
  app.get(
    '/api/dashboard/count-per-resultat',
    staffRead('Nombre de signalements par résultat.', resultatCountsSchema),
    (request) => perResultat(db, range(request.query)),
  );
}
