// The background worker of each server process that empties the webhook outbox, shaped like the mail
// worker (docs/decisions/0004-mail-outbox.md, 0039-signed-webhooks.md): it polls while there is work,
// backs off when there is none, wakes when an event is committed, and claims under the id its process beats
// with in mail_workers, so that a delivery held by a dead process is taken again at once. Its timers are
// unref'd.
import { and, eq, lt } from 'drizzle-orm';
import type { Clock } from '#server/context';
import { systemClock } from '#server/context';
import type { DataCipher } from '#server/crypto/cipher';
import type { Database } from '#server/db/client';
import { beat, HEARTBEAT_MS, newWorkerId, unregister } from '../mail/workers';
import {
  DEFAULT_WEBHOOK_POLICY,
  deliverDueWebhooks,
  msUntilNextWebhook,
  type WebhookPolicy,
} from './delivery';
import type { PartnerAddressRule } from './addresses';
import { eraseExpiredWebhookSecrets } from './delivery-secrets';
import { onWebhookQueued } from './events';

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface WebhookWorkerOptions {
  db: Database;
  /** Opens the endpoints' signing secrets (the data key's cipher, server/crypto/webhook-secrets.ts). */
  cipher: DataCipher;
  log: Logger;
  policy?: Partial<WebhookPolicy>;
  clock?: Clock;
  /** Poll interval while there is work. */
  pollMs?: number;
  /** Longest sleep when nothing is due. */
  maxIdleMs?: number;
  /** A POST still running this long after stop() is aborted (the delivery is retried later). */
  stopGraceMs?: number;
  /** Delivered deliveries older than this are deleted, at start and every hour. */
  retentionMs?: number;
  /**
   * The id of this process's mail worker, which already beats for it in mail_workers (server/start.ts): one
   * registration per process. Without it (tests) this worker registers and beats under an id of its own.
   */
  workerId?: string;
}

/**
 * Delivered deliveries are kept this long for the screen, then deleted (dead letters stay until acted on).
 * The same hourly pass erases the former signing secrets whose grace period is over.
 */
export const WEBHOOK_RETENTION_MS = 30 * 24 * 60 * 60_000;
const PURGE_EVERY_MS = 60 * 60_000;

/** Deletes the deliveries delivered before `before`; returns how many. */
export async function purgeDeliveredWebhooks(db: Database, before: Date): Promise<number> {
  const d = db.t.webhookDeliveries;
  const gone = await db.transaction((tx) =>
    tx
      .delete(d)
      .where(and(eq(d.status, 'delivered'), lt(d.deliveredAt, before)))
      .returning({ id: d.id }),
  );
  return gone.length;
}

export interface WebhookWorker {
  readonly id: string;
  kick(): void;
  stop(): Promise<void>;
}

/** The policy of the configuration's WEBHOOK_* settings (server/config.ts). */
export function webhookPolicyOf(config: {
  WEBHOOK_TIMEOUT_SECONDS: number;
  WEBHOOK_MAX_ATTEMPTS: number;
  WEBHOOK_RETRY_BASE_SECONDS: number;
  WEBHOOK_RETRY_MAX_SECONDS: number;
  WEBHOOK_PARTNER_ADDRESSES: PartnerAddressRule;
}): Partial<WebhookPolicy> {
  return {
    partnerAddresses: config.WEBHOOK_PARTNER_ADDRESSES,
    timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
    maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
    retryBaseMs: config.WEBHOOK_RETRY_BASE_SECONDS * 1000,
    retryMaxMs: Math.max(config.WEBHOOK_RETRY_MAX_SECONDS, config.WEBHOOK_RETRY_BASE_SECONDS) * 1000,
  };
}

export function startWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { db, log, cipher } = options;
  const clock = options.clock ?? systemClock;
  const ownBeat = options.workerId === undefined;
  const id = options.workerId ?? newWorkerId();
  const policy: WebhookPolicy = { ...DEFAULT_WEBHOOK_POLICY, ...options.policy, workerId: id };
  // The lease outlives any POST by far, whatever the configured timeout.
  policy.leaseMs = Math.max(policy.leaseMs, policy.timeoutMs * 3);
  const pollMs = options.pollMs ?? 1000;
  const maxIdleMs = options.maxIdleMs ?? 30_000;
  const stopGraceMs = options.stopGraceMs ?? 5000;

  const retentionMs = options.retentionMs ?? WEBHOOK_RETENTION_MS;
  let purgedAt = -Infinity;
  let stopped = false;
  let idleMs = pollMs;
  let kicked = false;
  const abort = new AbortController();
  let wake: (() => void) | null = null;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), ms);
      timer.unref();
      const done = () => {
        clearTimeout(timer);
        wake = null;
        resolve();
      };
      wake = done;
    });

  async function loop(): Promise<void> {
    while (!stopped) {
      let delay: number;
      try {
        kicked = false;
        if (clock.now().getTime() - purgedAt >= PURGE_EVERY_MS) {
          purgedAt = clock.now().getTime();
          const purged = await purgeDeliveredWebhooks(db, new Date(purgedAt - retentionMs));
          if (purged > 0) log.info({ purged }, 'rétention : anciennes livraisons de webhooks supprimées');
          const erased = await eraseExpiredWebhookSecrets(db, clock.now());
          if (erased > 0) log.info({ erased }, 'webhooks : anciens secrets expirés effacés');
        }
        const claimed = await deliverDueWebhooks(db, policy, {
          signal: abort.signal,
          log,
          clock,
          cipher,
          shouldStop: () => stopped,
        });
        if (claimed > 0) {
          idleMs = pollMs;
          continue;
        }
        const dueIn = await msUntilNextWebhook(db, clock.now());
        // Due now yet not claimed (this process's first beat not yet written): look again after a poll.
        delay = dueIn === null ? idleMs : dueIn === 0 ? pollMs : Math.min(dueIn, idleMs);
        idleMs = Math.min(idleMs * 2, maxIdleMs);
      } catch (error) {
        if (stopped) break;
        log.error({ err: error }, "file d'envoi des webhooks : erreur, nouvel essai plus tard");
        delay = idleMs;
        idleMs = Math.min(idleMs * 2, maxIdleMs);
      }
      if (kicked) delay = 0;
      if (!stopped) await sleep(delay);
    }
  }

  const kick = () => {
    if (stopped) return;
    idleMs = pollMs;
    kicked = true;
    wake?.();
  };
  const unsubscribe = onWebhookQueued((queuedOn) => {
    if (queuedOn === db) kick();
  });
  const beating = ownBeat ? (async () => beat(db, id))().catch(() => undefined) : Promise.resolve();
  const heartbeat = ownBeat
    ? setInterval(() => {
        beat(db, id).catch((error: unknown) =>
          log.warn({ err: error }, "file d'envoi des webhooks : battement non enregistré"),
        );
      }, HEARTBEAT_MS)
    : null;
  heartbeat?.unref();
  const running = beating.then(loop);

  return {
    id,
    kick,
    async stop() {
      if (stopped) return running;
      stopped = true;
      unsubscribe();
      wake?.();
      const grace = setTimeout(() => abort.abort(new Error("Arrêt du serveur pendant l'envoi")), stopGraceMs);
      grace.unref();
      try {
        await running;
      } finally {
        clearTimeout(grace);
        if (heartbeat) clearInterval(heartbeat);
        if (ownBeat) await unregister(db, id).catch(() => undefined);
      }
    },
  };
}
