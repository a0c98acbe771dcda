import { closeSync, openSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import Sqlite from 'better-sqlite3';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzleSqlite, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { drizzle as drizzleProxy } from 'drizzle-orm/sqlite-proxy';
import { preparedRunner, type Preparable } from './prepared';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as pgSchema from '#drizzle/schema/pg';
import * as sqliteSchema from '#drizzle/schema/sqlite';
import { Mutex } from './mutex';
import { TransactionScope } from './transaction-scope';
import type { Dialect } from './dialect';
import { postgresDialect } from './postgres/dialect';
import { sqliteDialect } from './sqlite/dialect';
import { READ_MMAP_SIZE, ReadPool } from './read-pool';
import { WriteHealth } from './write-health';
import type { ThreadPoolHealth } from './threads/pool';
import { ensurePrivateDir, PATHS, tightenMode } from '../paths';

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
  | 'read'
  | 'inTransaction'
  | 'rows'
  | 'prepared'
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

const MIGRATIONS = PATHS.migrations;

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
}

export const DEFAULT_READ_WORKERS = Math.max(1, Math.min(4, availableParallelism()));

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** The advisory lock of start-ups (space, id); the space is apart from those of server/db/locks.ts. */
export const STARTUP_LOCK = [8100, 1] as const;

export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  const readWorkers = options.readWorkers ?? DEFAULT_READ_WORKERS;
  return trackWrites(
    isPostgresUrl(url)
      ? openPostgres(url, options)
      : openSqlite(url, readWorkers, options.readJobTimeoutMs, options.readOnly ?? false),
  );
}

/**
 * The database of a thread that only reads (server/db/threads/): reads on this thread's own connections
 * (no reader threads of its own), every connection read-only, and only the read members of Database.
 */
