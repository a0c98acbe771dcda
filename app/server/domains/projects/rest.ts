import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { codeParamsSchema } from '#shared/schemas/common';
import { projectCreateSchema } from '#shared/schemas/signalements';
import type { Database } from '#server/db/client';
import { notFound } from '#server/errors';
import { projectDtoSchema } from '#shared/dto/schemas';
import { operation } from '#server/http/api-doc/operation';
import { collectionSchema } from '#server/http/api-doc/schemas';
import { collection, parseQuery } from '#server/http/jsonld';
import { createProject, getProject, listProjects } from './service';
import { restIdempotent } from '../idempotency/doors';
import { storedAnswer } from '../idempotency/service';

const filters = z.object({
  partenaire: z.object({ code: z.string().trim().max(64).optional() }).optional(),
  'partenaire.code': z.string().trim().max(64).optional(),
  search: z.string().trim().max(200).optional(),
});

export function projectsRoutes(app: FastifyInstance, db: Database) {
  app.get(
    '/api/projects',
    operation({
      summary: 'Les projets, filtrés par partenaire ou par texte.',
      resource: 'Project',
      collection: true,
      access: 'staff',
      query: filters,
      responses: { 200: { description: 'Les projets.', schema: collectionSchema(projectDtoSchema) } },
    }),
    async (request) => {
      const q = filters.parse(parseQuery(request.query as Record<string, unknown>));
      const items = await listProjects(db, {
        partenaire: q['partenaire.code'] ?? q.partenaire?.code,
        search: q.search,
      });
      return collection('Project', request.url, items, items.length);
    },
  );
  app.get(
    '/api/projects/:code',
    operation({
      summary: 'Un projet.',
      resource: 'Project',
      access: 'staff',
      params: codeParamsSchema,
      responses: { 200: { description: 'Le projet.', schema: projectDtoSchema } },
    }),
    async (request) => {
      const { code } = codeParamsSchema.parse(request.params);
      const project = await getProject(db, code);
      if (!project) throw notFound('Projet introuvable.');
      return project;
    },
  );
  app.post(
    '/api/projects',
    operation({
      summary: 'Créer un projet.',
      resource: 'Project',
      collection: true,
      access: 'staff',
      body: projectCreateSchema,
      idempotent: true,
      responses: { 201: { description: 'Le projet créé.', schema: projectDtoSchema } },
    }),
    async (request, reply) => {
      const input = projectCreateSchema.parse(request.body ?? {});
      return reply
        .code(201)
        .send(
          await restIdempotent(
            app.ctx,
            request,
            reply,
            input,
            () => createProject(db, request.auth!.user, input),
            storedAnswer,
          ),
        );
    },
  );
}
