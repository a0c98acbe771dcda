import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  auteurCreateSchema,
  auteurSchema,
  sourceCreateSchema,
  sourceSchema,
  victimeCreateSchema,
  victimeSchema,
} from '#shared/schemas/signalements';
import { codeParamsSchema } from '#shared/schemas/common';
import type { SessionUser } from '../auth/session';
import * as service from './service';
import { restIdempotent } from '../idempotency/doors';

/** POST, PATCH and DELETE of /api/presume_auteurs, /api/sources and /api/victimes (spec §7). */
export function personnesRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const user = (request: FastifyRequest) => request.auth!.user;
  const code = (request: FastifyRequest) => codeParamsSchema.parse(request.params).code;
  // A replay reads the person again under today's rights (decision 0020).
  const createdBy = <I, T>(
    request: FastifyRequest,
    reply: FastifyReply,
    input: I,
    create: (input: I) => Promise<T>,
    reread: (actor: SessionUser, stored: T) => Promise<T>,
  ) =>
    restIdempotent(
      ctx,
      request,
      reply,
      input,
      () => create(input),
      (stored) => reread(user(request), stored),
    );

  app.post('/api/presume_auteurs', async (request, reply) =>
    reply.code(201).send(
      await createdBy(
        request,
        reply,
        auteurCreateSchema.parse(request.body ?? {}),
        (input) => service.createAuteur(ctx, user(request), input),
        (actor, stored) => service.rereadAuteur(ctx, actor, stored),
      ),
    ),
  );
  app.patch('/api/presume_auteurs/:code', async (request) =>
    service.updateAuteur(ctx, user(request), code(request), auteurSchema.parse(request.body ?? {})),
  );

  app.post('/api/sources', async (request, reply) =>
    reply.code(201).send(
      await createdBy(
        request,
        reply,
        sourceCreateSchema.parse(request.body ?? {}),
        (input) => service.createSource(ctx, user(request), input),
        (actor, stored) => service.rereadSource(ctx, actor, stored),
      ),
    ),
  );
  app.patch('/api/sources/:code', async (request) =>
    service.updateSource(ctx, user(request), code(request), sourceSchema.parse(request.body ?? {})),
  );

  app.post('/api/victimes', async (request, reply) =>
    reply.code(201).send(
      await createdBy(
        request,
        reply,
        victimeCreateSchema.parse(request.body ?? {}),
        (input) => service.createVictime(ctx, user(request), input),
        (actor, stored) => service.rereadVictime(ctx, actor, stored),
      ),
    ),
  );
  app.patch('/api/victimes/:code', async (request) =>
    service.updateVictime(ctx, user(request), code(request), victimeSchema.parse(request.body ?? {})),
  );

  for (const [path, kind] of [
    ['presume_auteurs', 'auteur'],
    ['sources', 'source'],
    ['victimes', 'victime'],
  ] as const) {
    app.delete(`/api/${path}/:code`, async (request, reply) => {
      await service.deletePerson(ctx, user(request), kind, code(request));
      return reply.code(204).send();
    });
  }
}
