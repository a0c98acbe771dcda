import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Sqlite from 'better-sqlite3';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzleSqlite, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate as migrateSqlite } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as pgSchema from '../../drizzle/schema/pg';
import * as sqliteSchema from '../../drizzle/schema/sqlite';
import { Mutex } from './mutex';
import { PATHS } from '../paths';

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
  /** The DATABASE_URL it was opened with (a worker thread opens its own connection from it). */
  readonly url: string;
  /** Tables of the active engine. */
  readonly t: Schema;
  /** Reads outside a transaction (on SQLite a separate connection that never sees uncommitted data). */
  readonly read: Orm;
  /** Runs fn in one transaction; nested calls join the outer one. All writes go through here. */
  transaction<T>(fn: (tx: Orm) => Promise<T>): Promise<T>;
  /** Raw SQL returning rows, for the few queries the builder cannot express. */
  rows<T = Record<string, unknown>>(query: SQL, tx?: Orm): Promise<T[]>;
  /** Raw SQL that returns no rows (maintenance statements such as ANALYZE). */
  execute(query: SQL): Promise<void>;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const MIGRATIONS = PATHS.migrations;

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

export function openDatabase(url: string): Database {
  return isPostgresUrl(url) ? openPostgres(url) : openSqlite(url);
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
  conn.pragma('synchronous = NORMAL');
  if (readonly) conn.pragma('query_only = ON');
  // Freed pages and deleted cells are zeroed, so a value once in clear (before encryption at rest,
  // docs/decisions/0017) does not linger in the file after it is rewritten.
  else conn.pragma('secure_delete = ON');
  return conn;
}

function openSqlite(url: string): Database {
  const path = sqlitePath(url);
  mkdirSync(dirname(path), { recursive: true });
  const writerConn = openSqliteConnection(path, false);
  const readerConn = openSqliteConnection(path, true);
  const writer = drizzleSqlite(writerConn, { schema: sqliteSchema });
  const reader = drizzleSqlite(readerConn, { schema: sqliteSchema });
  const mutex = new Mutex();
  const current = new AsyncLocalStorage<Orm>();

  return {
    engine: 'sqlite',
    url,
    t: sqliteSchema,
    read: reader,
    async transaction(fn) {
      const outer = current.getStore();
      if (outer) return fn(outer);
      return mutex.run(async () => {
        // better-sqlite3 cannot run an async callback in its own transaction helper, so the writer
        // connection is held by the mutex from BEGIN IMMEDIATE to COMMIT/ROLLBACK.
        writerConn.exec('BEGIN IMMEDIATE');
        try {
          const result = await current.run(writer, () => fn(writer));
          writerConn.exec('COMMIT');
          return result;
        } catch (error) {
          if (writerConn.inTransaction) writerConn.exec('ROLLBACK');
          throw error;
        }
      });
    },
    async rows<T>(query: SQL, tx?: Orm) {
      return (tx ?? current.getStore() ?? reader).all(query) as T[];
    },
    async execute(query: SQL) {
      await mutex.run(async () => {
        writer.run(query);
      });
    },
    async migrate() {
      await mutex.run(async () => migrateSqlite(writer, { migrationsFolder: MIGRATIONS.sqlite }));
    },
    async ping() {
      reader.get(sql`select 1`);
    },
    async close() {
      await mutex.run(async () => {
        readerConn.close();
        writerConn.close();
      });
    },
  };
}

function openPostgres(url: string): Database {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  let closing = false;
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', (error) => {
    if (!closing) console.error(`PostgreSQL : connexion inactive perdue (${error.message})`);
  });
  const orm = drizzlePg(pool, { schema: pgSchema });
  const read = orm as unknown as Orm;
  const current = new AsyncLocalStorage<Orm>();

  return {
    engine: 'postgres',
    url,
    t: pgSchema as unknown as Schema,
    read,
    async transaction(fn) {
      const outer = current.getStore();
      if (outer) return fn(outer);
      return orm.transaction(async (tx) => {
        const typed = tx as unknown as Orm;
        return current.run(typed, () => fn(typed));
      });
    },
    async rows<T>(query: SQL, tx?: Orm) {
      const runner = (tx ?? current.getStore() ?? read) as unknown as typeof orm;
      const result = await runner.execute(query);
      return result.rows as T[];
    },
    async execute(query: SQL) {
      await orm.execute(query);
    },
    async migrate() {
      await migratePg(orm, { migrationsFolder: MIGRATIONS.postgres });
    },
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      closing = true;
      await pool.end();
    },
  };
}
