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
import { auteurDtoSchema, sourceDtoSchema, victimeDtoSchema } from '#shared/dto/schemas';
import { operation } from '#server/http/api-doc/operation';
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

  app.post(
    '/api/presume_auteurs',
    operation({
      summary: 'Ajouter un présumé auteur à un signalement.',
      resource: 'PresumeAuteur',
      collection: true,
      access: 'staff',
      body: auteurCreateSchema,
      idempotent: true,
      responses: { 201: { description: 'La personne créée.', schema: auteurDtoSchema } },
    }),
    async (request, reply) =>
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
  app.patch(
    '/api/presume_auteurs/:code',
    operation({
      summary: 'Modifier un présumé auteur.',
      resource: 'PresumeAuteur',
      access: 'staff',
      params: codeParamsSchema,
      body: auteurSchema,
      responses: { 200: { description: 'La personne modifiée.', schema: auteurDtoSchema } },
    }),
    async (request) =>
      service.updateAuteur(ctx, user(request), code(request), auteurSchema.parse(request.body ?? {})),
  );

  app.post(
    '/api/sources',
    operation({
      summary: 'Ajouter une source à un signalement.',
      resource: 'Source',
      collection: true,
      access: 'staff',
      body: sourceCreateSchema,
      idempotent: true,
      responses: { 201: { description: 'La personne créée.', schema: sourceDtoSchema } },
    }),
    async (request, reply) =>
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
  app.patch(
    '/api/sources/:code',
    operation({
      summary: 'Modifier une source.',
      resource: 'Source',
      access: 'staff',
      params: codeParamsSchema,
      body: sourceSchema,
      responses: { 200: { description: 'La personne modifiée.', schema: sourceDtoSchema } },
    }),
    async (request) =>
      service.updateSource(ctx, user(request), code(request), sourceSchema.parse(request.body ?? {})),
  );

  app.post(
    '/api/victimes',
    operation({
      summary: 'Ajouter une victime à un signalement.',
      resource: 'Victime',
      collection: true,
      access: 'staff',
      body: victimeCreateSchema,
      idempotent: true,
      responses: { 201: { description: 'La personne créée.', schema: victimeDtoSchema } },
    }),
    async (request, reply) =>
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
  app.patch(
    '/api/victimes/:code',
    operation({
      summary: 'Modifier une victime.',
      resource: 'Victime',
      access: 'staff',
      params: codeParamsSchema,
      body: victimeSchema,
      responses: { 200: { description: 'La personne modifiée.', schema: victimeDtoSchema } },
    }),
    async (request) =>
      service.updateVictime(ctx, user(request), code(request), victimeSchema.parse(request.body ?? {})),
  );

  for (const [path, kind, resource, label] of [
    ['presume_auteurs', 'auteur', 'PresumeAuteur', 'un présumé auteur'],
    ['sources', 'source', 'Source', 'une source'],
    ['victimes', 'victime', 'Victime', 'une victime'],
  ] as const) {
    app.delete(
      `/api/${path}/:code`,
      operation({
        summary: `Supprimer ${label}.`,
        resource,
        access: 'staff',
        params: codeParamsSchema,
        responses: { 204: { description: 'Personne supprimée.' } },
      }),
      async (request, reply) => {
        await service.deletePerson(ctx, user(request), kind, code(request));
        return reply.code(204).send();
      },
    );
  }
}
