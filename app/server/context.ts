// The application's context (docs/decisions/0026-app-context.md): what the server, the test app and every
// thread build once from the configuration and hand down, instead of registries keyed by the database.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { businessCalendar, type BusinessCalendar } from '#shared/calendar';
import type { Config } from './config';
import type { DataCipher } from './crypto/cipher';
import { openDatabase, type Database, type DatabaseOptions, type ReadOnlyDatabase } from './db/client';
import type { Session, SessionUser } from './domains/auth/session';
import type { TokenCaller } from './domains/jetons-api/bearer';
import type { ApiTokenScope } from '#shared/constants';
import { LoginRefusals } from './domains/journal/refusals';
import { journalSettingsOf, type JournalSettings } from './domains/journal/settings';
import type { PublicLookupLimiter } from './http/public-limit';
import { ReadTaskPool, type ReadTaskThreadData } from './domains/signalements/tasks/read-task-pool';

export interface Auth {
  session: Session;
  user: SessionUser;
  /**
   * Set when a partner API token sent the request instead of a session (docs/decisions/0038): `user` is then
   * the token's own account, and only the REST routes that declare one of its scopes are reached.
   */
  jeton?: TokenCaller;
}

/** The access log's settings and the refusal windows counted by this process (journal/refusals.ts). */
export interface JournalContext {
  settings: JournalSettings;
  refusals: LoginRefusals;
}

/** The time the services read. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Where the data key is read from (server/crypto/data-key.ts): what a thread that opens encrypted values is handed. */
export type KeySettings = Pick<Config, 'DATABASE_URL' | 'DATA_KEY' | 'DATA_KEY_FILE'>;

/** What the server (or a thread, or a test app) holds once: the services receive the parts they use. */
export interface AppContext {
  db: Database;
  config: Config;
  /** The data cipher; null only where the data key was not loaded (scripts, benchmarks). */
  cipher: DataCipher | null;
  /** Where `cipher`'s key was read from: a thread (an export with its notes) reads and checks it again. */
  keySettings: KeySettings;
  journal: JournalContext;
  /** The threads of the read tasks (domains/signalements/tasks/read-tasks.ts); null: the tasks run on this thread. */
  tasks: ReadTaskPool | null;
  clock: Clock;
  /**
   * The business calendar (docs/decisions/0018-business-calendar.md), bound to the configuration's
   * APP_TIMEZONE: every day the services compute (filters, counts, exports, mails) is one of its days.
   */
  calendar: BusinessCalendar;
}

/**
 * The context of a thread that only reads (read tasks, exports): its database cannot write, and it has no
 * task threads of its own. The main thread's AppContext is one too (a task may run there).
 */
export interface ReadContext extends Omit<AppContext, 'db' | 'tasks' | 'keySettings'> {
  db: ReadOnlyDatabase;
}

/** What a service that reads sources or writes the access log receives (a context, or part of one). */
export type Services = Pick<AppContext, 'db' | 'cipher' | 'journal' | 'calendar' | 'clock'>;

/** What a write that stamps its time receives: the database and the context's clock. */
export type Stamping = Pick<AppContext, 'db' | 'clock'>;

/** What a service that reads sources receives. */
export type WithCipher = Pick<AppContext, 'db' | 'cipher'>;

/** What a service that only reads, sources included, receives (a read-only thread's context too). */
export type ReadsWithCipher = Pick<ReadContext, 'db' | 'cipher'>;

/** What the report list and its export receive: their date filters are business days. */
export type ListContext = Pick<ReadContext, 'db' | 'cipher' | 'calendar'> & {
  /** Today for the deadline filters (docs/decisions/0032); the system's clock when absent. */
  clock?: Clock;
};

export interface AppContextOptions {
  /** The open database; without it, one is opened from the configuration. */
  db?: Database;
  cipher?: DataCipher | null;
  /** Where the key of `cipher` is read from (default: the configuration's DATA_KEY, DATA_KEY_FILE). */
  keySettings?: KeySettings;
  /**
   * Threads of the read tasks (0 or unset: none); they open the database as `taskData` says, reading
   * the data key from the configuration unless `taskData.key` says otherwise.
   */
  taskThreads?: number;
  taskData?: Partial<ReadTaskThreadData>;
  clock?: Clock;
}

