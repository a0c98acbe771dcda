// The perimeter of every request, decided on the route that matched (its own config), never on the
// raw URL: the router decodes paths (`/%61pi/…` is `/api/…`), string prefixes do not.
//
// - Unknown path: nothing here runs; the not-found handler answers 404 (or the client's index.html).
// - A file of the built client: no session work.
// - Writes (POST, PUT, PATCH, DELETE) and GETs with an effect: refused unless they come from the
//   application's own origin (Sec-Fetch-Site, then Origin); bodies are JSON only: on the REST doors
//   the types of the API Platform contract (application/json or application/ld+json; a PATCH takes
//   application/merge-patch+json, or application/json as before), on tRPC application/json alone.
// - Query strings with keys aimed at Object.prototype, and NUL or lone surrogates in the query or path
//   parameters: 400.
// - Then the session; a route that does not declare `public` (or delegate to tRPC procedures, which
//   decide from their own meta, deny by default) needs one: 401.
// - A session that still owes its second factor (code or enrolment) reaches only the routes that
//   declare `twoFactorStep`: 403 elsewhere (docs/decisions/0016-two-factor.md).
// - A partner API token (`Authorization` on a route that is not public; docs/decisions/0038): no cookie, so no
//   cross-site check; a session cookie as well is refused (400); a bad token is 401 with WWW-Authenticate;
//   each use is counted against the token's limit and logged before the work; then only the REST routes
//   that declare one of the token's scopes answer (403 elsewhere, /trpc included). Public routes ignore the
//   header (/metrics and /api/health read their own scraper's token).
// See docs/decisions/0015-security-model.md.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { SESSION_COOKIE } from '../domains/auth/session';
import { twoFactorStep } from '../domains/auth/two-factor-step';
import { authenticateToken, BEARER_MESSAGES, takeTokenUse } from '../domains/jetons-api/bearer';
import { DomainError, HttpError, MESSAGES } from '../errors';
import { refuseHostileInput } from './input-guard';
import { isHostileQuery } from './query-string';
import { authenticate } from './session-cookie';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Parameters (charset=utf-8) are the parsers' business. A form, text/plain or multipart body is never a
// write's: none of them can be sent cross-site without these types being refused here.
const REST_TYPE = /^application\/(?:ld\+)?json\s*(?:;|$)/i;
const PATCH_TYPE = /^application\/(?:merge-patch\+)?json\s*(?:;|$)/i;
// tRPC reads application/json itself; a merge-patch body would be parsed by Fastify first, and a deeply
// nested one then overflows the stack when tRPC's adapter serializes it again (a 500).
const TRPC_TYPE = /^application\/json\s*(?:;|$)/i;
// An evidence file's upload (docs/decisions/0033-evidence-files.md): the raw file, under a type that a
// cross-site form cannot send either.
const BINARY_TYPE = /^application\/octet-stream\s*(?:;|$)/i;
export const BINARY_TYPE_MESSAGE = 'Le fichier doit être envoyé tel quel, en application/octet-stream.';

function allowedOrigins(request: FastifyRequest, config: Config): string[] {
  return [new URL(config.PUBLIC_URL).origin, `${request.protocol}://${request.host}`];
}

/** Cross-site request forgery: a write, or a GET with an effect, must come from our own pages. */
export function refuseCrossSite(request: FastifyRequest, config: Config): void {
  const effectful = WRITES.has(request.method) || request.routeOptions.config.effectfulGet;
  if (!effectful) return;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) {
    if (site === 'same-origin') return;
    throw new DomainError('forbidden', MESSAGES.crossSite);
  }
  const origin = request.headers.origin;
  if (origin !== undefined) {
    if (allowedOrigins(request, config).includes(origin)) return;
    throw new DomainError('forbidden', MESSAGES.crossSite);
  }
  // No fetch metadata and no Origin: a non-browser client, or a browser too old to send them. A GET
  // with an effect then needs a header that a cross-site navigation cannot carry.
  if (!WRITES.has(request.method) && request.headers['x-requested-with'] === undefined) {
    throw new DomainError('forbidden', MESSAGES.crossSite);
  }
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

export function registerAccessControl(app: FastifyInstance, db: Database, config: Config) {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions;
    if (!route.url || route.config.clientFile) return;
    const authorization = route.config.public ? undefined : request.headers.authorization;
    if (authorization !== undefined) {
      if (request.cookies[SESSION_COOKIE] !== undefined)
        throw new DomainError('invalid', BEARER_MESSAGES.bothCredentials);
    } else {
      refuseCrossSite(request, config);
    }
    const bodyType = route.config.procedures
      ? TRPC_TYPE
      : route.config.binaryBody
        ? BINARY_TYPE
        : request.method === 'PATCH'
          ? PATCH_TYPE
          : REST_TYPE;
    if (
      WRITES.has(request.method) &&
      hasBody(request) &&
      !bodyType.test(request.headers['content-type'] ?? '')
    ) {
      throw new HttpError(415, route.config.binaryBody ? BINARY_TYPE_MESSAGE : MESSAGES.unsupportedMediaType);
    }
    if (isHostileQuery(request.query)) throw new DomainError('invalid', MESSAGES.forbiddenKey);
    refuseHostileInput(request.query);
    refuseHostileInput(request.params);
    if (authorization !== undefined) {
      // A header sent twice arrives as a list: malformed, like any other spelling but `Bearer <token>`.
      const header = typeof authorization === 'string' ? authorization : '';
      const auth = await authenticateToken(db, header, request.ip);
      request.auth = auth;
      const code = (request.params as Record<string, unknown> | undefined)?.code;
      await takeTokenUse(
        db,
        auth,
        { method: request.method, route: route.url, signalement: typeof code === 'string' ? code : null },
        config.API_TOKEN_REQUESTS_PER_MINUTE,
      );
      if (route.config.procedures) throw new DomainError('forbidden', BEARER_MESSAGES.notForTrpc);
      const scope = route.config.scope;
      if (scope === undefined || !auth.jeton.scopes.includes(scope))
        throw new DomainError('forbidden', BEARER_MESSAGES.outOfScope);
      return;
    }
    await authenticate(request, reply, db, config);
    if (route.config.public || route.config.procedures) {
      if (route.config.publicLookup) await app.publicLookups.take(request.ip);
      return;
    }
    if (!request.auth) throw new DomainError('unauthenticated', MESSAGES.unauthenticated);
    if (!route.config.twoFactorStep && twoFactorStep(request.auth, config) !== null) {
      throw new DomainError('forbidden', MESSAGES.twoFactorRequired);
    }
    // A partner's own door (docs/decisions/0051): a staff session, whatever its role, does not open it.
    if (route.config.tokenOnly) throw new DomainError('forbidden', BEARER_MESSAGES.tokenOnly);
  });
  // Parsed bodies (REST; tRPC inputs are checked by each procedure's perimeter middleware).
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config.procedures) return;
    refuseHostileInput(request.body);
  });
}
