import type { FastifyInstance } from 'fastify';
import { keyMatches, readVerifier } from '../crypto/data-key';
import type { AppContext } from '../context';
import type { Database } from '../db/client';
import { mailBacklog } from '../domains/mail/backlog';
import type { ThreadPoolHealth } from '../db/threads/pool';
import { z } from 'zod';
import { operation } from './api-doc/operation';
import { holdsMetricsToken } from './metrics';

/**
 * Health check (README « Health and metrics »). « error » (503) when the database does
 * not answer, when writes fail for a cause every write would meet (full disk, I/O error, read-only
 * database), when the database lost its data key verifier or holds another key's, or when every thread of
 * a pool is stuck; « degraded » (200) while a thread stopped at its deadline is still running (its
 * replacement serves). Anyone gets `{ status }`, « ok » or « error » (up or down); the holder of
 * METRICS_TOKEN gets the details. Counts and states only: no names, addresses or subjects.
 *
 * Cheap: two small reads (the outbox's counts, the verifier row) and, at most every few seconds, one small
 * write (server/db/write-health.ts).
 */
// Anyone gets `status`; the holder of METRICS_TOKEN gets the details, which the document leaves open.
const healthSchema = z.object({ status: z.enum(['ok', 'degraded', 'error']) }).loose();

export function healthRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const { config } = ctx;
  app.get(
    '/api/health',
    operation(
      {
        summary: 'État du service : « ok » ou « error » (les détails au porteur de METRICS_TOKEN).',
        access: 'public',
        responses: {
          200: { description: 'Le service répond.', schema: healthSchema },
          503: { description: 'Le service ne peut pas servir.', schema: healthSchema },
        },
      },
      // A probe sees the server's state under load, not a place in the reads' line (decision 0056).
      { unqueued: true },
    ),
    async (request, reply) => {
      const report = await healthReport(ctx).catch((error: unknown) => {
        request.log.error({ err: error }, 'health check: database unreachable');
        return { status: 'error' as const, database: 'indisponible' as const };
      });
      reply.code(report.status === 'error' ? 503 : 200);
      if (!holdsMetricsToken(request, config.METRICS_TOKEN))
        return { status: report.status === 'error' ? 'error' : 'ok' };
      return report;
    },
  );
}

/** The probe's row: a counter window of the public limit's table that no limit reads (purged hourly). */
const PROBE_KEY = 'health:write-probe';

function probeWrite(db: Database) {
  const w = db.t.rateWindows;
  const now = new Date();
  return db.transaction((tx) =>
    tx
      .insert(w)
      .values({ key: PROBE_KEY, startedAt: now, count: 1 })
      .onConflictDoUpdate({ target: w.key, set: { startedAt: now, count: 1 } }),
  );
}

/** The data key the server started with still opens this database (null: no key loaded, not checked). */
async function keyState({ db, cipher }: AppContext): Promise<'ok' | 'absente' | 'différente' | null> {
  if (!cipher) return null;
  const verifier = await readVerifier(db);
  if (verifier === null) return 'absente';
  return keyMatches(cipher, verifier) ? 'ok' : 'différente';
}

function threadState(pool: ThreadPoolHealth | null | undefined) {
  if (!pool) return undefined;
  return { ...pool, state: pool.down ? 'bloqués' : pool.stuck > 0 ? 'dégradés' : 'ok' };
}

async function healthReport(ctx: AppContext) {
  const { db } = ctx;
  const threads = { readers: threadState(db.stats().threads), tasks: threadState(ctx.tasks?.health()) };
  const pools = [threads.readers, threads.tasks].filter((p) => p !== undefined);
  // Every reader thread stuck: the reads below would only wait for their deadline.
  if (pools.some((p) => p.down)) return { status: 'error', threads } as const;
  // Reading the outbox is the database check: a database that does not answer fails it.
  const [mail, key] = await Promise.all([
    mailBacklog(db),
    keyState(ctx),
    db.writes.probe(() => probeWrite(db)),
  ]);
  const writes = db.writes.state().failing ?? 'ok';
  const error = writes !== 'ok' || (key !== null && key !== 'ok');
  const status = error ? 'error' : pools.some((p) => p.stuck > 0) ? 'degraded' : 'ok';
  return {
    status,
    database: 'ok',
    writes,
    key: key ?? 'non chargée',
    threads,
    mail: { pending: mail.pending, failed: mail.failed, oldestPendingSeconds: mail.oldestPendingSeconds },
  } as const;
}