/** Builds the context once (server/start.ts, tests/helpers/app.ts, each thread's entry). */
export function createAppContext(config: Config, options: AppContextOptions = {}): AppContext {
  const db = options.db ?? openConfigured(config);
  const threads = options.taskThreads ?? 0;
  const { DATABASE_URL, DATA_KEY, DATA_KEY_FILE } = config;
  const keySettings = options.keySettings ?? { DATABASE_URL, DATA_KEY, DATA_KEY_FILE };
  const tasks =
    threads > 0
      ? new ReadTaskPool(
          { url: db.url, key: keySettings, config, ...options.taskData },
          threads,
          config.READ_JOB_TIMEOUT_SECONDS * 1000,
        )
      : null;
  return {
    db,
    config,
    cipher: options.cipher ?? null,
    keySettings,
    journal: { settings: journalSettingsOf(config), refusals: new LoginRefusals() },
    tasks,
    clock: options.clock ?? systemClock,
    calendar: businessCalendar(config.APP_TIMEZONE),
  };
}

/** The context of a thread that only reads (read-task-thread.ts, export-thread.ts), from the server's configuration. */
export function createReadContext(
  config: Config,
  options: { db: ReadOnlyDatabase; cipher?: DataCipher | null; clock?: Clock },
): ReadContext {
  return {
    db: options.db,
    config,
    cipher: options.cipher ?? null,
    journal: { settings: journalSettingsOf(config), refusals: new LoginRefusals() },
    clock: options.clock ?? systemClock,
    calendar: businessCalendar(config.APP_TIMEZONE),
  };
}

/** The serving database's options, as the configuration sets them (the server and the test app). */
export function databaseOptions(config: Config): DatabaseOptions {
  return {
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_SECONDS * 1000,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_SECONDS * 1000,
    readWorkers: config.DATABASE_READ_WORKERS,
    readJobTimeoutMs: config.READ_JOB_TIMEOUT_SECONDS * 1000,
    poolReaders: config.DATABASE_POOL_READERS,
  };
}

function openConfigured(config: Config): Database {
  return openDatabase(config.DATABASE_URL, databaseOptions(config));
}

/** The data cipher of the context; throws where the data key was not loaded. */
export function cipherOf(ctx: { cipher?: DataCipher | null }): DataCipher {
  if (!ctx.cipher) throw new Error('data key not loaded for this database (see server/crypto/data-key.ts)');
  return ctx.cipher;
}

/** What every tRPC procedure gets: the application's context, spread, and the request's own parts. */
export interface RequestContext extends AppContext {
  req: FastifyRequest;
  res: FastifyReply;
  auth: Auth | null;
  /** Calls in this HTTP request (1 unless batched). */
  batchSize: number;
  publicLookups: PublicLookupLimiter;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The application's context (server/context.ts). */
    ctx: AppContext;
    /** Every route registered, for the test that proves each one requires a session. */
    routeList: Array<{ method: string; url: string; readonly config: FastifyContextConfig }>;
    /** Public look-up counters (per address and global). */
    publicLookups: PublicLookupLimiter;
  }
  interface FastifyRequest {
    auth: Auth | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a session (login, health, public summary, password set-up). Nothing declared: private. */
    public?: boolean;
    /** The tRPC endpoint: each procedure decides from its own meta (deny by default there too). */
    procedures?: boolean;
    /** A file of the built client (static, no session, no database work). */
    clientFile?: boolean;
    /** Answered at once however many reads wait (health, metrics; server/http/read-gate.ts). */
    unqueued?: boolean;
    /** A GET with an effect (spec §7's reset-password): same-origin check as for writes. */
    effectfulGet?: boolean;
    /**
     * The body is a file, streamed by the handler (application/octet-stream only: a type no cross-site form
     * can send), not parsed (docs/decisions/0033-evidence-files.md).
     */
    binaryBody?: boolean;
    /** Counted against the public look-up limit before the handler runs. */
    publicLookup?: boolean;
    /**
     * Reachable by a session whose second factor is still owed (who-am-i, log-out, the code itself).
     * Nothing declared: such a session gets 403 (docs/decisions/0016-two-factor.md).
     */
    twoFactorStep?: boolean;
    /**
     * The scope a partner API token needs to reach this route (docs/decisions/0038-partner-api-tokens.md).
     * Nothing declared: a token is refused here (403), whatever its scopes.
     */
    scope?: ApiTokenScope;
    /**
     * Reached by a partner API token only (with `scope`): a session gets 403 (docs/decisions/0051).
     */
    tokenOnly?: boolean;
  }
}
