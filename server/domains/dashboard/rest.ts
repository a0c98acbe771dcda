import type { FastifyInstance } from 'fastify';
import type { Database } from '#server/db/client';
import { myCases } from './my-cases';
import { dateRangeSchema, localisationInputSchema } from './schema';
import { keyMetrics, perCanal, perDay, perLocalisation, perNiveau, perResultat, perSubject } from './service';

/** The dashboard calls of spec §7, answering the plain JSON shapes of §3. A session is required (app.ts). */
export function dashboardRoutes(app: FastifyInstance, db: Database) {
  const range = (query: unknown) => dateRangeSchema.parse(query ?? {});

  app.get('/api/dashboard/key-metrics', (request) => keyMetrics(db, range(request.query)));
  app.get('/api/dashboard/mes-dossiers', (request) => myCases(app.ctx, request.auth!.user));
  app.get('/api/dashboard/count-per-localisation', (request) => {
    const input = localisationInputSchema.parse(request.query ?? {});
    return perLocalisation(db, input.type, input);
  });
  app.get('/api/dashboard/count-per-canal-principal', (request) => perCanal(db, range(request.query)));
  app.get('/api/dashboard/signalement-per-jour', (request) => perDay(app.ctx, range(request.query)));
  app.get('/api/dashboard/count-per-subject', (request) => perSubject(db, range(request.query)));
  app.get('/api/dashboard/count-per-niveau', (request) => perNiveau(db, range(request.query)));
  app.get('/api/dashboard/count-per-resultat', (request) => perResultat(db, range(request.query)));
}
