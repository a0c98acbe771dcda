import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ZodError } from 'zod';
import '#shared/schemas/zod-french';
import { retryableFault } from '../db/connection-lost';
import { answerFields, DomainError, domainErrorOf, HTTP_STATUS, HttpError, MESSAGES } from '../errors';

/** Fastify's own 4xx (bad JSON, body too large, unknown media type…) answered in French. */
const FRENCH_BY_STATUS: Partial<Record<number, string>> = {
  404: MESSAGES.notFound,
  405: MESSAGES.methodNotAllowed,
  413: MESSAGES.payloadTooLarge,
  408: MESSAGES.requestTimeout,
  414: MESSAGES.uriTooLong,
  415: MESSAGES.unsupportedMediaType,
  429: MESSAGES.tooManyRequests,
  431: MESSAGES.headersTooLarge,
};

/** One error shape for the REST facade: { status, message, violations? }, the message in French. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((thrown, request, reply) => {
    // A route that failed after choosing a file's headers (a download whose first block does not open)
    // answers its error in this shape too, not as that file: Fastify would otherwise refuse to send the
    // object under the file's type and answer its own English 500.
    if (!/json/i.test(String(reply.getHeader('content-type') ?? 'json'))) {
      for (const name of ['content-type', 'content-length', 'content-disposition']) reply.removeHeader(name);
    }
    // A domain error a library wrapped (a read past its deadline inside a Drizzle query error) keeps its kind.
    let error = domainErrorOf(thrown) ?? thrown;
    // A 4xx of the request itself (its body cut off by the client: Fastify's 400 « aborted », ECONNRESET)
    // names a socket error too, but the socket is the client's, not the database's.
    const ownRequest = typeof (error as { statusCode?: unknown }).statusCode === 'number';
    const fault = ownRequest ? null : retryableFault(error);
    if (fault) {
      // Not a fault of this request: it may be sent again (a create with its Idempotency-Key).
      request.log.warn({ err: error }, fault.log);
      error = fault.answer;
    }
    if (error instanceof DomainError) {
      // Damaged or swapped data is worth an administrator's look: logged with the row's key, never its value.
      if (error.kind === 'unreadable')
        request.log.error({ details: error.details }, 'stored value unreadable');
      const retry = error.details?.retryAfterSeconds;
      if (typeof retry === 'number') reply.header('retry-after', String(retry));
      const scheme = error.details?.wwwAuthenticate;
      if (typeof scheme === 'string') reply.header('www-authenticate', scheme);
      const status = HTTP_STATUS[error.kind];
      return reply.code(status).send({ status, message: error.message, ...answerFields(error) });
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
      return reply
        .code(status)
        .send({ status, message: FRENCH_BY_STATUS[status] ?? MESSAGES.invalidRequest });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ status: 500, message: MESSAGES.internal });
  });
}

/**
 * Fastify's `frameworkErrors`: a path the router cannot decode ('/api/partenaires/%', '%zz', a broken
 * UTF-8 escape) or a parameter over maxParamLength (414) is refused before any route matches, and Fastify's
 * default answer is English and echoes the path. Same shape and French message as every other 4xx, and
 * the security headers, which no route's hook adds here.
 */
export function frameworkErrors(headers: Record<string, string>) {
  return (error: FastifyError, _request: unknown, reply: FastifyReply): void => {
    const status = error.statusCode ?? 400;
    const message = status >= 500 ? MESSAGES.internal : (FRENCH_BY_STATUS[status] ?? MESSAGES.invalidRequest);
    void reply.code(status).headers(headers).header('cache-control', 'no-store').send({ status, message });
  };
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses (a malformed request line or header,
 * headers over the size limit, a request too slow to arrive) never reaches Fastify, and its default
 * answer is written straight to the socket, in English and without our headers. This one writes the
 * same raw answer in French, with the security headers, then closes the connection as Node would.
 */
export function clientErrorHandler(headers: Record<string, string>) {
  const extra = Object.entries({ ...headers, 'cache-control': 'no-store' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return function (this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
    // A connection reset: nobody is left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const status =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    this.log.debug({ code: error.code, status }, 'requête refusée par le serveur HTTP');
    if (socket.writable) {
      const body = JSON.stringify({ status, message: FRENCH_BY_STATUS[status] ?? MESSAGES.invalidRequest });
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n${extra}\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}
