import { constants as zlibConstants } from 'node:zlib';
import { existsSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import cookie from '@fastify/cookie';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { AppContext, RequestContext } from './context';
import { passwordTokenRoutes } from './domains/auth/password-tokens-rest';
import { apiDocsRoutes, registerApiDocumentationLink } from './http/api-doc/routes';
import { authRoutes } from './domains/auth/rest';
import { twoFactorStep } from './domains/auth/two-factor-step';
import { journalRoutes } from './domains/journal/rest';
import { flushLoginRefusals } from './domains/journal/refusals';
import { dashboardRoutes } from './domains/dashboard/rest';
import { delaisRoutes } from './domains/delais/rest';
import { webhooksRoutes } from './domains/webhooks/rest';
import { preferencesRoutes } from './domains/rappels/rest';
import { mailRoutes } from './domains/mail/rest';
import { partenairesRoutes } from './domains/partenaires/rest';
import { utilisateursRoutes } from './domains/utilisateurs/rest';
import { personnesRoutes } from './domains/personnes/rest';
import { notesRoutes } from './domains/notes/rest';
import { evidenceRoutes } from './domains/evidence/rest';
import { projectsRoutes } from './domains/projects/rest';
import { referentielsRoutes } from './domains/referentiels/rest';
import { signalementsRoutes } from './domains/signalements/rest';
import { registerMergePatch } from './http/merge-patch';
import { MESSAGES } from './errors';
import { clientErrorHandler, frameworkErrors, registerErrorHandler } from './http/errors';
import { logSerializers } from './http/log-serializers';
import { healthRoutes } from './http/health';
import { registerMetrics } from './http/metrics';
import { registerSecurityHeaders, securityHeaders } from './http/security-headers';
import { registerAccessControl } from './http/access';
import { fastifyTrustProxy, registerClientAddress } from './http/client-address';
import { PublicLookupLimiter } from './http/public-limit';
import { parseQueryString } from './http/query-string';
import { registerDrain, shutdownSchedule } from './http/drain';
import { DEFAULT_READS_AT_ONCE, ReadGate, registerReadGate } from './http/read-gate';
import { registerWritersLane } from './http/writers-lane';
import { appRouter, type AppRouter } from './trpc/router';
import { PATHS } from './paths';
import { TRPC_MAX_BATCH } from '#shared/constants';

export interface BuildAppOptions {
  /** The application's context (createAppContext): decorated on the app as `ctx`, spread into tRPC's. */
  ctx: AppContext;
  /** Folder of the built client; defaults to dist/web. */
  webRoot?: string;
  /** Where logs go (standard output by default); tests read them. */
  logStream?: NodeJS.WritableStream;
}

const SECRET_PATHS = /(\/definir-mot-de-passe\/)[^/?]+/g;

/**
 * The path written in the request log. A route whose path holds a secret (a password link's token)
 * declares it with a `:token` parameter: its pattern is logged instead, whatever the spelling of the
 * request (`/api/d%65finir-…` matches the same route). Unmatched paths are redacted as before.
 */
function loggedPath(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (pattern?.includes(':token')) return pattern.replace(':token', '***');
  return request.url.split('?')[0]!.replace(SECRET_PATHS, '$1***');
}

export async function buildApp({ ctx, webRoot, logStream }: BuildAppOptions): Promise<FastifyInstance> {
  const { db, config } = ctx;
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      // Database errors without the values of their query (server/http/log-serializers.ts).
      serializers: logSerializers,
      ...(logStream ? { stream: logStream } : {}),
    },
    frameworkErrors: frameworkErrors(securityHeaders(config)),
    clientErrorHandler: clientErrorHandler(securityHeaders(config)),
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: fastifyTrustProxy(config.TRUST_PROXY),
    // During a shutdown, requests already on a connection are served (http/drain.ts), not refused in English.
    return503OnClosing: false,
    bodyLimit: 2 * 1024 * 1024,
    // tRPC batches several procedures into one /trpc/a,b,c path: Fastify's 100-character default
    // for a path parameter would refuse a detail page's batch with 414 (as tRPC's Fastify docs warn).
    routerOptions: { maxParamLength: 5000, querystringParser: parseQueryString },
  });

  app.decorate('ctx', ctx);

  // First of all hooks: every later one reads request.ip.
  registerClientAddress(app, config.TRUST_PROXY);
  // Then: a request that may write takes the database's connections before those that only read, from its
  // session check to its answer (server/db/lanes.ts, decision 0054).
  registerWritersLane(app);
  // Then: reads beyond READS_AT_ONCE wait in line before any work, so that writes find the thread free
  // (http/read-gate.ts, decision 0056).
  registerReadGate(
    app,
    new ReadGate(config.READS_AT_ONCE ?? DEFAULT_READS_AT_ONCE),
    // A write counts for a partner's token or a session past its second factor (access.ts ran before).
    ({ auth }) => auth !== null && (auth.jeton !== undefined || twoFactorStep(auth, config) === null),
  );

  // Log-ins refused by the limiter and still only counted become their summary rows (journal/refusals.ts).
  app.addHook('onClose', async () => {
    await flushLoginRefusals(ctx.journal.refusals, db, ctx.clock.now().getTime(), true).catch(
      (error: unknown) =>
        app.log.warn({ err: error }, 'journal des accès : résumé des connexions refusées non écrit'),
    );
  });

  // One line per request; no query string (it may carry search terms), no token path segment.
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: loggedPath(request),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
        user: request.auth?.user.code,
      },
      'request',
    );
  });

  registerSecurityHeaders(app, config);
  registerApiDocumentationLink(app);
  registerDrain(app, shutdownSchedule(config.SHUTDOWN_TIMEOUT_SECONDS).idleGraceMs);

  // Every route, with its config read when asked (child plugins complete it after this hook ran).
  const routes: FastifyInstance['routeList'] = [];
  app.decorate('routeList', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') {
        routes.push({
          method,
          url: route.url,
          get config() {
            return route.config ?? {};
          },
        });
      }
    }
  });
  app.decorate('publicLookups', new PublicLookupLimiter(ctx));

  await app.register(cookie);
  // API answers (JSON) are compressed on the fly above 1 KB (README « Delivery »: a list page is 14 KB of
  // JSON, 2.4 KB in brotli, on a 1.6 Mb/s link). Static files are precompressed at build and already carry
  // their encoding, which the plugin leaves alone. BREACH needs an attacker able to send authenticated
  // requests that reflect its guesses: the session cookie is SameSite=Lax, so a cross-site page cannot
  // (docs/decisions/0015). The client's files are never compressed on a request (they are precompressed at
  // build, or too small).
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/admin')) route.compress = false;
  });
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  registerErrorHandler(app);

  // Deny by default, decided on the matched route's config (server/http/access.ts).
  registerAccessControl(app, db, config);
  registerMergePatch(app);

  // tRPC's one route delegates the session check to each procedure's meta (server/trpc/init.ts).
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, procedures: true };
      // tRPC answers GET (queries) and POST (mutations); the adapter's catch-all would hand other
      // methods (TRACE…) to a fetch Request that refuses them with a 500.
      route.method = ['GET', 'POST'];
    });
    await scope.register(fastifyTRPCPlugin, {
      prefix: '/trpc',
      trpcOptions: {
        router: appRouter,
        maxBatchSize: TRPC_MAX_BATCH,
        createContext: ({ req, res, info }): RequestContext => ({
          ...ctx,
          req,
          res,
          auth: req.auth,
          batchSize: info.calls.length,
          publicLookups: app.publicLookups,
        }),
      } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
    });
  });

  healthRoutes(app);
  registerMetrics(app, db, config);
  authRoutes(app, db, config);
  utilisateursRoutes(app, db, config);
  passwordTokenRoutes(app, db);
  partenairesRoutes(app, db);
  mailRoutes(app, db);
  signalementsRoutes(app, db, config);
  personnesRoutes(app);
  notesRoutes(app);
  evidenceRoutes(app);
  projectsRoutes(app, db);
  referentielsRoutes(app, db);
  dashboardRoutes(app, db);
  journalRoutes(app);
  delaisRoutes(app);
  webhooksRoutes(app);
  preferencesRoutes(app);
  apiDocsRoutes(app);

  await registerClient(app, webRoot ?? PATHS.webRoot);
  return app;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Vite names every file under assets/ after its content: a new build gives new names, so a browser may
 * keep them a year without asking. index.html keeps its name and points to the current ones: `no-cache`
 * makes the browser revalidate it (a 304 by ETag when nothing changed).
 */
