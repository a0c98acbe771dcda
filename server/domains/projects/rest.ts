import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { codeParamsSchema } from '#shared/schemas/common';
import { projectCreateSchema } from '#shared/schemas/signalements';
import type { Database } from '#server/db/client';
import { notFound } from '#server/errors';
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
  app.get('/api/projects', async (request) => {
    const q = filters.parse(parseQuery(request.query as Record<string, unknown>));
    const items = await listProjects(db, {
      partenaire: q['partenaire.code'] ?? q.partenaire?.code,
      search: q.search,
    });
    return collection('Project', request.url, items, items.length);
  });
  app.get('/api/projects/:code', async (request) => {
    const { code } = codeParamsSchema.parse(request.params);
    const project = await getProject(db, code);
    if (!project) throw notFound('Projet introuvable.');
    return project;
  });
  app.post('/api/projects', async (request, reply) => {
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
  });
}
