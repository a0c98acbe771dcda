import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  assignSchema,
  bulkActionInputSchema,
  bulkPreviewSchema,
  localisationSchema,
  notifyPartnerSchema,
  signalementCreateSchema,
  signalementExportSchema,
  signalementListSchema,
  signalementPatchSchema,
  signalementXlsxExportSchema,
} from '#shared/schemas/signalements';
import { codeParamsSchema } from '#shared/schemas/common';
import type { Config } from '#server/config';
import type { Database } from '#server/db/client';
import {
  assignationDtoSchema,
  auteurDtoSchema,
  bulkPreviewDtoSchema,
  bulkResultDtoSchema,
  editConflictDtoSchema,
  historiqueEntryDtoSchema,
  localisationDtoSchema,
  signalementDtoSchema,
  signalementListItemDtoSchema,
  signalementPartenaireDtoSchema,
  signalementResumeDtoSchema,
  sourcesListDtoSchema,
  victimeDtoSchema,
} from '#shared/dto/schemas';
import { operation } from '#server/http/api-doc/operation';
import { collectionSchema } from '#server/http/api-doc/schemas';
import { collection, parseQuery } from '#server/http/jsonld';
import { listAuteurs, listSources, listVictimes } from '../personnes/service';
import { exportBatches, exportFileName, startExport } from './export';
import { xlsxInThread } from './export-runner';
import { assign, listAssignees, unassign } from './assignees';
import { previewBulk, runBulk } from './bulk';
import { listHistorique } from './history';
import { defaultMailContent, notifyPartner } from './partner-mail';
import { getResume } from './resume';
import * as service from './service';
import { restIdempotent } from '../idempotency/doors';
import { IDEMPOTENCY_HEADER, storedAnswer } from '../idempotency/service';
import { runReadTask } from './tasks/read-tasks';
import type { TokenCaller } from '../jetons-api/bearer';
import { partnerReport, partnerReports } from '../jetons-api/partner-reports';
import { HttpError } from '#server/errors';
import { ifMatchVersion, versionOfJson, versionTag } from '#server/http/etag';

/** A create through a partner API token without its key (docs/decisions/0038): 428 Precondition Required. */
export const TOKEN_IDEMPOTENCY_REQUIRED =
  "En-tête Idempotency-Key obligatoire : un signalement déposé avec un jeton d'API doit porter une clé unique par dépôt, renvoyée telle quelle en cas de nouvel essai.";

/** The partner list's one parameter: the page (30 reports each, newest first). */
const partnerListSchema = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) }).strict();

/** What Fastify sends an object as: the serialised answers of the read tasks keep it. */
const JSON_UTF8 = 'application/json; charset=utf-8';

const assigneeParamsSchema = codeParamsSchema.extend({ utilisateur: codeParamsSchema.shape.code });

/** The edit precondition's documentation (docs/decisions/0047-edit-conflicts.md). */
const IF_MATCH_HEADER = {
  description:
    'Facultatif : l’ETag du signalement lu (W/"<version>"). Si le signalement a changé depuis, la modification est refusée (409) et rien n’est écrit ; sans cet en-tête, elle est appliquée comme avant.',
};
const ETAG_HEADER = 'Version du signalement (W/"<version>"), à renvoyer dans If-Match.';
const CONFLICT_RESPONSE = {
  description:
    'Le signalement a été modifié depuis la version indiquée par If-Match : sa version actuelle et, pour chaque champ envoyé, la valeur actuelle et la vôtre. Rien n’a été écrit.',
  schema: editConflictDtoSchema,
  contentType: 'application/json',
};

const query = (request: FastifyRequest) => parseQuery(request.query as Record<string, unknown>);

