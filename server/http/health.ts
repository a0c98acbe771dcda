import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';

export function healthRoutes(app: FastifyInstance, db: Database) {
  app.get('/api/health', { config: { public: true } }, async (request, reply) => {
    try {
      await db.ping();
      return { status: 'ok', database: 'ok' };
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unreachable');
      return reply.code(503).send({ status: 'error', database: 'indisponible' });
    }
  });
}
