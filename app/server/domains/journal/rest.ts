import type { FastifyInstance } from 'fastify';
import { journalFiltersSchema } from '#shared/schemas/journal';
import { operation } from '#server/http/api-doc/operation';
import { parseQuery } from '#server/http/jsonld';
import { exportJournalXlsx, journalExportFileName } from './service';

export function journalRoutes(app: FastifyInstance) {
  /** The filtered access log as an xlsx file (administrators only; the export itself is logged). */
  app.get(
    '/api/journal-acces/export/xlsx',
    operation({
      summary: 'Exporter le journal des accès filtré (xlsx) ; l’export est lui-même journalisé.',
      access: 'admin',
      query: journalFiltersSchema,
      responses: {
        200: {
          description: 'Le classeur.',
          contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        },
      },
    }),
    async (request, reply) => {
      const filters = journalFiltersSchema.parse(parseQuery(request.query as Record<string, unknown>));
      const { buffer, rows } = await exportJournalXlsx(app.ctx, request.auth!.user, filters);
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header(
          'content-disposition',
          `attachment; filename="${journalExportFileName(app.ctx.calendar, app.ctx.clock.now())}"`,
        )
        .header('x-total-count', String(rows))
        .header('access-control-expose-headers', 'x-total-count, content-disposition')
        .send(buffer);
    },
  );
}
