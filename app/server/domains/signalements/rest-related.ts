// A report's sub-resources on the REST door: its people (auteurs, sources, victimes), its history and its
// assignees (docs/decisions/0028).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { assignSchema } from '#shared/schemas/signalements';
import { codeParamsSchema } from '#shared/schemas/common';
import type { Database } from '#server/db/client';
import {
  assignationDtoSchema,
  auteurDtoSchema,
  historiqueEntryDtoSchema,
  sourcesListDtoSchema,
  victimeDtoSchema,
} from '#shared/dto/schemas';
import { operation } from '#server/http/api-doc/operation';
import { collectionSchema } from '#server/http/api-doc/schemas';
import { collection } from '#server/http/jsonld';
import { listAuteurs, listSources, listVictimes } from '../personnes/service';
import { assign, listAssignees, unassign } from './assignees';
import { listHistorique } from './history';

const assigneeParamsSchema = codeParamsSchema.extend({ utilisateur: codeParamsSchema.shape.code });

/** GET /api/signalements/:code/{auteurs,source,victimes,historique} and the /assignes sub-collection. */
export function signalementRelatedRoutes(app: FastifyInstance, db: Database) {
  const { ctx } = app;
  const user = (request: FastifyRequest) => request.auth!.user;

  app.get(
    '/api/signalements/:code/auteurs',
    operation({
      summary: 'Les présumés auteurs d’un signalement.',
      access: 'staff',
      params: codeParamsSchema,
      responses: {
        200: {
          description: 'Les présumés auteurs.',
          schema: z.object({ presumeAuteurs: z.array(auteurDtoSchema) }),
        },
      },
    }),
    async (request) => {
      const { code } = codeParamsSchema.parse(request.params);
      return { presumeAuteurs: await listAuteurs(ctx, user(request), code) };
    },
  );
  app.get(
    '/api/signalements/:code/source',
    operation({
      summary: 'Les sources d’un signalement (cachées à qui n’a pas à les connaître).',
      access: 'staff',
      params: codeParamsSchema,
      responses: { 200: { description: 'Les sources.', schema: sourcesListDtoSchema } },
    }),
    async (request) => {
      const { code } = codeParamsSchema.parse(request.params);
      return listSources(ctx, user(request), code);
    },
  );
  app.get(
    '/api/signalements/:code/victimes',
    operation({
      summary: 'Les victimes d’un signalement.',
      access: 'staff',
      params: codeParamsSchema,
      responses: {
        200: { description: 'Les victimes.', schema: z.object({ victimes: z.array(victimeDtoSchema) }) },
      },
    }),
    async (request) => {
      const { code } = codeParamsSchema.parse(request.params);
      return { victimes: await listVictimes(ctx, user(request), code) };
    },
  );
  app.get(
    '/api/signalements/:code/historique',
    operation({
      summary: 'L’historique d’un signalement.',
      resource: 'Historique',
      collection: true,
      access: 'staff',
      params: codeParamsSchema,
      responses: { 200: { description: 'Les entrées.', schema: collectionSchema(historiqueEntryDtoSchema) } },
    }),
    async (request) => {
      const { code } = codeParamsSchema.parse(request.params);
      const items = await listHistorique(ctx, user(request), code);
      return collection('Historique', request.url, items, items.length);
    },
  );

  // The report's assignees (docs/decisions/0028): a sub-collection, one item per user.
  app.get(
    '/api/signalements/:code/assignes',
    operation({
      summary: 'Les personnes assignées à un signalement.',
      resource: 'Assignation',
      collection: true,
      access: 'staff',
      params: codeParamsSchema,
      responses: {
        200: { description: 'Les assignations.', schema: collectionSchema(assignationDtoSchema) },
      },
    }),
    async (request) => {
      const { code } = codeParamsSchema.parse(request.params);
      const items = await listAssignees(db, code);
      return collection('Assignation', request.url, items, items.length);
    },
  );
  app.post(
    '/api/signalements/:code/assignes',
    operation({
      summary: 'Assigner un utilisateur à un signalement (son créateur ou un administrateur).',
      resource: 'Assignation',
      collection: true,
      access: 'staff',
      params: codeParamsSchema,
      body: assignSchema,
      responses: { 201: { description: 'L’assignation.', schema: assignationDtoSchema } },
    }),
    async (request, reply) => {
      const { code } = codeParamsSchema.parse(request.params);
      const { utilisateur } = assignSchema.parse(request.body ?? {});
      const item = await assign(ctx, user(request), code, utilisateur);
      return reply.code(201).header('location', item['@id']).send(item);
    },
  );
  app.delete(
    '/api/signalements/:code/assignes/:utilisateur',
    operation({
      summary: 'Retirer un utilisateur d’un signalement.',
      resource: 'Assignation',
      access: 'staff',
      params: assigneeParamsSchema,
      responses: { 204: { description: 'Assignation retirée.' } },
    }),
    async (request, reply) => {
      const { code, utilisateur } = assigneeParamsSchema.parse(request.params);
      await unassign(ctx, user(request), code, utilisateur);
      return reply.code(204).send();
    },
  );
}
