import type { FastifyInstance } from 'fastify';
import type { Database } from '#server/db/client';
import { collection } from '#server/http/jsonld';
import { mailIdSchema } from './router';
import { listFailedMails, retryMail } from './service';

/** Admin-only view of undelivered e-mails (decision 0004): list them, put one back in the queue. */
export function mailRoutes(app: FastifyInstance, db: Database) {
  app.get('/api/mail_outbox/failed', async (request) => {
    const items = await listFailedMails(db, request.auth!.user);
    return collection('MailOutbox', request.url, items, items.length);
  });

  app.post<{ Params: { id: string } }>('/api/mail_outbox/:id/retry', async (request) => {
    const id = mailIdSchema.parse(request.params.id);
    return retryMail(db, request.auth!.user, id);
  });
}
