import type { FastifyInstance } from 'fastify';
import type { Database } from '#server/db/client';
import { z } from 'zod';
import { failedMailDtoSchema } from '#shared/dto/schemas';
import { operation } from '#server/http/api-doc/operation';
import { collectionSchema } from '#server/http/api-doc/schemas';
import { collection } from '#server/http/jsonld';
import { mailIdSchema } from './router';
import { listFailedMails, retryMail } from './service';

/** Admin-only view of undelivered e-mails (decision 0004): list them, put one back in the queue. */
export function mailRoutes(app: FastifyInstance, db: Database) {
  app.get(
    '/api/mail_outbox/failed',
    operation({
      summary: 'Les e-mails non distribués (refusés, épuisés ou bloqués).',
      resource: 'MailOutbox',
      collection: true,
      access: 'admin',
      responses: {
        200: { description: 'Les e-mails en échec.', schema: collectionSchema(failedMailDtoSchema) },
      },
    }),
    async (request) => {
      const items = await listFailedMails(db, request.auth!.user);
      return collection('MailOutbox', request.url, items, items.length);
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/mail_outbox/:id/retry',
    operation({
      summary: 'Remettre un e-mail en file d’envoi.',
      resource: 'MailOutbox',
      access: 'admin',
      params: z.object({ id: mailIdSchema }),
      responses: {
        200: { description: 'L’e-mail remis en file.', schema: z.object({ id: z.number().int() }) },
      },
    }),
    async (request) => {
      const id = mailIdSchema.parse(request.params.id);
      return retryMail(db, request.auth!.user, id);
    },
  );
}
