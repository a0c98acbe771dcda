// The REST door of the reports (/api/signalements): list, create, bulk actions, one report and its
// localisation; the exports, the sub-resources and the partner-token side live in their own rest-*.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  bulkActionInputSchema,
  bulkPreviewSchema,
  localisationSchema,
  notifyPartnerSchema,
  signalementCreateSchema,
  signalementListSchema,
  signalementPatchSchema,
} from '#shared/schemas/signalements';
import { codeParamsSchema } from '#shared/schemas/common';
import type { Config } from '#server/config';
import type { Database } from '#server/db/client';
import {
  bulkPreviewDtoSchema,
  bulkResultDtoSchema,
  localisationDtoSchema,
  signalementDtoSchema,
  signalementListItemDtoSchema,
  signalementPartenaireDtoSchema,
  signalementResumeDtoSchema,
} from '#shared/dto/schemas';
import { operation } from '#server/http/api-doc/operation';
import { collectionSchema } from '#server/http/api-doc/schemas';
import { parseQuery } from '#server/http/jsonld';
import { previewBulk, runBulk } from './bulk';
import { defaultMailContent, notifyPartner } from './partner-mail';
import { getResume } from './resume';
import * as service from './service';
import { restIdempotent } from '../idempotency/doors';
import { storedAnswer } from '../idempotency/service';
import { runReadTask } from './tasks/read-tasks';
import { partnerReport } from '../jetons-api/partner-reports';
import { signalementExportRoutes } from './rest-export';
import { signalementRelatedRoutes } from './rest-related';
import { createForPartner, listForPartner } from './rest-partner';
import {
  CONFLICT_RESPONSE,
  ETAG_HEADER,
  IF_MATCH_HEADER,
  expectedVersion,
  tagJsonVersion,
  tagVersion,
} from './rest-preconditions';

/** What Fastify sends an object as: the serialised answers of the read tasks keep it. */
const JSON_UTF8 = 'application/json; charset=utf-8';

const query = (request: FastifyRequest) => parseQuery(request.query as Record<string, unknown>);

