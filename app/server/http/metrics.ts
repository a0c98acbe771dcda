// Operations (README « Health and metrics »): /metrics in Prometheus' text format, for a scraper holding
// METRICS_TOKEN (`Authorization: Bearer …`); without that setting the route answers 404. No session opens it
// and no session is needed. Labels are route patterns and tRPC procedure names, never a URL with its ids or
// search terms. One registry per application (tests build many), and one of the process's own figures.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { DomainError, MESSAGES } from '../errors';
import { mailBacklog } from '../domains/mail/backlog';
import { appRouter } from '../trpc/router';
import { TRPC_MAX_BATCH } from '#shared/constants';

const PROCEDURES = new Set(Object.keys(appRouter._def.procedures));

/** The tRPC procedures a request names, when every name is a real one and the batch is within its cap. */
function procedureNames(request: FastifyRequest): string[] | null {
  const path = (request.params as { path?: string }).path ?? '';
  const names = path.split(',');
  return names.length <= TRPC_MAX_BATCH && names.every((n) => PROCEDURES.has(n)) ? names : null;
}

/**
 * The route a request matched, as a label from a fixed set: its pattern, one tRPC procedure, or « /trpc
 * (lot) » for a batch (a batch's names in the label would let anyone, even without a session, create new
 * series without end by ordering and repeating names).
 */
export function routeLabel(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (!pattern) return 'aucune';
  if (request.routeOptions.config.procedures) {
    const names = procedureNames(request);
    if (!names) return '/trpc/inconnue';
    return names.length === 1 ? `/trpc/${names[0]}` : '/trpc (lot)';
  }
  if (request.routeOptions.config.clientFile) return '/admin (client)';
  return pattern;
}

/** Compares digests, so neither the time nor an early return tells the token's length. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Whether the request carries METRICS_TOKEN (`Authorization: Bearer …`); never without the setting. */
export function holdsMetricsToken(request: FastifyRequest, token: string | undefined): boolean {
  if (!token) return false;
  const header = request.headers.authorization ?? '';
  return header.startsWith('Bearer ') && sameSecret(header.slice('Bearer '.length), token);
}

/**
 * The process's own figures (memory, event loop, collector), collected once per process: each collection
 * keeps an event-loop delay monitor sampling every 10 ms and a collector observer for the life of the
 * process, and a test process builds apps by the dozen, one test file after another.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function registerMetrics(app: FastifyInstance, db: Database, config: Config) {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Requêtes HTTP traitées',
    labelNames,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Durée des requêtes HTTP (du début de la requête à la fin de la réponse)',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const calls = new Counter({
    name: 'trpc_calls_total',
    help: 'Appels de procédures tRPC, lots compris (une par procédure appelée)',
    labelNames: ['procedure'] as const,
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const labels = { method: request.method, route: routeLabel(request), status: String(reply.statusCode) };
    requests.inc(labels);
    durations.observe(labels, reply.elapsedTime / 1000);
    if (request.routeOptions.config.procedures)
      for (const procedure of procedureNames(request) ?? []) calls.inc({ procedure });
  });

  const backlog = new Gauge({
    name: 'mail_outbox_pending',
    help: 'Messages en attente d’envoi',
    registers: [registry],
  });
  const failed = new Gauge({
    name: 'mail_outbox_failed',
    help: 'Messages en échec, en attente d’un administrateur',
    registers: [registry],
  });
  const oldest = new Gauge({
    name: 'mail_outbox_oldest_pending_seconds',
    help: 'Âge du plus ancien message en attente (0 sans attente)',
    registers: [registry],
  });
  const connections = new Gauge({
    name: 'db_pool_connections',
    help: 'Connexions à la base de ce processus, par état',
    labelNames: ['state'] as const,
    registers: [registry],
  });
  const up = new Gauge({ name: 'db_up', help: 'La base répond (1) ou non (0)', registers: [registry] });
  // The read gate (read-gate.ts, decision 0056): a line that stays long says READS_AT_ONCE is too small.
  const reads = new Gauge({
    name: 'http_reads',
    help: 'Lectures (GET, HEAD) de ce processus servies ou en file, par état',
    labelNames: ['state'] as const,
    registers: [registry],
  });
  const writes = new Gauge({
    name: 'http_writes_handled',
    help: 'Écritures d’un appelant connecté en cours (une seule lecture admise à la fois pendant ce temps)',
    registers: [registry],
  });

  // This application's figures and the process's: merged once every metric above exists (merge copies them).
  const scraped = Registry.merge([processMetrics(), registry]);
  // Outside /api, so not no-store by its path: figures of the running server are for the scraper alone.
  app.get('/metrics', { config: { public: true, noStore: true, unqueued: true } }, async (request, reply) => {
    const token = config.METRICS_TOKEN;
    if (!token) throw new DomainError('not_found', MESSAGES.notFound);
    if (!holdsMetricsToken(request, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new DomainError('unauthenticated', MESSAGES.unauthenticated);
    }
    try {
      const mail = await mailBacklog(db);
      backlog.set(mail.pending);
      failed.set(mail.failed);
      oldest.set(mail.oldestPendingSeconds ?? 0);
      up.set(1);
    } catch (error) {
      request.log.error({ err: error }, 'metrics: database unreachable');
      up.set(0);
    }
    const stats = db.stats();
    connections.set({ state: 'idle' }, stats.idle);
    connections.set({ state: 'active' }, stats.connections - stats.idle);
    connections.set({ state: 'waiting' }, stats.waiting);
    reads.set({ state: 'running' }, app.readGate.running);
    reads.set({ state: 'waiting' }, app.readGate.waiting);
    writes.set(app.readGate.writing);
    return reply.type(scraped.contentType).send(await scraped.metrics());
  });
}
