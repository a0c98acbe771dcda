// The two exports of the filtered list (JSON-LD streamed in batches, xlsx written on a thread of its own).
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { signalementExportSchema, signalementXlsxExportSchema } from '#shared/schemas/signalements';
import type { Config } from '#server/config';
import type { Database } from '#server/db/client';
import { signalementDtoSchema } from '#shared/dto/schemas';
import { operation } from '#server/http/api-doc/operation';
import { collectionSchema } from '#server/http/api-doc/schemas';
import { parseQuery } from '#server/http/jsonld';
import { exportBatches, exportFileName, logExport, startExport } from './export';
import { openXlsxExport } from './export-runner';

const query = (request: FastifyRequest) => parseQuery(request.query as Record<string, unknown>);

/** GET /api/signalements/export/list and /export/xlsx. */
export function signalementExportRoutes(app: FastifyInstance, db: Database, config: Config) {
  const { ctx } = app;
  const user = (request: FastifyRequest) => request.auth!.user;

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
      const actor = user(request);
      // Counted, then written, on a thread of its own with a capped heap (export-runner.ts); its key only
      // where it opens the notes or searches the sources' names.
      const xlsx = await openXlsxExport({
        config,
        databaseUrl: db.url,
        actor,
        filters,
        now: ctx.clock.now().getTime(),
        notesInternes,
        ...(notesInternes || filters.search ? { key: ctx.keySettings } : {}),
      });
      try {
        await logExport(ctx, actor, filters, 'xlsx', xlsx.rows, { notesInternes });
      } catch (error) {
        // Nothing is sent of an export the access log does not hold.
        xlsx.cancel();
        throw error;
      }
      reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header(
          'content-disposition',
          `attachment; filename="${exportFileName(ctx.calendar, ctx.clock.now())}"`,
        )
        .header('x-total-count', String(xlsx.rows))
        .header('access-control-expose-headers', 'x-total-count, content-disposition');
      const workbook = xlsx.start();
      workbook.once('error', (error) => request.log.error({ err: error }, 'xlsx export failed'));
      return reply.send(workbook);
    },
  );
}
