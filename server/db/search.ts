import { sql, type SQL } from 'drizzle-orm';
import type { Database } from './client';
import { normalizeSearch } from '../domains/signalements/search-text';

// LIKE wildcards are dropped from the words rather than escaped: FTS5's trigram index cannot serve a
// LIKE with an ESCAPE clause, and a search for '%' or '_' has no useful meaning here.
const WILDCARDS = /[\\%_]/g;

/** The words of a search: lower-case, accent-free, without LIKE wildcards, at most 8. */
export function searchWords(query: string): string[] {
  return normalizeSearch(query.replace(WILDCARDS, ' ')).split(' ').filter(Boolean).slice(0, 8);
}

/**
 * The report-search condition for the running engine: every word of the query must appear in
 * search_text.
 * - 'index' (default): on SQLite, words of 3+ characters go through the FTS5 trigram index as phrase
 *   queries (a trigram phrase matches a substring, read from the index alone); shorter words use LIKE.
 *   On PostgreSQL the pg_trgm GIN index serves LIKE '%word%' directly.
 * - 'scan': plain LIKE on the column, for a page read in date order when the words are common: the
 *   scan stops after a page of matches, where the index would first collect every match.
 */
export function signalementSearchCondition(db: Database, query: string, strategy: 'index' | 'scan' = 'index'): SQL | undefined {
  const words = searchWords(query);
  if (words.length === 0) return undefined;
  const column = db.t.signalements.searchText;
  const like = (word: string) => sql`${column} like ${`%${word}%`}`;
  if (db.engine !== 'sqlite' || strategy === 'scan') return sql.join(words.map(like), sql` and `);
  const indexed = words.filter((w) => w.length >= 3);
  const conditions = words.filter((w) => w.length < 3).map(like);
  if (indexed.length > 0) {
    conditions.unshift(sql`${db.t.signalements.id} in (select rowid from signalements_fts where signalements_fts match ${ftsMatch(indexed)})`);
  }
  return sql.join(conditions, sql` and `);
}

/** The FTS5 query: each word a trigram phrase (a substring), all required. */
const ftsMatch = (words: string[]) => words.map((w) => `"${w.replace(/"/g, '""')}"`).join(' AND ');

/**
 * How many reports match a search, counted in the FTS5 index alone, or null when the index cannot
 * answer by itself (PostgreSQL, or a word under 3 characters). The index has one row per report, so
 * the count needs no lookup in the reports table (which costs a random read per match).
 */
export async function countSearchInIndex(db: Database, query: string): Promise<number | null> {
  const words = searchWords(query);
  if (db.engine !== 'sqlite' || words.length === 0 || words.some((w) => w.length < 3)) return null;
  const [row] = await db.rows(sql`select count(*) as n from signalements_fts where signalements_fts match ${ftsMatch(words)}`);
  return Number(row?.n ?? 0);
}
