import { sql, type SQL } from 'drizzle-orm';
import type { Database } from './client';
import { normalizeSearch } from '../domains/signalements/search-text';

// LIKE wildcards are dropped from the words rather than escaped: FTS5's trigram index cannot serve a
// LIKE with an ESCAPE clause, and a search for '%' or '_' has no useful meaning here.
const WILDCARDS = /[\\%_]/g;

/**
 * The report-search condition for the running engine: every word of the query must appear in
 * search_text. Words of three characters or more use the trigram index (FTS5 on SQLite, pg_trgm on
 * PostgreSQL); shorter words fall back to a plain LIKE on the column.
 */
export function signalementSearchCondition(db: Database, query: string): SQL | undefined {
  const words = normalizeSearch(query.replace(WILDCARDS, ' ')).split(' ').filter(Boolean).slice(0, 8);
  if (words.length === 0) return undefined;
  const column = db.t.signalements.searchText;
  const id = db.t.signalements.id;
  const conditions = words.map((word) => {
    const pattern = `%${word}%`;
    if (db.engine === 'sqlite' && word.length >= 3) {
      return sql`${id} in (select rowid from signalements_fts where search_text like ${pattern})`;
    }
    return sql`${column} like ${pattern}`;
  });
  return sql.join(conditions, sql` and `);
}
