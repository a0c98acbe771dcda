// The background worker of the server process that empties the outbox. It polls every second while
// there is work and backs off to maxIdleMs otherwise; enqueueMail() wakes it once the message is committed
// (db.afterCommit), the polling stays as the fallback. Its timers are unref'd
// and stop() ends it cleanly, so it never keeps a process (or a test) alive.
import type { BusinessCalendar } from '#shared/calendar';
import type { JournalContext } from '#server/context';
import type { Database } from '#server/db/client';
import { DEFAULT_POLICY, deliverDueMail, msUntilNextDue, type DeliveryPolicy } from './delivery';
import { onMailQueued } from './outbox';
import { DEFAULT_RETENTION_MS, purgeExpired } from './retention';
import { beat, HEARTBEAT_MS, newWorkerId, unregister } from './workers';
import { createMailTransport, type MailTransport, type TransportConfig } from './transport';

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface MailWorkerOptions {
  db: Database;
  /** The access log's settings and refusal windows: the hourly purge trims the log and writes the windows. */
  journal: JournalContext;
  /** The business calendar: the log is kept by business days (journal/retention.ts). */
  calendar: BusinessCalendar;
  config: TransportConfig;
  log: Logger;
  /** Defaults to SMTP (SMTP_URL) or .eml files (mailDir, default data/mail). */
  transport?: MailTransport;
  mailDir?: string;
  policy?: Partial<DeliveryPolicy>;
  /** Poll interval while there is work. */
  pollMs?: number;
  /** Longest sleep when the outbox is empty. */
  maxIdleMs?: number;
  /** A send still running this long after stop() is aborted (the message is retried later). */
  stopGraceMs?: number;
  /** Sent messages and used or expired password links older than this are deleted (MAIL_RETENTION_DAYS). */
  retentionMs?: number;
  /** How often the purge runs (it also runs at start). */
  purgeEveryMs?: number;
}

export interface MailWorker {
  readonly transport: MailTransport;
  /** This worker's id in mail_workers (written on the messages it claims). */
  readonly id: string;
  /** Looks at the outbox now (a message has been committed to it). */
  kick(): void;
  /** Whether it is waiting between two looks at the outbox (a test waits for it instead of a fixed time). */
  readonly sleeping: boolean;
  /** Stops polling, lets a running send finish (or aborts it after stopGraceMs), then resolves. */
  stop(): Promise<void>;
}

export function startMailWorker(options: MailWorkerOptions): MailWorker {
  const { db, log } = options;
  const id = newWorkerId();
  const policy: DeliveryPolicy = { ...DEFAULT_POLICY, ...options.policy, workerId: id };
  const retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
  const purgeEveryMs = options.purgeEveryMs ?? 60 * 60_000;
  let purgedAt = 0;
  const pollMs = options.pollMs ?? 1000;
  const maxIdleMs = options.maxIdleMs ?? 30_000;
  const stopGraceMs = options.stopGraceMs ?? 5000;
  const transport =
    options.transport ?? createMailTransport(options.config, { mailDir: options.mailDir, log });

  let stopped = false;
  let idleMs = pollMs;
  let kicked = false;
  const abort = new AbortController();
  interface Sleep {
    timer: NodeJS.Timeout;
    wake: () => void;
  }
  let sleeping: Sleep | null = null;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const entry: Sleep = {
        timer: setTimeout(() => entry.wake(), ms),
        wake: () => {
          clearTimeout(entry.timer);
          if (sleeping === entry) sleeping = null;
          resolve();
        },
      };
      entry.timer.unref();
      sleeping = entry;
    });

  async function loop(): Promise<void> {
    while (!stopped) {
      let delay: number;
      try {
        kicked = false;
        if (Date.now() - purgedAt >= purgeEveryMs) {
          purgedAt = Date.now();
          const purged = await purgeExpired(
            { db, journal: options.journal, calendar: options.calendar },
            retentionMs,
          );
          if (purged.mails + purged.links > 0)
            log.info(purged, 'rétention : anciens e-mails envoyés et liens de mot de passe supprimés');
          if (purged.accessLog.entries > 0)
            log.info(purged.accessLog, 'rétention : entrées anciennes du journal des accès supprimées');
        }
        const claimed = await deliverDueMail(db, transport, policy, {
          signal: abort.signal,
          log,
          shouldStop: () => stopped,
        });
        if (claimed > 0) {
          idleMs = pollMs;
          continue;
        }
        const dueIn = await msUntilNextDue(db);
        delay = dueIn === null ? idleMs : Math.min(dueIn, idleMs);
        idleMs = Math.min(idleMs * 2, maxIdleMs);
      } catch (error) {
        if (stopped) break;
        log.error({ err: error }, "file d'envoi des e-mails : erreur, nouvel essai plus tard");
        delay = idleMs;
        idleMs = Math.min(idleMs * 2, maxIdleMs);
      }
      // Kicked while busy: look again at once.
      if (kicked) delay = 0;
      if (!stopped) await sleep(delay);
    }
  }

  const kick = () => {
    if (stopped) return;
    idleMs = pollMs;
    kicked = true;
    sleeping?.wake();
  };

  const unsubscribe = onMailQueued((queuedOn) => {
    if (queuedOn === db) kick();
  });
  // Alive as long as it beats; the first beat comes before the first claim.
  const beating = (async () => beat(db, id))().catch(() => undefined);
  const heartbeat = setInterval(() => {
    beat(db, id).catch((error: unknown) =>
      log.warn({ err: error }, "file d'envoi des e-mails : battement non enregistré"),
    );
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const running = beating.then(loop);
  log.info({ via: transport.description, worker: id }, 'envoi des e-mails démarré');

  return {
    transport,
    id,
    kick,
    get sleeping() {
      return sleeping !== null;
    },
    async stop() {
      if (stopped) return running;
      stopped = true;
      unsubscribe();
      sleeping?.wake();
      const grace = setTimeout(() => abort.abort(new Error("Arrêt du serveur pendant l'envoi")), stopGraceMs);
      grace.unref();
      try {
        await running;
      } finally {
        clearTimeout(grace);
        clearInterval(heartbeat);
        transport.close();
        // A clean stop says so at once: its messages are not waited for.
        await unregister(db, id).catch(() => undefined);
      }
    },
  };
}
