// Statements built once per database and run many times with new values (the session check on every
// request, the loader of report DTOs): Drizzle builds their SQL text and row mapping on the first run
// only, instead of on every request (about a millisecond per list request, decision 0023). The
// engines differ in how a prepared query is made (PostgreSQL names it, per connection) and in how a list
// of ids travels as one parameter (the dialect's idListPlaceholder and idListValue, server/db/dialect.ts).
import { fillPlaceholders, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Orm, ReadOnlyDatabase } from './client';
import type { TransactionScope } from './transaction-scope';

export interface Preparable<R> {
  prepare(name?: string): { execute(values?: Record<string, unknown>): R };
}

/** PostgreSQL keeps a statement's name to this many bytes (NAMEDATALEN − 1): two longer names may collide. */
const MAX_STATEMENT_NAME = 63;

/**
 * The engine's name of the prepared statement `name`. One name, one statement: names are constants of the
 * code, used as they are by PostgreSQL, which prepares the statement on each connection of the pool under
 * that name (SQLite ignores it).
 */
export function statementName(name: string): string {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`prepared statement name not allowed: ${name}`);
  const full = `signalements_${name}`;
  if (full.length > MAX_STATEMENT_NAME) throw new Error(`prepared statement name too long: ${full}`);
  return full;
}

/** Database.prepared: the runner of one database's prepared reads, built on `orm` (client.ts). */
export function preparedRunner(orm: Orm) {
  const cache = new Map<string, { execute(values?: Record<string, unknown>): unknown }>();
  return async function prepared<R>(
    name: string,
    build: (orm: Orm) => Preparable<R>,
    values: Record<string, unknown>,
  ): Promise<Awaited<R>> {
    let statement = cache.get(name);
    if (!statement) {
      statement = build(orm).prepare(statementName(name));
      cache.set(name, statement);
    }
    return (await statement.execute(values)) as Awaited<R>;
  };
}

/** A statement that preparedValues reads as arrays: any query builder of the Orm (its SQL and parameters). */
export interface ValuesPreparable {
  toSQL(): { sql: string; params: unknown[] };
}

/** Runs a statement's text with its parameters under `name`, each row an array of the driver's values. */
export type ValuesRun = (name: string, text: string, params: unknown[]) => Promise<unknown[][]>;

/**
 * Database.preparedValues: `build(orm)`'s SQL text and parameters are made on first use and kept under
 * `name`, then run by `run` with `values` in its placeholders. Outside transactions only: the reads it
 * serves (the xlsx export's batches) run on threads that have none, and a transaction's statements go
 * through its own connection, which `run` does not hold.
 */
export function valuesRunner(orm: Orm, scope: TransactionScope, run: ValuesRun) {
  const cache = new Map<string, { name: string; sql: string; params: unknown[] }>();
  return async function preparedValues(
    name: string,
    build: (orm: Orm) => ValuesPreparable,
    values: Record<string, unknown>,
  ): Promise<unknown[][]> {
    if (scope.current()) throw new Error('preparedValues: outside a transaction only');
    let statement = cache.get(name);
    if (!statement) {
      statement = { name: statementName(name), ...build(orm).toSQL() };
      cache.set(name, statement);
    }
    return run(statement.name, statement.sql, fillPlaceholders(statement.params, values));
  };
}

/** `column` is one of the ids given as the placeholder `name` (its value made by idList). */
export function inIdList(db: ReadOnlyDatabase, column: AnyColumn, name: string): SQL {
  return db.dialect.idListPlaceholder(column, name);
}

/** The value of an inIdList placeholder. */
export function idList(db: ReadOnlyDatabase, ids: readonly number[]): unknown {
  return db.dialect.idListValue(ids);
}