export function signalementsRoutes(app: FastifyInstance, db: Database, config: Config) {
  const { ctx } = app;
  const user = (request: FastifyRequest) => request.auth!.user;

  /**
   * A report pushed by a partner's system: filed for the token's partner whatever the body names, and only
   * with an Idempotency-Key (a retry of a lost answer must not file it twice).
   */
  async function createForPartner(request: FastifyRequest, reply: FastifyReply, jeton: TokenCaller) {
    if (request.headers[IDEMPOTENCY_HEADER] === undefined)
      throw new HttpError(428, TOKEN_IDEMPOTENCY_REQUIRED);
    const body = request.body ?? {};
    const input = signalementCreateSchema.parse(
      typeof body === 'object' && !Array.isArray(body)
        ? { ...(body as Record<string, unknown>), partenaire: jeton.partenaireCode }
        : body,
    );
    const created = await restIdempotent(
      ctx,
      request,
      reply,
      input,
      () => service.createSignalement(ctx, user(request), input),
      storedAnswer,
    );
    const dto = await partnerReport(db, jeton, created.code);
    return reply.code(201).header('location', dto['@id']).send(dto);
  }

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
      if (jeton) {
        const { page } = partnerListSchema.parse(query(request));
        return partnerReports(db, jeton, page, request.url);
      }
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
      if (jeton) return createForPartner(request, reply, jeton);
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
      const dto = await service.getSignalement(db, user(request), created.code);
      return reply.code(201).header('location', dto['@id']).send(dto);
    },
  );

  // Static segments are matched before :code, so these two never shadow a report code.
  app.get(
    '/api/signalements/export/list',
    operation({
      summary: 'Exporter les signalements filtrés (JSON-LD, tous à la fois).',
      access: 'staff',
      query: signalementExportSchema,
      responses: {
        200: {
          description: 'Tous les signalements du filtre ; leur nombre dans X-Total-Count.',
          schema: collectionSchema(signalementDtoSchema),
          contentType: 'application/ld+json',
        },
      },
    }),
    async (request, reply) => {
      const filters = signalementExportSchema.parse(query(request));
      const ids = await startExport(ctx, user(request), filters, 'json');
      const out = new PassThrough();
      reply
        .header('content-type', 'application/ld+json; charset=utf-8')
        .header('x-total-count', String(ids.length));
      void (async () => {
        out.write(
          `{"@context":"/api/contexts/Signalement","@id":"/api/signalements/export/list","@type":"Collection","totalItems":${ids.length},"member":[`,
        );
        let first = true;
        for await (const rows of exportBatches(db, user(request), ids)) {
          for (const { item } of rows) {
            out.write((first ? '' : ',') + JSON.stringify(item));
            first = false;
          }
        }
        out.end(']}');
      })().catch((error) => {
        request.log.error({ err: error }, 'JSON export failed');
        out.destroy(error as Error);
      });
      return reply.send(out);
    },
  );

  app.get(
    '/api/signalements/export/xlsx',
    operation({
      summary: 'Exporter les signalements filtrés (xlsx).',
      access: 'staff',
      query: signalementXlsxExportSchema,
      responses: {
        200: {
          description: 'Le classeur ; le nombre de lignes dans X-Total-Count.',
          contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        },
      },
    }),
    async (request, reply) => {
      const { notesInternes, ...filters } = signalementXlsxExportSchema.parse(query(request));
      const ids = await startExport(ctx, user(request), filters, 'xlsx', { notesInternes });
      reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${exportFileName(ctx.calendar)}"`)
        .header('x-total-count', String(ids.length))
        .header('access-control-expose-headers', 'x-total-count, content-disposition');
      // Written on a thread of its own with a capped heap (export-runner.ts).
      const workbook = xlsxInThread({
        config,
        databaseUrl: db.url,
        actor: user(request),
        ids,
        notesInternes,
        ...(notesInternes ? { key: ctx.keySettings } : {}),
      });
      workbook.once('error', (error) => request.log.error({ err: error }, 'xlsx export failed'));
      return reply.send(workbook);
    },
  );

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
      const version = versionOfJson(json);
      if (version !== null) reply.header('etag', versionTag(version));
      return reply.type(JSON_UTF8).send(json);
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
      const expected = ifMatchVersion(request.headers['if-match']);
      const patch = signalementPatchSchema.parse(request.body ?? {});
      const saved = await service.patchSignalement(ctx, user(request), code, patch, expected);
      return reply.header('etag', versionTag(saved.version)).send(saved);
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
        const expected = ifMatchVersion(request.headers['if-match']);
        return service.updateLocalisation(
          db,
          user(request),
          code,
          localisationSchema.parse(request.body ?? {}),
          expected,
        );
      },
    );
  }

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
      await unassign(db, user(request), code, utilisateur);
      return reply.code(204).send();
    },
  );

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
      return notifyPartner(db, user(request), code, notifyPartnerSchema.parse(request.body ?? {}));
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
