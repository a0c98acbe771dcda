import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { DomainError, HTTP_STATUS, MESSAGES } from '../errors';

/** One error shape for the REST facade: { status, message, violations? }, the message in French. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof DomainError) {
      const retry = error.details?.retryAfterSeconds;
      if (typeof retry === 'number') reply.header('retry-after', String(retry));
      const status = HTTP_STATUS[error.kind];
      return reply.code(status).send({ status, message: error.message });
    }
    if (error instanceof ZodError) {
      const violations = error.issues.map((i) => ({ propertyPath: i.path.join('.'), message: i.message }));
      return reply
        .code(400)
        .send({ status: 400, message: violations[0]?.message ?? MESSAGES.invalid, violations });
    }
    const fastifyError = error as FastifyError;
    const status = fastifyError.statusCode ?? 500;
    if (status === 429) {
      return reply.code(429).send({ status, message: 'Trop de requêtes. Veuillez patienter avant de réessayer.' });
    }
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ status, message: 'Requête invalide.' });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ status: 500, message: MESSAGES.internal });
  });
}
