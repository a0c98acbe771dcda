import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDataKey } from './crypto/data-key';
import { encryptPlaintext, type PlaintextMigration } from './crypto/migrate-plaintext';
import { setBusinessTimeZone } from '../shared/calendar';
import { syncBusinessCalendar, type CalendarSync } from './db/business-calendar';
import { openDatabase, type Database } from './db/client';
import { seed } from './db/seed/index';
import { passwordWeakness } from './domains/auth/password-strength';
import { startMailWorker, type MailWorker } from './domains/mail/worker';
import { countUsers, DEFAULT_ADMIN_NAME, upsertAdmin } from './domains/utilisateurs/service';

export const DEFAULT_ADMIN_EMAIL = 'admin@signalements.local';

export interface Running {
  app: FastifyInstance;
  db: Database;
  config: Config;
  url: string;
  /** Delivers the outbox (SMTP_URL, or .eml files under data/mail/). */
  mail: MailWorker;
  close(): Promise<void>;
}

/**
 * The first start of an empty database creates an administrator and prints its credentials once,
 * on standard output only (never in the structured logs).
 */
async function ensureFirstAdmin(db: Database, config: Config): Promise<void> {
  if ((await countUsers(db)) > 0) return;
  const email = config.ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL;
  if (config.ADMIN_PASSWORD) {
    // Stops the start like a bad variable does (server/index.ts prints the message alone).
    const weakness = await passwordWeakness(config.ADMIN_PASSWORD, [email, DEFAULT_ADMIN_NAME]);
    if (weakness) throw new ConfigError(`Configuration invalide :\n  - ADMIN_PASSWORD: ${weakness}`);
  }
  const { password } = await upsertAdmin(db, { email, password: config.ADMIN_PASSWORD });
  const shown = config.ADMIN_PASSWORD ? '(celui de ADMIN_PASSWORD)' : password;
  process.stdout.write(
    [
      '',
      '┌──────────────────────────────────────────────────────────────',
      '│ Premier administrateur créé (ce message ne sera plus affiché) :',
      `│   e-mail       : ${email.toLowerCase()}`,
      `│   mot de passe : ${shown}`,
      '└──────────────────────────────────────────────────────────────',
      '',
    ].join('\n') + '\n',
  );
}

/** Migrates, seeds, creates the first administrator, then listens. */
export async function start(env: Record<string, string | undefined> = process.env): Promise<Running> {
  const config = loadConfig(env);
  const db = openDatabase(config.DATABASE_URL);
  let createdKeyFile: string | null;
  let encrypted: PlaintextMigration;
  let calendar: CalendarSync;
  try {
    await db.migrate();
    setBusinessTimeZone(config.APP_TIMEZONE);
    calendar = await syncBusinessCalendar(db, config.APP_TIMEZONE);
    // Before anything reads or writes a source: refuses to start without the right key.
    ({ createdKeyFile } = await openDataKey(db, config));
    encrypted = await encryptPlaintext(db);
    await seed(db);
    await ensureFirstAdmin(db, config);
  } catch (error) {
    await db.close();
    throw error;
  }
  const app = await buildApp({ config, db });
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
  if (encrypted.sources + encrypted.history + encrypted.totpKeys > 0) {
    app.log.info(encrypted, 'Données en clair d’une version précédente chiffrées (sources, historique, clés TOTP).');
  }
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  const port = new URL(address).port;
  const mail = startMailWorker({ db, config, log: app.log });
  return {
    app,
    db,
    config,
    url: `http://127.0.0.1:${port}`,
    mail,
    async close() {
      await app.close();
      await mail.stop();
      await db.close();
    },
  };
}
