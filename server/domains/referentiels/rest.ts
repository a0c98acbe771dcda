import type { FastifyInstance } from 'fastify';
import type { Database } from '#server/db/client';
import { collection, parseQuery } from '#server/http/jsonld';
import * as service from './service';

type Query = Record<string, unknown>;
const text = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** §7 reference lists. They are small (at most 1,579 communes), so they are returned whole. */
export function referentielsRoutes(app: FastifyInstance, db: Database) {
  const lists: Record<string, { type: string; load: (q: Query) => Promise<unknown[]> }> = {
    subjects: { type: 'Subject', load: () => service.listSubjects(db) },
    canals: { type: 'Canal', load: () => service.listCanals(db) },
    niveaux: { type: 'Niveau', load: () => service.listNiveaux(db) },
    statuts: { type: 'Statut', load: () => service.listStatuts(db) },
    resultats: { type: 'Resultat', load: () => service.listResultats(db) },
    regions: { type: 'Region', load: () => service.listRegions(db) },
    districts: {
      type: 'District',
      load: (q) => service.listDistricts(db, text((q.region as Query | undefined)?.code ?? q['region.code'])),
    },
    communes: {
      type: 'Commune',
      load: (q) =>
        service.listCommunes(db, text((q.district as Query | undefined)?.code ?? q['district.code'])),
    },
  };
  for (const [name, { type, load }] of Object.entries(lists)) {
    app.get(`/api/${name}`, async (request) => {
      const items = await load(parseQuery(request.query as Query));
      return collection(type, request.url, items, items.length);
    });
  }
}
