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
    const match = indexed.map((w) => `"${w.replace(/"/g, '""')}"`).join(' AND ');
    conditions.unshift(sql`${db.t.signalements.id} in (select rowid from signalements_fts where signalements_fts match ${match})`);
  }
  return sql.join(conditions, sql` and `);
}
