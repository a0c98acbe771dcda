import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ZodError } from 'zod';
import '../../shared/schemas/zod-french';
import { isConnectionLost } from '../db/connection-lost';
import { DomainError, domainErrorOf, HTTP_STATUS, HttpError, MESSAGES, unavailable } from '../errors';

/** Fastify's own 4xx (bad JSON, body too large, unknown media type…) answered in French. */
const FRENCH_BY_STATUS: Partial<Record<number, string>> = {
  404: MESSAGES.notFound,
  405: MESSAGES.methodNotAllowed,
  413: MESSAGES.payloadTooLarge,
  414: MESSAGES.invalidRequest,
  415: MESSAGES.unsupportedMediaType,
  429: MESSAGES.tooManyRequests,
};

/** One error shape for the REST facade: { status, message, violations? }, the message in French. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((thrown, request, reply) => {
    // A domain error a library wrapped (a read past its deadline inside a Drizzle query error) keeps its kind.
    let error = domainErrorOf(thrown) ?? thrown;
    if (isConnectionLost(error)) {
      // Not a fault of this request: it may be sent again (a create with its Idempotency-Key).
      request.log.warn({ err: error }, 'database unreachable: 503');
      error = unavailable();
    }
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
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send({ status: error.statusCode, message: error.message });
    }
    const fastifyError = error as FastifyError;
    const status = fastifyError.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ status, message: FRENCH_BY_STATUS[status] ?? MESSAGES.invalidRequest });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ status: 500, message: MESSAGES.internal });
  });
}

/**
 * Fastify's `frameworkErrors`: a path the router cannot decode ('/api/partenaires/%', '%zz', a broken
 * UTF-8 escape) or a parameter over maxParamLength is refused before any route matches, and Fastify's
 * default answer is English and echoes the path. Same shape and French message as every other 4xx.
 */
export function frameworkErrors(error: FastifyError, _request: unknown, reply: FastifyReply): void {
  const status = error.statusCode ?? 400;
  const message = status >= 500 ? MESSAGES.internal : (FRENCH_BY_STATUS[status] ?? MESSAGES.invalidRequest);
  void reply.code(status).send({ status, message });
}
