import { z } from 'zod';
import { DEFAULT_BUSINESS_TIME_ZONE, isTimeZone } from '#shared/calendar';
import { parseDataKey } from './crypto/cipher';
import { parseTrustProxy, TRUST_PROXY_HINT } from './http/client-address';
import { parseRecipient } from './ops/seal';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** A whole number from min to max, with the French messages of every numeric setting. */
const wholeNumber = (min: number, max: number) =>
  z.coerce
    .number({ message: 'doit être un nombre' })
    .int({ message: 'doit être un entier' })
    .min(min, { message: `au moins ${min}` })
    .max(max, { message: `au plus ${max}` });

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  // Loopback unless told otherwise: a laptop's server is not for the whole local network.
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .default('file:./data/signalements.db')
    .refine((v) => v.startsWith('file:') || /^postgres(ql)?:\/\//.test(v), {
      message: "doit commencer par 'file:' (SQLite) ou 'postgres://' (PostgreSQL)",
    }),
  ADMIN_EMAIL: optionalString.pipe(z.email({ message: 'adresse e-mail invalide' }).optional()),
  ADMIN_PASSWORD: optionalString.pipe(z.string().min(12, { message: 'au moins 12 caractères' }).optional()),
  PUBLIC_URL: z.url({ message: 'URL invalide' }).default('http://localhost:3000'),
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, { message: "doit commencer par 'smtp://' ou 'smtps://'" })
      .optional(),
  ),
  MAIL_FROM: z.string().default('Signalements <no-reply@signalements.local>'),
  MAP_STYLE_URL: optionalString.pipe(z.url({ message: 'URL invalide' }).optional()),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  // The business calendar (docs/decisions/0018-business-calendar.md): every day shown, filtered, exported
  // or counted is a day in this zone.
  APP_TIMEZONE: z.string().trim().default(DEFAULT_BUSINESS_TIME_ZONE).refine(isTimeZone, {
    message: "fuseau horaire inconnu (nom IANA attendu, par exemple 'Indian/Antananarivo')",
  }),
  // Who may tell the client's address in X-Forwarded-For (server/http/client-address.ts): nobody
  // ('false'), the nearest N proxies ('1'…'10'; 'true' is 1), or the proxies listed by address or network.
  // Otherwise a client could choose its own address and escape every per-address limit.
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v, ctx) => {
      const parsed = parseTrustProxy(v);
      if (parsed === null) ctx.addIssue({ code: 'custom', message: TRUST_PROXY_HINT });
      return parsed ?? false;
    }),
  // Who must use two-factor log-in (docs/decisions/0016-two-factor.md): administrators, or all staff.
  TWO_FACTOR_REQUIRED: z
    .enum(['admins', 'all'], { message: "doit valoir 'admins' ou 'all'" })
    .default('admins'),
  // Alerts on unusual reading (docs/decisions/0015-security-model.md, "Access log and alerts"):
  // people of ACCESS_ALERT_READS distinct reports opened within ACCESS_ALERT_WINDOW_MINUTES, or one
  // export of at least ACCESS_ALERT_EXPORT_MIN_ROWS rows that is also ACCESS_ALERT_EXPORT_SHARE of all reports.
  ACCESS_ALERT_WINDOW_MINUTES: z.coerce
    .number({ message: 'doit être un nombre' })
    .int({ message: 'doit être un entier' })
    .min(1, { message: 'au moins 1' })
    .max(1440, { message: 'au plus 1440 (24 heures)' })
    .default(10),
  ACCESS_ALERT_READS: wholeNumber(2, 100_000).default(20),
  ACCESS_ALERT_EXPORT_MIN_ROWS: z.coerce
    .number({ message: 'doit être un nombre' })
    .int({ message: 'doit être un entier' })
    .min(1, { message: 'au moins 1' })
    .default(200),
  ACCESS_ALERT_EXPORT_SHARE: z.coerce
    .number({ message: 'doit être un nombre' })
    .gt(0, { message: 'doit être supérieur à 0' })
    .max(1, { message: 'au plus 1' })
    .default(0.5),
  // Daily totals per user (decision 0015, "Alerts"), on top of the sliding window, so slow reading does not
  // evade the alerts: distinct reports whose people one user opened, and rows exported, per business day.
  ACCESS_ALERT_DAILY_READS: wholeNumber(2, 1_000_000).default(60),
  ACCESS_ALERT_DAILY_EXPORT_ROWS: wholeNumber(1, 100_000_000).default(1000),
  // Entries of the access log older than this many business days are deleted by the hourly purge, which
  // logs what it removed (docs/decisions/0015, "Retention"); the database refuses a cutoff under 30 days.
  ACCESS_LOG_RETENTION_DAYS: wholeNumber(30, 3650).default(365),
  // Evidence files (docs/decisions/0033-evidence-files.md): the largest file, and all of a report's files
  // together, in megabytes (10⁶ bytes); refused while streaming with a 413.
  EVIDENCE_MAX_MB: wholeNumber(1, 1024).default(20),
  EVIDENCE_REPORT_MAX_MB: wholeNumber(1, 100_000).default(200),
  // Key of the sources' encryption at rest (docs/decisions/0017). Unset: the key file DATA_KEY_FILE
  // (by default data.key beside the SQLite database, data/data.key in the project's folder with PostgreSQL), created at the
  // first start. Its value is never logged nor shown in an error.
  DATA_KEY: optionalString.pipe(
    z
      .string()
      .refine((v) => parseDataKey(v) !== null, {
        message: 'doit contenir 32 octets en base64 ou 64 caractères hexadécimaux',
      })
      .optional(),
  ),
  DATA_KEY_FILE: optionalString,
  // The token a Prometheus scraper sends (Authorization: Bearer …) to read /metrics; unset, /metrics is 404.
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, { message: 'au moins 16 caractères' }).optional()),
  // Requests one partner API token may send per minute (docs/decisions/0038-partner-api-tokens.md), counted in
  // the database so that every server on one PostgreSQL shares the count; over it, 429 with Retry-After.
  API_TOKEN_REQUESTS_PER_MINUTE: wholeNumber(1, 100_000).default(120),
  // PostgreSQL: how long to wait for a connection, and the longest statement of the server's pool.
  DATABASE_CONNECT_TIMEOUT_SECONDS: wholeNumber(1, 300).default(10),
  DATABASE_STATEMENT_TIMEOUT_SECONDS: wholeNumber(1, 3600).default(60),
  // PostgreSQL: connections of the pool (of 10) that reads may hold at once; the others are kept for requests
  // that may write (docs/decisions/0055). Unset: one per core of this machine and one more, at most 8.
  DATABASE_POOL_READERS: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    wholeNumber(1, 8).optional(),
  ),
  // SQLite: threads that run the reads outside transactions (docs/decisions/0021); 0 reads on the main thread.
  DATABASE_READ_WORKERS: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    wholeNumber(0, 16).optional(),
  ),
  // Reads (GET, HEAD) the server runs at once, one while a write is handled; the next wait in line, before their
  // session check, and writes never wait (docs/decisions/0056). Unset: two per core of this machine, at least
  // 4; 0: no limit.
  READS_AT_ONCE: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    wholeNumber(0, 1000).optional(),
  ),
  // SQLite: longest wait for a read on a reader or task thread, queue included (docs/decisions/0021, 0024).
  // Past it the request gets a 503 and a thread stuck on it is stopped and replaced.
  READ_JOB_TIMEOUT_SECONDS: wholeNumber(1, 3600).default(30),
  // Sent e-mails and used or expired password links are deleted after this many days (docs/decisions/0004).
  MAIL_RETENTION_DAYS: wholeNumber(1, 3650).default(30),
  // The hour (0–23, in APP_TIMEZONE) from which the daily reminder e-mails are sent, once per business day
  // (docs/decisions/0036-daily-reminders.md).
  DIGEST_HOUR: wholeNumber(0, 23).default(7),
  // Signed webhooks to partners (docs/decisions/0039-signed-webhooks.md): how long one POST may take, how
  // many attempts before the dead letter, and the exponential backoff between them (with jitter).
  WEBHOOK_TIMEOUT_SECONDS: wholeNumber(1, 120).default(10),
  WEBHOOK_MAX_ATTEMPTS: wholeNumber(1, 100).default(12),
  WEBHOOK_RETRY_BASE_SECONDS: wholeNumber(1, 3600).default(30),
  WEBHOOK_RETRY_MAX_SECONDS: wholeNumber(1, 86400).default(3600),
  // Where an endpoint registered by a partner's token may point (docs/decisions/0051): `public` (HTTPS to a
  // public address, names resolved and judged at each POST) or `any` (the administrators' rule: a closed
  // network, or tests with a receiver on loopback).
  WEBHOOK_PARTNER_ADDRESSES: z.enum(['public', 'any']).default('public'),
  // Backups (npm run db:backup, README « Sauvegarde et restauration »): where they go, how many are kept.
  BACKUP_DIR: z.string().trim().min(1).default('./data/backups'),
  BACKUP_KEEP: wholeNumber(1, 1000).default(7),
  // What seals each backup (docs/decisions/0017, "Backups"); at least one is required by db:backup. Neither
  // is ever logged. A public key lets the server write backups it cannot read.
  BACKUP_RECIPIENT: optionalString.pipe(
    z
      .string()
      .refine((v) => parseRecipient(v) !== null, {
        message: "doit être une clé publique 'x25519:…' (npm run db:backup -- --generate-recipient FICHIER)",
      })
      .optional(),
  ),
  BACKUP_PASSPHRASE: z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .pipe(z.string().min(12, { message: 'au moins 12 caractères' }).optional()),
  // A SIGTERM or SIGINT stops accepting connections, lets requests in flight finish and exits within this
  // many seconds (connections still open then are cut; the exit code stays 0).
  SHUTDOWN_TIMEOUT_SECONDS: wholeNumber(1, 600).default(10),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Parses the environment; throws a ConfigError listing every wrong variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Configuration invalide :\n${lines.join('\n')}`);
  }
  return parsed.data;
}
