// Statements built once per database and run many times with new values (the session check on every
// request, the loader of report DTOs): Drizzle builds their SQL text and row mapping on the first run
// only, instead of on every request (about a millisecond per list request, decision 0023). The
// engines differ in how a prepared query is made (PostgreSQL names it, per connection) and in how a list
// of ids travels as one parameter (the dialect's idListPlaceholder and idListValue, server/db/dialect.ts).
import type { AnyColumn, SQL } from 'drizzle-orm';
import type { Orm, ReadOnlyDatabase } from './client';

export interface Preparable<R> {
  prepare(name?: string): { execute(values?: Record<string, unknown>): R };
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
      // One name, one statement: names are constants of the code, used as they are by PostgreSQL, which
      // prepares the statement on each connection of the pool under that name (SQLite ignores it).
      if (!/^[a-z_]+$/.test(name)) throw new Error(`prepared statement name not allowed: ${name}`);
      statement = build(orm).prepare(`signalements_${name}`);
      cache.set(name, statement);
    }
    return (await statement.execute(values)) as Awaited<R>;
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
