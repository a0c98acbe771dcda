// The timer of the daily reminders in each server (docs/decisions/0036-daily-reminders.md): every minute it
// asks sendDailyDigests whether today's reminders are due; the database decides which server sends them.
// Unref'd (never keeps the process alive) and stopped on shutdown, like the mail worker.
import { sendDailyDigests, type DigestContext } from './digest';

export const DIGEST_CHECK_MS = 60_000;

export interface DigestScheduler {
  /** Looks now (what the timer does each minute); a look already running is awaited, not doubled. */
  check(): Promise<void>;
  /** Stops the timer and waits for a look in progress. */
  stop(): Promise<void>;
}

export function startDigestScheduler(options: {
  ctx: DigestContext;
  log: { info(details: object, message: string): void; error(details: object, message: string): void };
  intervalMs?: number;
}): DigestScheduler {
  const { ctx, log } = options;
  let running: Promise<void> | null = null;
  let stopped = false;
  const check = (): Promise<void> => {
    if (running) return running;
    if (stopped) return Promise.resolve();
    running = sendDailyDigests(ctx)
      .then((run) => {
        if (run) log.info({ day: run.day, mails: run.mails }, 'Rappels quotidiens mis en file d’envoi.');
      })
      .catch((error: unknown) => {
        // Nothing was claimed (the transaction rolled back): the next look tries again.
        log.error({ err: error }, 'Rappels quotidiens : échec, nouvel essai à la prochaine minute.');
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => void check(), options.intervalMs ?? DIGEST_CHECK_MS);
  timer.unref();
  // A server started after the hour sends the day's reminders without waiting a minute.
  const first = setTimeout(() => void check(), 1_000);
  first.unref();
  return {
    check,
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
      await running;
    },
  };
}
