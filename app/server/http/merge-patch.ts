import type { FastifyInstance } from 'fastify';

/** PATCH bodies of the REST facade are JSON merge-patch documents (RFC 7396). */
export function registerMergePatch(app: FastifyInstance) {
  app.addContentTypeParser(
    ['application/merge-patch+json', 'application/ld+json'],
    { parseAs: 'string' },
    (_request, body, done) => {
      try {
        done(null, body === '' ? {} : JSON.parse(body as string));
      } catch {
        const error = new Error('Corps JSON invalide.') as Error & { statusCode: number };
        error.statusCode = 400;
        done(error, undefined);
      }
    },
  );
}
