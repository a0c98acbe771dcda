import { availableParallelism } from 'node:os';
import type { SQL } from 'drizzle-orm';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type * as sqliteSchema from '#drizzle/schema/sqlite';
import type { Dialect } from './dialect';
import { openPostgres } from './postgres/open';
import type { Preparable, ValuesPreparable } from './prepared';
import { openSqlite } from './sqlite/open';
import type { ThreadPoolHealth } from './threads/pool';
import { WriteHealth } from './write-health';

export type Schema = typeof sqliteSchema;
/**
 * Services are written once against this type. On PostgreSQL the same query builder API is backed by
 * the pg schema (same export names, same JS value types: Date, boolean, string[]), see
 * docs/decisions/0001-two-engines.md. Only awaited builders are used: never .get()/.all()/.run().
 */
export type Orm = BetterSQLite3Database<Schema>;
export type Engine = 'sqlite' | 'postgres';

export interface Database {
  readonly engine: Engine;
  /** Every engine difference needed outside server/db (server/db/dialect.ts, docs/decisions/0025-dialects.md). */
  readonly dialect: Dialect;
  /** The DATABASE_URL it was opened with (a thread opens its own connections from it). */
  readonly url: string;
  /** Tables of the active engine. */
  readonly t: Schema;
  /**
   * Threads this process reads on besides its own: SQLite's reader threads (read-pool.ts); 0 on
   * PostgreSQL, whose reads already run in the database server, and on SQLite opened with readWorkers: 0.
   * The answers built from reads may run on as many threads of their own (server/domains/signalements/tasks/read-tasks.ts).
   */
  readonly readThreads: number;
  /**
   * Whether a read leaves this thread free while it runs (PostgreSQL: in the database server; SQLite: on
   * its reader threads), so that other work goes on meanwhile. False on SQLite without reader threads,
   * where a read runs on this very thread before its promise is returned: reading ahead there overlaps
   * nothing and only holds more rows in the heap (an export's thread, decision 0058).
   */
  readonly readsAside: boolean;
  /**
   * The one way to read: inside transaction() the transaction itself (it sees its own writes), outside it
   * the readers (on SQLite reader threads or a read-only connection, which never see uncommitted data; on
   * PostgreSQL the pool). Read it when the query runs: it changes with the transaction the code runs in.
   */
  readonly read: Orm;
  /** Runs fn in one transaction; nested calls join the outer one. All writes go through here. */
  transaction<T>(fn: (tx: Orm) => Promise<T>): Promise<T>;
  /** Whether this code runs inside transaction() (a transaction not yet committed or rolled back). */
  inTransaction(): boolean;
  /**
   * Inside transaction(): `work` runs once, after the outermost transaction has committed, never after a
   * rollback (nested transactions join the outer one, so a nested call's work waits for the outer COMMIT).
   * Outside a transaction it runs at once. `work` is synchronous; an error it throws is logged, the
   * transaction stays committed.
   */
  afterCommit(work: () => void): void;
  /** Raw SQL returning rows, for the few queries the builder cannot express. */
  rows<T = Record<string, unknown>>(query: SQL, tx?: Orm): Promise<T[]>;
  /**
   * A read run on every request (the session check, the report loader): `build(orm)` is prepared on
   * first use and kept under `name` (one name, one statement), then run with `values` for its placeholders
   * (server/db/prepared.ts). Outside transactions; on SQLite, on this thread: only for reads bounded by a
   * key. Inside transaction(), like db.read, `build` runs on the transaction (not kept).
   */
  prepared<R>(
    name: string,
    build: (orm: Orm) => Preparable<R>,
    values: Record<string, unknown>,
  ): Promise<Awaited<R>>;
  /**
   * The same kind of read with its rows as arrays of the driver's own values, in the order of the select's
   * fields, not mapped to objects: for reads of many rows (the xlsx export's batches, decision 0050), whose
   * caller decodes each value with the dialect's decoders (date, count, flag, json). Outside transactions
   * only (it throws inside one); on SQLite, on this thread's read-only connection.
   */
  preparedValues(
    name: string,
    build: (orm: Orm) => ValuesPreparable,
    values: Record<string, unknown>,
  ): Promise<unknown[][]>;
  /** Raw SQL that returns no rows (maintenance statements such as ANALYZE); joins the current transaction. */
  execute(query: SQL): Promise<void>;
  migrate(): Promise<void>;
  /**
   * Runs fn while no other process runs its own: several servers starting at once on one PostgreSQL
   * migrate, seed and create the first administrator one after the other (a session advisory lock).
   * SQLite has one server process.
   */
  exclusively<T>(fn: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  /** The connections of this process (metrics): SQLite's writer queue, PostgreSQL's pool. */
  stats(): DatabaseStats;
  /** Whether writes fail for a cause every write would meet (full disk…), for the health check. */
  readonly writes: WriteHealth;
  close(): Promise<void>;
}

/**
 * The database of a thread that only reads (read tasks, exports: server/db/threads/): no transaction(), no
 * execute(), no writer, so the type system refuses a write there; openReadOnlyDatabase() also opens it
 * read-only on the engine's side.
 */
export type ReadOnlyDatabase = Pick<
  Database,
  | 'engine'
  | 'dialect'
  | 'url'
  | 't'
  | 'readThreads'
  | 'readsAside'
  | 'read'
  | 'inTransaction'
  | 'rows'
  | 'prepared'
  | 'preparedValues'
  | 'ping'
  | 'close'
>;

export interface DatabaseStats {
  /** Open connections. */
  connections: number;
  /** Of those, not in use. */
  idle: number;
  /** Work waiting for a connection (on SQLite, transactions waiting for the writer). */
  waiting: number;
  /** SQLite's reader threads: stuck ones, deadlines passed (health check); absent without them. */
  threads?: ThreadPoolHealth;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

export interface DatabaseOptions {
  /** PostgreSQL: how long to wait for a connection (a server that accepts TCP but never answers). */
  connectTimeoutMs?: number;
  /** PostgreSQL: longest statement of the serving pool; unset, none (scripts, maintenance). */
  statementTimeoutMs?: number;
  /**
   * SQLite: reader threads for the reads outside transactions (read-pool.ts); 0 reads on the calling
   * thread (a task or export thread, already off the main thread). Default: one per core, at most 4.
   */
  readWorkers?: number;
  /** SQLite: deadline of each read on a reader thread (READ_JOB_TIMEOUT_SECONDS); unset, none (scripts). */
  readJobTimeoutMs?: number;
  /**
   * Every connection refuses writes: SQLite's `query_only`, PostgreSQL's `default_transaction_read_only`
   * (openReadOnlyDatabase).
   */
  readOnly?: boolean;
  /**
   * SQLite, read-only connections: read the file through a memory map (READ_MMAP_SIZE; default true).
   * false for a reader of most of the file once (the xlsx export): mapped, every page it touches counts in
   * the process's resident memory until the end (the whole file for a large export); unmapped, SQLite
   * reads the pages through its own cache of a few megabytes.
   */
  mapFile?: boolean;
  /**
   * PostgreSQL: connections of the pool that reads may hold at once (DATABASE_POOL_READERS; decision 0055);
   * the others wait for requests that may write. Default: one per core and one more, at most eight.
   */
  poolReaders?: number;
}

export const DEFAULT_READ_WORKERS = Math.max(1, Math.min(4, availableParallelism()));

export { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_POOL_READERS, STARTUP_LOCK } from './postgres/open';

export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  const readWorkers = options.readWorkers ?? DEFAULT_READ_WORKERS;
  return trackWrites(
    isPostgresUrl(url)
      ? openPostgres(url, options)
      : openSqlite(
          url,
          readWorkers,
          options.readJobTimeoutMs,
          options.readOnly ?? false,
          options.mapFile ?? true,
        ),
  );
}

/**
 * The database of a thread that only reads (server/db/threads/): reads on this thread's own connections
 * (no reader threads of its own), every connection read-only, and only the read members of Database.
 */
export function openReadOnlyDatabase(
  url: string,
  options: Pick<DatabaseOptions, 'connectTimeoutMs' | 'statementTimeoutMs' | 'mapFile'> = {},
): ReadOnlyDatabase {
  const db = openDatabase(url, { ...options, readWorkers: 0, readOnly: true });
  return {
    engine: db.engine,
    dialect: db.dialect,
    url: db.url,
    t: db.t,
    readThreads: db.readThreads,
    readsAside: db.readsAside,
    get read() {
      return db.read;
    },
    inTransaction: () => db.inTransaction(),
    rows: (query, tx) => db.rows(query, tx),
    prepared: (name, build, values) => db.prepared(name, build, values),
    preparedValues: (name, build, values) => db.preparedValues(name, build, values),
    ping: () => db.ping(),
    close: () => db.close(),
  };
}

/** Both engines: transactions and maintenance statements tell `writes` why they failed (write-health.ts). */
function trackWrites(db: Omit<Database, 'writes'>): Database {
  const writes = new WriteHealth();
  const { transaction, execute } = db;
  return Object.assign(db, {
    writes,
    transaction: <T>(fn: (tx: Orm) => Promise<T>) => writes.track(() => transaction(fn)),
    execute: (query: SQL) => writes.track(() => execute(query)),
  });
}
