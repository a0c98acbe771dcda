// SQLite's opening (server/db/client.ts, openDatabase): one writer connection held by a mutex from
// BEGIN IMMEDIATE to COMMIT, reads on reader threads or a read-only connection, the private files, and the
// migrations (docs/decisions/0001-two-engines.md). Every other SQLite difference: ./dialect.ts.
import { closeSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Sqlite from 'better-sqlite3';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { drizzle as drizzleProxy } from 'drizzle-orm/sqlite-proxy';
import * as sqliteSchema from '#drizzle/schema/sqlite';
import { ensurePrivateDir, PATHS, tightenMode } from '#server/paths';
import type { Database, Orm } from '../client';
import { Mutex } from '../mutex';
import { preparedRunner, valuesRunner } from '../prepared';
import { READ_MMAP_SIZE, ReadPool } from '../read-pool';
import { joiningTransaction, TransactionScope } from '../transaction-scope';
import { sqliteDialect } from './dialect';

function sqlitePath(url: string): string {
  const path = url.replace(/^file:/, '');
  if (path === ':memory:' || path === '') {
    throw new Error('SQLite en mémoire non pris en charge : utilisez un fichier (file:./data/x.db).');
  }
  return resolve(path);
}

function openSqliteConnection(path: string, readonly: boolean, mapFile = true): Sqlite.Database {
  const conn = new Sqlite(path, { readonly: false });
  conn.pragma('journal_mode = WAL');
  conn.pragma('foreign_keys = ON');
  conn.pragma('busy_timeout = 5000');
  // FULL: in WAL mode every commit is synced to disk before it returns, so an acknowledged write survives
  // a power cut, not only a crash of the process (docs/decisions/0019-durability.md).
  conn.pragma('synchronous = FULL');
  if (readonly) {
    conn.pragma('query_only = ON');
    if (mapFile) conn.pragma(`mmap_size = ${READ_MMAP_SIZE}`);
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

/** preparedValues on `conn`: each statement prepared once by name, its rows read as arrays. */
function rawStatements(conn: Sqlite.Database) {
  const statements = new Map<string, Sqlite.Statement>();
  return async (name: string, text: string, params: unknown[]) => {
    let statement = statements.get(name);
    if (!statement) {
      statement = conn.prepare(text).raw(true);
      statements.set(name, statement);
    }
    return statement.all(...params) as unknown[][];
  };
}

export function openSqlite(
  url: string,
  readWorkers: number,
  readJobTimeoutMs: number | undefined,
  readOnly: boolean,
  mapFile = true,
): Omit<Database, 'writes'> {
  const path = sqlitePath(url);
  // A read-only opening (a thread's) finds the files as the server prepared them.
  if (!readOnly) preparePrivateFiles(path);
  // Read-only: the "writer" refuses writes too (query_only), whatever reaches it.
  const writerConn = openSqliteConnection(path, readOnly, mapFile);
  const writer = drizzleSqlite(writerConn, { schema: sqliteSchema });
  // Reads outside transactions: on reader threads, or on a connection of this thread.
  const pool = readWorkers > 0 ? new ReadPool(path, readWorkers, readJobTimeoutMs) : null;
  // With reader threads, a read-only connection of this thread still serves the prepared reads
  // (db.prepared: the session check, the report loader by ids): each is bounded (one row by key, at most
  // 100 reports by id) and costs less than a round trip to a thread (about 50 µs of this thread's time).
  const readerConn = openSqliteConnection(path, true, mapFile);
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
    readsAside: pool !== null,
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
    // Kept by name (one name, one statement), as drizzle's prepared statements are by prepared().
    preparedValues: valuesRunner(local, scope, rawStatements(readerConn)),
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
      await mutex.run(async () => migrateSqliteKeepingCause(writerConn, PATHS.migrations.sqlite));
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
