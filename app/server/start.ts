import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { loadConfig, type Config } from './config';
import { createAppContext, databaseOptions, type AppContext, type Clock } from './context';
import type { DataCipher } from './crypto/cipher';
import { openDataKey } from './crypto/data-key';
import { encryptPlaintext, type PlaintextMigration } from './crypto/migrate-plaintext';
import { syncBusinessCalendar, type CalendarSync } from './db/business-calendar';
import { openDatabase, type Database } from './db/client';
import { seed } from './db/seed/index';
import { startMailWorker, type MailWorker } from './domains/mail/worker';
import { startDigestScheduler, type DigestScheduler } from './domains/rappels/scheduler';
import { startWebhookWorker, webhookPolicyOf, type WebhookWorker } from './domains/webhooks/worker';
import { ensureFirstAdmin } from './domains/utilisateurs/first-admin';
import { drainConnections, shutdownSchedule } from './http/drain';

export { DEFAULT_ADMIN_EMAIL } from './domains/utilisateurs/first-admin';

export interface Running {
  app: FastifyInstance;
  db: Database;
  config: Config;
  /** The application's context (server/context.ts). */
  ctx: AppContext;
  url: string;
  /** Delivers the outbox (SMTP_URL, or .eml files under data/mail/). */
  mail: MailWorker;
  /** Queues the daily reminders once per business day (docs/decisions/0036-daily-reminders.md). */
  digests: DigestScheduler;
  /** Delivers the signed webhooks to the partners' endpoints (docs/decisions/0039-signed-webhooks.md). */
  webhooks: WebhookWorker;
  close(): Promise<void>;
}

export interface StartOptions {
  /**
   * The services' clock (default: the system's). Only the browser tests pass one, to move the server's time
   * (tests/e2e/harness.ts); server/index.ts never does, and no request can reach it.
   */
  clock?: Clock;
}

/** Migrates, seeds, creates the first administrator, then listens. */
export async function start(
  env: Record<string, string | undefined> = process.env,
  options: StartOptions = {},
): Promise<Running> {
  const config = loadConfig(env);
  const db = openDatabase(config.DATABASE_URL, databaseOptions(config));
  let prepared: {
    cipher: DataCipher;
    createdKeyFile: string | null;
    encrypted: PlaintextMigration;
    calendar: CalendarSync;
  };
  try {
    // Several servers starting at once on one PostgreSQL take turns for all of this.
    prepared = await db.exclusively(async () => {
      await db.migrate();
      const calendar = await syncBusinessCalendar(db, config.APP_TIMEZONE);
      // Before anything reads or writes a source: refuses to start without the right key.
      const { cipher, createdKeyFile } = await openDataKey(db, config);
      const encrypted = await encryptPlaintext(db, cipher);
      await seed(db);
      await ensureFirstAdmin(db, config);
      return { cipher, createdKeyFile, encrypted, calendar };
    });
  } catch (error) {
    await db.close();
    throw error;
  }
  const { cipher, createdKeyFile, encrypted, calendar } = prepared;
  // SQLite: the database is marked as served by this process (db:restore refuses to replace it meanwhile).
  try {
    db.dialect.claimServer(config.DATABASE_URL);
  } catch (error) {
    await db.close();
    throw error;
  }
  // SQLite: the report list and a report are built on threads of their own, as many as the reader threads.
  const ctx = createAppContext(config, { db, cipher, taskThreads: db.readThreads, clock: options.clock });
  const app = await buildApp({ ctx });
  if (createdKeyFile) {
    app.log.warn(
      { keyFile: createdKeyFile },
      `Clé de chiffrement des sources créée dans ${createdKeyFile} : sauvegardez-la avec la base, sans elle les sources sont illisibles.`,
    );
  }
  if (calendar.rebuilt && calendar.previousZone !== calendar.zone) {
    app.log.info(
      { zone: calendar.zone, previousZone: calendar.previousZone },
      `Calendrier : les jours sont ceux du fuseau ${calendar.zone} ; compteurs journaliers recalculés.`,
    );
  }
  if (
    encrypted.sources + encrypted.history + encrypted.totpKeys + encrypted.notes + encrypted.webhookSecrets >
    0
  ) {
    app.log.info(
      encrypted,
      'Données en clair d’une version précédente chiffrées (sources, historique, clés TOTP, notes internes, secrets des webhooks).',
    );
  }
  let address: string;
  try {
    address = await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    await app.close();
    await ctx.tasks?.close();
    await db.close();
    db.dialect.releaseServer(config.DATABASE_URL);
    throw error;
  }
  const port = new URL(address).port;
  const budgetMs = config.SHUTDOWN_TIMEOUT_SECONDS * 1000;
  // The mail worker gets a fifth of the shutdown budget to finish a send (it is retried later otherwise).
  const mail = startMailWorker({
    db,
    journal: ctx.journal,
    calendar: ctx.calendar,
    config,
    log: app.log,
    stopGraceMs: Math.min(5000, budgetMs / 5),
    retentionMs: config.MAIL_RETENTION_DAYS * 24 * 60 * 60_000,
  });
  const digests = startDigestScheduler({ ctx, log: app.log });
  const webhooks = startWebhookWorker({
    db,
    cipher,
    workerId: mail.id,
    log: app.log,
    clock: ctx.clock,
    policy: webhookPolicyOf(config),
    stopGraceMs: Math.min(5000, budgetMs / 5),
  });
  return {
    app,
    db,
    config,
    ctx,
    url: `http://127.0.0.1:${port}`,
    mail,
    digests,
    webhooks,
    async close() {
      // Answers in progress (a long export) get the budget but the time needed to close the threads and
      // the database (http/drain.ts); connections still open then are cut, so a client that never finishes
      // its request cannot hold the process. A cut answer stays detectably incomplete: it is
      // chunked, and its last chunk is never sent (docs/decisions/0019-durability.md).
      const cut = setTimeout(() => {
        app.log.warn('arrêt : connexions encore ouvertes coupées (SHUTDOWN_TIMEOUT_SECONDS)');
        app.server.closeAllConnections();
      }, shutdownSchedule(config.SHUTDOWN_TIMEOUT_SECONDS).cutMs);
      cut.unref();
      try {
        await Promise.all([
          drainConnections(app).then(() => app.close()),
          mail.stop(),
          digests.stop(),
          webhooks.stop(),
        ]);
      } finally {
        clearTimeout(cut);
      }
      await ctx.tasks?.close();
      await db.close();
      db.dialect.releaseServer(config.DATABASE_URL);
    },
  };
}