export function signalementsRoutes(app: FastifyInstance, db: Database, config: Config) {
  const { ctx } = app;
  const user = (request: FastifyRequest) => request.auth!.user;

  // The list and a report: built and serialised on a thread of their own when the server has some. A partner
  // API token reads its partner's reports in their own shape (docs/decisions/0038-partner-api-tokens.md).
  app.get(
    '/api/signalements',
    operation(
      {
        summary:
          'Les signalements, filtrés, triés et par pages (§7) ; avec un jeton partenaire, ceux de son partenaire, champs de statut seulement.',
        resource: 'Signalement',
        collection: true,
        access: 'staff',
        query: signalementListSchema,
        responses: {
          200: {
            description: 'Une page de signalements (totalItemsExact : faux quand le total est un minimum).',
            schema: z.union([
              collectionSchema(signalementListItemDtoSchema),
              collectionSchema(signalementPartenaireDtoSchema),
            ]),
          },
        },
      },
      { scope: 'signalements:read' },
    ),
    async (request, reply) => {
      const jeton = request.auth!.jeton;
      if (jeton) return listForPartner(db, query(request), request.url, jeton);
      const input = signalementListSchema.parse(query(request));
      const body = await runReadTask(ctx, 'signalements.list.jsonld', user(request), {
        query: input,
        url: request.url,
      });
      return reply.type(JSON_UTF8).send(body);
    },
  );

  app.post(
    '/api/signalements',
    operation(
      {
        summary:
          'Créer un signalement (avec un jeton partenaire : pour son partenaire, et seulement avec un Idempotency-Key).',
        resource: 'Signalement',
        collection: true,
        access: 'staff',
        body: signalementCreateSchema,
        idempotent: true,
        responses: {
          201: {
            description: 'Le signalement créé.',
            schema: z.union([signalementDtoSchema, signalementPartenaireDtoSchema]),
          },
        },
      },
      { scope: 'signalements:create' },
    ),
    async (request, reply) => {
      const jeton = request.auth!.jeton;
      if (jeton) return createForPartner(ctx, db, request, reply, jeton);
      const input = signalementCreateSchema.parse(request.body ?? {});
      const created = await restIdempotent(
        ctx,
        request,
        reply,
        input,
        () => service.createSignalement(ctx, user(request), input),
        storedAnswer,
      );
      // The report itself is read afresh, under today's rights, on a first answer and on a replay.
      const dto = await service.getCreated(db, user(request), created);
      return reply.code(201).header('location', dto['@id']).send(dto);
    },
  );

  // Static segments are matched before :code, so these two never shadow a report code.
  signalementExportRoutes(app, db, config);

  // Bulk actions (docs/decisions/0035-bulk-actions.md): the preview the confirmation states, then the action.
  app.post(
    '/api/signalements/actions-groupees/apercu',
    operation({
      summary: 'Aperçu d’une action groupée : combien de signalements seraient modifiés.',
      access: 'staff',
      body: bulkPreviewSchema,
      responses: { 200: { description: 'L’aperçu.', schema: bulkPreviewDtoSchema } },
    }),
    async (request) => previewBulk(ctx, user(request), bulkPreviewSchema.parse(request.body ?? {})),
  );
  app.post(
    '/api/signalements/actions-groupees',
    operation({
      summary: 'Action groupée (assigner, désassigner, statut, niveau), tout ou rien.',
      access: 'staff',
      body: bulkActionInputSchema,
      responses: { 200: { description: 'Le résultat.', schema: bulkResultDtoSchema } },
    }),
    async (request) => runBulk(ctx, user(request), bulkActionInputSchema.parse(request.body ?? {})),
  );

  app.get(
    '/api/signalements/:code',
    operation(
      {
        summary: 'Un signalement (avec un jeton partenaire : ses champs de statut seulement).',
        resource: 'Signalement',
        access: 'staff',
        params: codeParamsSchema,
        responses: {
          200: {
            description: 'Le signalement.',
            schema: z.union([signalementDtoSchema, signalementPartenaireDtoSchema]),
            headers: { ETag: ETAG_HEADER },
          },
        },
      },
      { scope: 'signalements:read' },
    ),
    async (request, reply) => {
      const { code } = codeParamsSchema.parse(request.params);
      const jeton = request.auth!.jeton;
      if (jeton) return partnerReport(db, jeton, code);
      const json = await runReadTask(ctx, 'signalements.get.json', user(request), code);
      return tagJsonVersion(reply, json).type(JSON_UTF8).send(json);
    },
  );

  app.patch(
    '/api/signalements/:code',
    operation({
      summary: 'Modifier un signalement (merge-patch).',
      resource: 'Signalement',
      access: 'staff',
      params: codeParamsSchema,
      body: signalementPatchSchema,
      headers: { 'If-Match': IF_MATCH_HEADER },
      responses: {
        200: {
          description: 'Le signalement modifié.',
          schema: signalementDtoSchema,
          headers: { ETag: ETAG_HEADER },
        },
        409: CONFLICT_RESPONSE,
      },
    }),
    async (request, reply) => {
      const { code } = codeParamsSchema.parse(request.params);
      const expected = expectedVersion(request);
      const patch = signalementPatchSchema.parse(request.body ?? {});
      const saved = await service.patchSignalement(ctx, user(request), code, patch, expected);
      return tagVersion(reply, saved.version).send(saved);
    },
  );

  app.get(
    '/api/signalements/:code/localisation',
    operation({
      summary: 'La localisation d’un signalement.',
      access: 'staff',
      params: codeParamsSchema,
      responses: { 200: { description: 'La localisation.', schema: localisationDtoSchema } },
    }),
    async (request) => {
      const { code } = codeParamsSchema.parse(request.params);
      return service.getLocalisation(db, code);
    },
  );
  for (const method of ['patch', 'put'] as const) {
    app[method](
      '/api/signalements/:code/localisation',
      operation({
        summary: 'Modifier la localisation d’un signalement.',
        access: 'staff',
        params: codeParamsSchema,
        body: localisationSchema,
        headers: { 'If-Match': IF_MATCH_HEADER },
        responses: {
          200: { description: 'La localisation modifiée.', schema: localisationDtoSchema },
          409: CONFLICT_RESPONSE,
        },
      }),
      async (request) => {
        const { code } = codeParamsSchema.parse(request.params);
        const expected = expectedVersion(request);
        return service.updateLocalisation(
          ctx,
          user(request),
          code,
          localisationSchema.parse(request.body ?? {}),
          expected,
        );
      },
    );
  }

  signalementRelatedRoutes(app, db);

  app.get(
    '/api/signalement/:code/default-mail-content',
    operation({
      summary: 'Le texte proposé pour informer le partenaire d’un signalement.',
      access: 'staff',
      params: codeParamsSchema,
      responses: {
        200: {
          description: 'Le texte.',
          schema: z.object({ status: z.literal('success'), content: z.string() }),
        },
      },
    }),
    async (request) => {
      const { code } = codeParamsSchema.parse(request.params);
      return defaultMailContent(ctx, user(request), code);
    },
  );
  app.post(
    '/api/signalement/:code/notify-partner',
    operation({
      summary: 'Envoyer au partenaire l’e-mail d’un signalement.',
      access: 'staff',
      params: codeParamsSchema,
      body: notifyPartnerSchema,
      responses: {
        200: { description: 'E-mail mis en file.', schema: z.object({ success: z.literal(true) }) },
      },
    }),
    async (request) => {
      const { code } = codeParamsSchema.parse(request.params);
      return notifyPartner(ctx, user(request), code, notifyPartnerSchema.parse(request.body ?? {}));
    },
  );

  app.get(
    '/api/resume/signalements-details/:code',
    operation(
      {
        summary: 'Le résumé public d’un signalement, par son code (sans personne ni description).',
        access: 'public',
        params: codeParamsSchema,
        responses: { 200: { description: 'Le résumé.', schema: signalementResumeDtoSchema } },
      },
      { publicLookup: true },
    ),
    async (request) => {
      const { code } = codeParamsSchema.parse(request.params);
      return getResume(ctx, code);
    },
  );
}
