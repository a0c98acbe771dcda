import type { FastifyInstance } from 'fastify';
import { codeParamsSchema } from '#shared/schemas/common';
import { listPartenairesInputSchema, partenaireInputSchema } from '#shared/schemas/partenaires';
import type { Database } from '#server/db/client';
import { partenaireDtoSchema } from '#shared/dto/schemas';
import { operation } from '#server/http/api-doc/operation';
import { collectionSchema } from '#server/http/api-doc/schemas';
import { collection, parseQuery } from '#server/http/jsonld';
import {
  createPartenaire,
  deletePartenaire,
  getPartenaire,
  listPartenaires,
  updatePartenaire,
} from './service';
import { restIdempotent } from '../idempotency/doors';
import { storedAnswer } from '../idempotency/service';

/** §7 Partners, in the JSON-LD form: reads for any logged-in user, writes for administrators. */
export function partenairesRoutes(app: FastifyInstance, db: Database) {
  app.get(
    '/api/partenaires',
    operation({
      summary: 'Les partenaires, par pages.',
      resource: 'Partenaire',
      collection: true,
      access: 'staff',
      query: listPartenairesInputSchema,
      responses: {
        200: { description: 'Une page de partenaires.', schema: collectionSchema(partenaireDtoSchema) },
      },
    }),
    async (request) => {
      const input = listPartenairesInputSchema.parse(parseQuery(request.query as Record<string, unknown>));
      const { items, total } = await listPartenaires(db, request.auth!.user, input);
      return collection('Partenaire', request.url, items, total, input);
    },
  );

  app.get(
    '/api/partenaires/:code',
    operation({
      summary: 'Un partenaire.',
      resource: 'Partenaire',
      access: 'staff',
      params: codeParamsSchema,
      responses: { 200: { description: 'Le partenaire.', schema: partenaireDtoSchema } },
    }),
    async (request) => getPartenaire(db, request.auth!.user, codeParamsSchema.parse(request.params).code),
  );

  app.post(
    '/api/partenaires',
    operation({
      summary: 'Créer un partenaire.',
      resource: 'Partenaire',
      collection: true,
      access: 'admin',
      body: partenaireInputSchema,
      idempotent: true,
      responses: { 201: { description: 'Le partenaire créé.', schema: partenaireDtoSchema } },
    }),
    async (request, reply) => {
      const input = partenaireInputSchema.parse(request.body ?? {});
      return reply
        .code(201)
        .send(
          await restIdempotent(
            app.ctx,
            request,
            reply,
            input,
            () => createPartenaire(db, request.auth!.user, input),
            storedAnswer,
          ),
        );
    },
  );

  app.put(
    '/api/partenaires/:code',
    operation({
      summary: 'Remplacer un partenaire.',
      resource: 'Partenaire',
      access: 'admin',
      params: codeParamsSchema,
      body: partenaireInputSchema,
      responses: { 200: { description: 'Le partenaire modifié.', schema: partenaireDtoSchema } },
    }),
    async (request) => {
      const code = codeParamsSchema.parse(request.params).code;
      const input = partenaireInputSchema.parse(request.body ?? {});
      return updatePartenaire(db, request.auth!.user, code, input);
    },
  );

  app.delete(
    '/api/partenaires/:code',
    operation({
      summary: 'Supprimer un partenaire sans signalement ni projet.',
      resource: 'Partenaire',
      access: 'admin',
      params: codeParamsSchema,
      responses: { 204: { description: 'Partenaire supprimé.' } },
    }),
    async (request, reply) => {
      await deletePartenaire(db, request.auth!.user, codeParamsSchema.parse(request.params).code);
      return reply.code(204).send();
    },
  );
}
