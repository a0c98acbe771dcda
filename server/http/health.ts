import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import { mailBacklog } from '../domains/mail/backlog';

/**
 * Public health check (issue #13): whether the database answers, and how far behind the outbox is (messages
 * waiting, failed ones waiting for an administrator, age of the oldest waiting one). 503 when the database
 * does not answer. No names, addresses or subjects: counts and an age only.
 */
export function healthRoutes(app: FastifyInstance, db: Database) {
  app.get('/api/health', { config: { public: true } }, async (request, reply) => {
    try {
      // Reading the outbox is the database check: a database that does not answer fails it.
      const mail = await mailBacklog(db);
      return {
        status: 'ok',
        database: 'ok',
        mail: { pending: mail.pending, failed: mail.failed, oldestPendingSeconds: mail.oldestPendingSeconds },
      };
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unreachable');
      return reply.code(503).send({ status: 'error', database: 'indisponible' });
    }
  });
}
