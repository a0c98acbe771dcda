import { getTableColumns, getTableName, sql, type Column, type Table } from 'drizzle-orm';
import { type Database, type Orm } from '../client';

/**
 * Multi-row INSERT whose values are written as SQL literals rather than bound parameters, for the
 * demo generator only. Drizzle spends several microseconds per bound parameter building a statement,
 * which at a few million values was most of the time of a 100,000-report seed.
 *
 * Each value first goes through its column's own mapToDriverValue (a Date becomes epoch milliseconds
 * on SQLite and an ISO string on PostgreSQL, a list becomes JSON), then is quoted the way both engines
 * read it: strings in single quotes with quotes doubled (PostgreSQL's standard_conforming_strings is on
 * by default, so backslashes are literal). Do not use it for user input; services use the builders.
 */

// Far below both engines' statement size limits, and keeps each statement's memory small.
const MAX_STATEMENT_CHARS = 512 * 1024;

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  switch (typeof value) {
    case 'number':
      if (!Number.isFinite(value)) throw new Error(`Valeur numérique invalide : ${value}`);
      return String(value);
    case 'bigint':
      return String(value);
    case 'boolean':
      return value ? 'TRUE' : 'FALSE';
    case 'string':
      if (value.includes('\0')) throw new Error('Caractère NUL interdit dans une valeur texte');
      return `'${value.replaceAll("'", "''")}'`;
    default:
      throw new Error(`Type de valeur non pris en charge : ${typeof value}`);
  }
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export interface BulkInsertOptions {
  /** ON CONFLICT (column) DO NOTHING: conflicting rows are skipped and absent from the result. */
  onConflictDoNothing?: Column;
  /** Columns returned for each inserted row, keyed by their database name. */
  returning: Column[];
}

/**
 * Inserts rows (all with the same defined keys as the first row) and returns the `returning` columns of
 * the inserted rows. Always RETURNING: better-sqlite3 only runs row-returning statements through
 * Database.rows, the one raw-SQL door that works on both engines.
 */
export async function bulkInsert<T extends Table>(
  db: Database,
  tx: Orm,
  table: T,
  rows: Array<Partial<T['$inferInsert']>>,
  options: BulkInsertOptions,
): Promise<Array<Record<string, unknown>>> {
  const first = rows[0];
  if (!first) return [];
  // A column left undefined in the first row is left out, so the database applies its default (an
  // identity id on PostgreSQL refuses an explicit NULL).
  const columns = Object.entries(getTableColumns(table) as Record<string, Column>).filter(
    ([key]) => (first as Record<string, unknown>)[key] !== undefined,
  );
  const head = `INSERT INTO ${quote(getTableName(table))} (${columns.map(([, c]) => quote(c.name)).join(', ')}) VALUES `;
  const tail =
    (options.onConflictDoNothing
      ? ` ON CONFLICT (${quote(options.onConflictDoNothing.name)}) DO NOTHING`
      : '') + ` RETURNING ${options.returning.map((c) => quote(c.name)).join(', ')}`;

  const out: Array<Record<string, unknown>> = [];
  let tuples: string[] = [];
  let size = 0;
  const flush = async () => {
    if (tuples.length === 0) return;
    const text = head + tuples.join(', ') + tail;
    tuples = [];
    size = 0;
    out.push(...(await db.rows<Record<string, unknown>>(sql.raw(text), tx)));
  };
  for (const row of rows) {
    const values = row as Record<string, unknown>;
    const parts = columns.map(([key, column]) => {
      const value = values[key];
      return literal(value === null || value === undefined ? null : column.mapToDriverValue(value));
    });
    const tuple = `(${parts.join(', ')})`;
    tuples.push(tuple);
    size += tuple.length + 2;
    if (size >= MAX_STATEMENT_CHARS) await flush();
  }
  await flush();
  return out;
}
