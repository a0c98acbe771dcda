// The REST door of the handling deadlines (docs/decisions/0032-deadlines.md): the collection
// /api/delais_traitement (one item per niveau, the most serious first), each item at
// /api/delais_traitement/{niveau} read by any staff member and changed by administrators (merge-patch).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { codeParamsSchema } from '#shared/schemas/common';
import { delaiPatchSchema } from '#shared/schemas/delais';
import { delaiTraitementDtoSchema } from '#shared/dto/schemas';
import { operation } from '#server/http/api-doc/operation';
import { collectionSchema } from '#server/http/api-doc/schemas';
import { collection } from '#server/http/jsonld';
import * as service from './service';

export function delaisRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const code = (request: FastifyRequest) => codeParamsSchema.parse(request.params).code;

  app.get(
    '/api/delais_traitement',
    operation({
      summary: 'Délais de traitement : un par niveau, le plus grave d’abord.',
      resource: 'DelaiTraitement',
      collection: true,
      access: 'staff',
      responses: { 200: { description: 'Les délais.', schema: collectionSchema(delaiTraitementDtoSchema) } },
    }),
    async (request) => {
      const items = await service.listDelais(ctx.db);
      return collection('DelaiTraitement', request.url, items, items.length);
    },
  );
  app.get(
    '/api/delais_traitement/:code',
    operation({
      summary: 'Le délai de traitement d’un niveau.',
      resource: 'DelaiTraitement',
      access: 'staff',
      params: codeParamsSchema,
      responses: { 200: { description: 'Le délai.', schema: delaiTraitementDtoSchema } },
    }),
    async (request) => service.getDelai(ctx.db, code(request)),
  );
  app.patch(
    '/api/delais_traitement/:code',
    operation({
      summary: 'Modifier le délai de traitement d’un niveau (jours ouvrés, ou null : aucun délai).',
      resource: 'DelaiTraitement',
      access: 'admin',
      params: codeParamsSchema,
      body: delaiPatchSchema,
      responses: { 200: { description: 'Le délai modifié.', schema: delaiTraitementDtoSchema } },
    }),
    async (request) => {
      const niveau = code(request);
      const { jours } = delaiPatchSchema.parse(request.body ?? {});
      await service.updateDelais(ctx, request.auth!.user, { delais: [{ niveau, jours }] });
      return service.getDelai(ctx.db, niveau);
    },
  );
}