export function clientCacheControl(root: string, file: string): string {
  return relative(root, file).startsWith(`assets${sep}`) ? IMMUTABLE : 'no-cache';
}

/**
 * The service worker, a file of the build like the others (public, no session): it may control the whole
 * origin, /admin included (the manifest's start_url, outside /admin/), which its own folder would not
 * allow without this header (docs/decisions/0049-installable-offline-shell.md).
 */
export function isServiceWorker(root: string, file: string): boolean {
  // The file sent may be its precompressed copy (sw.js.br, sw.js.gz).
  return relative(root, file).replace(/\.(?:br|gz)$/, '') === 'sw.js';
}

/** Serves the built React client under /admin, with index.html for every client-side route. */
async function registerClient(app: FastifyInstance, root: string) {
  const index = resolve(root, 'index.html');
  const built = existsSync(index);
  // The client's files and redirects need no session and do no database work. @fastify/static
  // declares each file's route with config.file; this marks those, and only while it registers.
  let registeringClient = false;
  app.addHook('onRoute', (route) => {
    if (registeringClient && route.config && 'file' in route.config) route.config.clientFile = true;
  });
  if (built) {
    registeringClient = true;
    await app.register(fastifyStatic, {
      root,
      prefix: '/admin/',
      index: false,
      wildcard: false,
      // The build writes a .br and a .gz beside each text file (scripts/compress-assets.ts): one is picked
      // by Accept-Encoding, with `Vary: Accept-Encoding`; those copies get no route of their own.
      preCompressed: true,
      globIgnore: ['**/*.br', '**/*.gz'],
      cacheControl: false,
      setHeaders: (reply, path) => {
        reply.header('cache-control', clientCacheControl(root, path));
        if (isServiceWorker(root, path)) reply.header('service-worker-allowed', '/');
      },
    });
    registeringClient = false;
  }
  const client = { config: { clientFile: true } };
  app.get('/', client, (_req, reply) => reply.redirect('/admin/'));
  app.get('/admin', client, (_req, reply) => reply.redirect('/admin/'));
  app.setNotFoundHandler((request, reply) => {
    const isPage = request.method === 'GET' && request.url.startsWith('/admin/');
    const isAsset = /\.[a-z0-9]+$/i.test(request.url.split('?')[0]!);
    if (isPage && !isAsset) {
      if (!built) {
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send('Client non construit : lancez « npm run build ».');
      }
      return reply.sendFile('index.html', root);
    }
    // An unknown /api path, or any path no route has: answered like the API, never kept by a cache.
    return reply
      .code(404)
      .header('cache-control', 'no-store')
      .send({ status: 404, message: MESSAGES.notFound });
  });
}