export function openReadOnlyDatabase(
  url: string,
  options: Pick<DatabaseOptions, 'connectTimeoutMs' | 'statementTimeoutMs'> = {},
): ReadOnlyDatabase {
  const db = openDatabase(url, { ...options, readWorkers: 0, readOnly: true });
  return {
    engine: db.engine,
    dialect: db.dialect,
    url: db.url,
    t: db.t,
    readThreads: db.readThreads,
    get read() {
      return db.read;
    },
    inTransaction: () => db.inTransaction(),
    rows: (query, tx) => db.rows(query, tx),
    prepared: (name, build, values) => db.prepared(name, build, values),
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

/** Database.prepared: inside a transaction the statement is built on it and run once, not kept. */
function joiningTransaction(scope: TransactionScope, prepared: Database['prepared']): Database['prepared'] {
  return async function <R>(
    name: string,
    build: (orm: Orm) => Preparable<R>,
    values: Record<string, unknown>,
  ): Promise<Awaited<R>> {
    const tx = scope.current();
    if (!tx) return prepared(name, build, values);
    return (await build(tx).prepare().execute(values)) as Awaited<R>;
  };
}

function sqlitePath(url: string): string {
  const path = url.replace(/^file:/, '');
  if (path === ':memory:' || path === '') {
    throw new Error('SQLite en mémoire non pris en charge : utilisez un fichier (file:./data/x.db).');
  }
  return resolve(path);
}

function openSqliteConnection(path: string, readonly: boolean): Sqlite.Database {
  const conn = new Sqlite(path, { readonly: false });
  conn.pragma('journal_mode = WAL');
  conn.pragma('foreign_keys = ON');
  conn.pragma('busy_timeout = 5000');
  // FULL: in WAL mode every commit is synced to disk before it returns, so an acknowledged write survives
  // a power cut, not only a crash of the process (docs/decisions/0019-durability.md).
  conn.pragma('synchronous = FULL');
  if (readonly) {
    conn.pragma('query_only = ON');
    conn.pragma(`mmap_size = ${READ_MMAP_SIZE}`);
  }
  // Freed pages and deleted cells are zeroed, so a value once in clear (before encryption at rest,
  // docs/decisions/0017) does not linger in the file after it is rewritten.
  else conn.pragma('secure_delete = ON');
  return conn;
}

/**
 * Drizzle's SQLite migrator, with one difference: when a statement fails in a way that already ended the
 * transaction (SQLITE_FULL: a full disk), drizzle's ROLLBACK throws 'no transaction is active' and hides
 * the cause; here the cause is what is thrown. Same table, same hashes, same order as drizzle's.
 */
function migrateSqliteKeepingCause(conn: Sqlite.Database, folder: string): void {
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  conn.exec(
    'CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)',
  );
  const last = conn
    .prepare('SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1')
    .get() as { created_at: number | string } | undefined;
  const insert = conn.prepare('INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)');
  conn.exec('BEGIN');
  try {
    for (const migration of migrations) {
      if (last && Number(last.created_at) >= migration.folderMillis) continue;
      for (const statement of migration.sql) conn.exec(statement);
      insert.run(migration.hash, migration.folderMillis);
    }
    conn.exec('COMMIT');
  } catch (error) {
    if (conn.inTransaction) conn.exec('ROLLBACK');
    throw error;
  }
}

/**
 * The database for this user alone: its folder 0700, the file created 0600 before SQLite opens it (SQLite
 * gives its -wal and -shm files the database file's mode), and files of an older start tightened.
 */
function preparePrivateFiles(path: string): void {
  ensurePrivateDir(dirname(path));
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) tightenMode(file);
}

function openSqlite(
  url: string,
  readWorkers: number,
  readJobTimeoutMs: number | undefined,
  readOnly: boolean,
): Omit<Database, 'writes'> {
  const path = sqlitePath(url);
  // A read-only opening (a thread's) finds the files as the server prepared them.
  if (!readOnly) preparePrivateFiles(path);
  // Read-only: the "writer" refuses writes too (query_only), whatever reaches it.
  const writerConn = openSqliteConnection(path, readOnly);
  const writer = drizzleSqlite(writerConn, { schema: sqliteSchema });
  // Reads outside transactions: on reader threads, or on a connection of this thread.
  const pool = readWorkers > 0 ? new ReadPool(path, readWorkers, readJobTimeoutMs) : null;
  // With reader threads, a read-only connection of this thread still serves the prepared reads
  // (db.prepared: the session check, the report loader by ids): each is bounded (one row by key, at most
  // 100 reports by id) and costs less than a round trip to a thread (about 50 µs of this thread's time).
  const readerConn = openSqliteConnection(path, true);
  const local = drizzleSqlite(readerConn, { schema: sqliteSchema });
  const dialect = new SQLiteSyncDialect();
  const reader: Orm = pool
    ? (drizzleProxy(
        async (text, params, method) => ({ rows: (await pool.run(text, params, method)) as unknown[] }),
        {
          schema: sqliteSchema,
        },
      ) as unknown as Orm)
    : local;
  const mutex = new Mutex();
  const scope = new TransactionScope();

  return {
    engine: 'sqlite',
    dialect: sqliteDialect,
    url,
    readThreads: pool ? readWorkers : 0,
    t: sqliteSchema,
    get read() {
      return scope.current() ?? reader;
    },
    async transaction(fn) {
      const outer = scope.current();
      if (outer) return fn(outer);
      return scope.outermost(
        (body) =>
          mutex.run(async () => {
            // better-sqlite3 cannot run an async callback in its own transaction helper, so the writer
            // connection is held by the mutex from BEGIN IMMEDIATE to COMMIT/ROLLBACK.
            writerConn.exec('BEGIN IMMEDIATE');
            try {
              const result = await body(writer);
              writerConn.exec('COMMIT');
              return result;
            } catch (error) {
              if (writerConn.inTransaction) writerConn.exec('ROLLBACK');
              throw error;
            }
          }),
        fn,
      );
    },
    inTransaction: () => scope.current() !== undefined,
    afterCommit: (work) => scope.afterCommit(work),
    prepared: joiningTransaction(scope, preparedRunner(local)),
    async rows<T>(query: SQL, tx?: Orm) {
      const inTransaction = tx ?? scope.current();
      if (inTransaction) return inTransaction.all(query) as T[];
      if (!pool) return reader.all(query) as T[];
      const { sql: text, params } = dialect.sqlToQuery(query);
      return (await pool.run(text, params, 'objects')) as T[];
    },
    async execute(query: SQL) {
      // Inside a transaction the writer is already held by it: run there rather than wait for the mutex.
      const tx = scope.current();
      if (tx) tx.run(query);
      else
        await mutex.run(async () => {
          writer.run(query);
        });
    },
    async migrate() {
      await mutex.run(async () => migrateSqliteKeepingCause(writerConn, MIGRATIONS.sqlite));
    },
    async exclusively(fn) {
      return fn();
    },
    async ping() {
      await reader.get(sql`select 1`);
    },
    stats() {
      // The writer (busy while a transaction holds it) and the readers.
      const readers = pool ? pool.stats() : { readers: 1, busy: 0, waiting: 0 };
      return {
        connections: 1 + readers.readers,
        idle: (mutex.pending > 0 ? 0 : 1) + readers.readers - readers.busy,
        waiting: Math.max(0, mutex.pending - 1) + readers.waiting,
        threads: pool?.health(),
      };
    },
    async close() {
      await pool?.close();
      await mutex.run(async () => {
        readerConn.close();
        writerConn.close();
      });
    },
  };
}

function openPostgres(url: string, options: DatabaseOptions): Omit<Database, 'writes'> {
  const connectionTimeoutMillis = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const statement = options.statementTimeoutMs;
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis,
    // Dead peers are noticed by TCP keep-alive rather than by a query that waits forever.
    keepAlive: true,
    ...(statement
      ? {
          // The server cancels a statement past the limit; the client gives up a little later if the server
          // itself stopped answering.
          statement_timeout: statement,
          query_timeout: statement + 5000,
          idle_in_transaction_session_timeout: statement * 2,
        }
      : {}),
    // Read-only: every transaction of this pool's connections refuses writes.
    ...(options.readOnly ? { options: '-c default_transaction_read_only=on' } : {}),
  });
  let closing = false;
  // A lost connection (pg_terminate_backend, a PostgreSQL restart) must never crash the process. pg-pool
  // listens for an idle client's 'error' only while the client is idle, and a client with no 'error'
  // listener throws: so every client gets one for its whole life. The request using it fails (its query
  // rejects, and the next one on that client too), is answered 503 (server/db/connection-lost.ts), and the
  // pool drops the client on release and opens a new one for the next request.
  const lost = (error: Error) => {
    if (!closing) console.error(`PostgreSQL : connexion perdue (${error.message})`);
  };
  pool.on('connect', (client) => client.on('error', lost));
  // The pool's own event for an idle client: already logged by the client's listener.
  pool.on('error', () => undefined);
  /** A connection outside the pool; a loss fails its query instead of crashing the process. */
  const ownClient = () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis, keepAlive: true });
    client.on('error', lost);
    return client;
  };
  const orm = drizzlePg(pool, { schema: pgSchema });
  const read = orm as unknown as Orm;
  const scope = new TransactionScope();

  return {
    engine: 'postgres',
    dialect: postgresDialect,
    readThreads: 0,
    url,
    t: pgSchema as unknown as Schema,
    get read() {
      return scope.current() ?? read;
    },
    async transaction(fn) {
      const outer = scope.current();
      if (outer) return fn(outer);
      return scope.outermost((body) => orm.transaction((tx) => body(tx as unknown as Orm)), fn);
    },
    inTransaction: () => scope.current() !== undefined,
    afterCommit: (work) => scope.afterCommit(work),
    prepared: joiningTransaction(scope, preparedRunner(read)),
    async rows<T>(query: SQL, tx?: Orm) {
      const runner = (tx ?? scope.current() ?? read) as unknown as typeof orm;
      const result = await runner.execute(query);
      return result.rows as T[];
    },
    async execute(query: SQL) {
      // Inside a transaction, on its connection.
      await ((scope.current() ?? read) as unknown as typeof orm).execute(query);
    },
    async migrate() {
      // On a connection of its own, without the serving pool's statement limit: a migration may rewrite
      // every report.
      const client = ownClient();
      await client.connect();
      try {
        await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS.postgres });
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    async exclusively(fn) {
      // A connection of its own holds the lock (the pool's could be reused meanwhile).
      const client = ownClient();
      await client.connect();
      try {
        await client.query('select pg_advisory_lock($1::int, $2::int)', [STARTUP_LOCK[0], STARTUP_LOCK[1]]);
        return await fn();
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    async ping() {
      await pool.query('select 1');
    },
    stats() {
      return { connections: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
    },
    async close() {
      closing = true;
      await pool.end();
    },
  };
}
