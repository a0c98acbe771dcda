// The partners' own door to their webhook endpoints (docs/decisions/0051-partner-webhook-endpoints.md):
// /api/webhooks, reached by a partner API token with the scope `webhooks:manage` only — a staff session gets
// 403 and manages endpoints on the « Webhooks » screen (tRPC, router.ts). Each use is in the access log
// (server/domains/jetons-api/bearer.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { partnerWebhookInputSchema, webhookIdSchema } from '#shared/schemas/webhooks';
import { pointDeReceptionDtoSchema, pointDeReceptionSecretDtoSchema } from '#shared/dto/schemas';
import { operation } from '#server/http/api-doc/operation';
import { collectionSchema } from '#server/http/api-doc/schemas';
import { collection } from '#server/http/jsonld';
import type { TokenCaller } from '../jetons-api/bearer';
import {
  createPartnerEndpoint,
  deletePartnerEndpoint,
  listPartnerEndpoints,
  partnerEndpoint,
  pointDeReceptionIri,
  renewPartnerSecret,
} from './partner-endpoints';

const idParamsSchema = z.object({ id: webhookIdSchema });
const SCOPE = { scope: 'webhooks:manage' } as const;
const SECRET_ONCE =
  'Le point de réception, avec son secret de signature (whsec_…) : il n’est envoyé que cette fois-ci.';

export function webhooksRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const jeton = (request: FastifyRequest): TokenCaller => request.auth!.jeton!;
  const id = (request: FastifyRequest) => idParamsSchema.parse(request.params).id;

  app.get(
    '/api/webhooks',
    operation(
      {
        summary: 'Les points de réception de webhooks de votre organisation (jeton partenaire).',
        resource: 'PointDeReception',
        collection: true,
        access: 'partner',
        responses: {
          200: {
            description: 'Les points de réception, avec leurs livraisons comptées.',
            schema: collectionSchema(pointDeReceptionDtoSchema),
          },
        },
      },
      SCOPE,
    ),
    async (request) => {
      const items = await listPartnerEndpoints(ctx.db, jeton(request));
      return collection('PointDeReception', request.url, items, items.length);
    },
  );

  app.post(
    '/api/webhooks',
    operation(
      {
        summary:
          'Enregistrer un point de réception (HTTPS vers une adresse publique) : il reçoit les changements de statut, résultat et niveau des signalements de votre organisation, signés (Standard Webhooks).',
        resource: 'PointDeReception',
        collection: true,
        access: 'partner',
        body: partnerWebhookInputSchema,
        responses: { 201: { description: SECRET_ONCE, schema: pointDeReceptionSecretDtoSchema } },
      },
      SCOPE,
    ),
    async (request, reply) => {
      const input = partnerWebhookInputSchema.parse(request.body ?? {});
      const created = await createPartnerEndpoint(ctx, jeton(request), input);
      return reply.code(201).header('location', pointDeReceptionIri(created.id)).send(created);
    },
  );

  app.get(
    '/api/webhooks/:id',
    operation(
      {
        summary: 'Un point de réception de votre organisation.',
        resource: 'PointDeReception',
        access: 'partner',
        params: idParamsSchema,
        responses: { 200: { description: 'Le point de réception.', schema: pointDeReceptionDtoSchema } },
      },
      SCOPE,
    ),
    async (request) => partnerEndpoint(ctx.db, jeton(request), id(request)),
  );

  app.post(
    '/api/webhooks/:id/secret',
    operation(
      {
        summary:
          'Renouveler le secret de signature : l’ancien signe encore 24 heures (les livraisons portent les deux signatures).',
        access: 'partner',
        params: idParamsSchema,
        responses: { 200: { description: SECRET_ONCE, schema: pointDeReceptionSecretDtoSchema } },
      },
      SCOPE,
    ),
    async (request) => renewPartnerSecret(ctx, jeton(request), id(request)),
  );

  app.delete(
    '/api/webhooks/:id',
    operation(
      {
        summary: 'Supprimer un point de réception et ses livraisons en attente.',
        resource: 'PointDeReception',
        access: 'partner',
        params: idParamsSchema,
        responses: { 204: { description: 'Supprimé.' } },
      },
      SCOPE,
    ),
    async (request, reply) => {
      await deletePartnerEndpoint(ctx.db, jeton(request), id(request));
      return reply.code(204).send();
    },
  );
}
