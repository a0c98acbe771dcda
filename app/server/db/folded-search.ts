import { inArray, sql, type SQL } from 'drizzle-orm';
import { normalizeSearch } from '../domains/signalements/search-text';

/**
 * Accent- and case-insensitive "contains" for the small reference tables (partners, users: hundreds
 * of rows). Neither engine folds accents like the report search does (SQLite's lower() is ASCII-only,
 * PostgreSQL's depends on the collation and never strips marks), so the folding happens here, in
 * JavaScript, with the report search's own normalizeSearch: the result is identical on both engines.
 * The caller reads the id and the searched texts of every row and gets back an `id IN (…)` condition.
 */
export function foldedMatch<Row extends { id: number }>(
  rows: Row[],
  texts: (row: Row) => Array<string | null | undefined>,
  search: string,
): number[] {
  const term = normalizeSearch(search);
  return rows
    .filter((row) => texts(row).some((text) => text != null && normalizeSearch(text).includes(term)))
    .map((r) => r.id);
}

/** `column IN (ids)`, or a condition no row meets when nothing matched. */
export function idIn(column: Parameters<typeof inArray>[0], ids: number[]): SQL {
  return ids.length === 0 ? sql`1 = 0` : inArray(column, ids);
}
