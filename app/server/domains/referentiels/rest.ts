import type { FastifyInstance } from 'fastify';
import type { Database } from '#server/db/client';
import { z } from 'zod';
import {
  canalDtoSchema,
  communeDtoSchema,
  districtDtoSchema,
  niveauDtoSchema,
  regionDtoSchema,
  resultatDtoSchema,
  statutDtoSchema,
  subjectDtoSchema,
} from '#shared/dto/schemas';
import { operation } from '#server/http/api-doc/operation';
import { collectionSchema } from '#server/http/api-doc/schemas';
import { collection, parseQuery } from '#server/http/jsonld';
import * as service from './service';

type Query = Record<string, unknown>;
/** What the handler reads of the query, for the documents: `parent[code]=X` or `parent.code=X`. */
const placeFilter = (parent: string) =>
  z.object({
    [parent]: z.object({ code: z.string().optional() }).optional(),
    [`${parent}.code`]: z.string().optional(),
  });
const text = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** §7 reference lists. They are small (at most 1,579 communes), so they are returned whole. */
export function referentielsRoutes(app: FastifyInstance, db: Database) {
  const lists: Record<
    string,
    {
      type: string;
      label: string;
      member: z.ZodType;
      query?: z.ZodType;
      load: (q: Query) => Promise<unknown[]>;
    }
  > = {
    subjects: {
      type: 'Subject',
      label: 'objets',
      member: subjectDtoSchema,
      load: () => service.listSubjects(db),
    },
    canals: { type: 'Canal', label: 'canaux', member: canalDtoSchema, load: () => service.listCanals(db) },
    niveaux: {
      type: 'Niveau',
      label: 'niveaux',
      member: niveauDtoSchema,
      load: () => service.listNiveaux(db),
    },
    statuts: {
      type: 'Statut',
      label: 'statuts',
      member: statutDtoSchema,
      load: () => service.listStatuts(db),
    },
    resultats: {
      type: 'Resultat',
      label: 'résultats',
      member: resultatDtoSchema,
      load: () => service.listResultats(db),
    },
    regions: {
      type: 'Region',
      label: 'régions',
      member: regionDtoSchema,
      load: () => service.listRegions(db),
    },
    districts: {
      type: 'District',
      label: 'districts (d’une région : region.code)',
      member: districtDtoSchema,
      query: placeFilter('region'),
      load: (q) => service.listDistricts(db, text((q.region as Query | undefined)?.code ?? q['region.code'])),
    },
    communes: {
      type: 'Commune',
      label: 'communes (d’un district : district.code)',
      member: communeDtoSchema,
      query: placeFilter('district'),
      load: (q) =>
        service.listCommunes(db, text((q.district as Query | undefined)?.code ?? q['district.code'])),
    },
  };
  for (const [name, { type, label, member, query, load }] of Object.entries(lists)) {
    app.get(
      `/api/${name}`,
      operation({
        summary: `Liste de référence : ${label}.`,
        resource: type,
        collection: true,
        access: 'staff',
        ...(query ? { query } : {}),
        responses: { 200: { description: 'La liste entière.', schema: collectionSchema(member) } },
      }),
      async (request) => {
        const items = await load(parseQuery(request.query as Query));
        return collection(type, request.url, items, items.length);
      },
    );
  }
}
