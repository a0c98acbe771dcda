import { sql, type SQL } from 'drizzle-orm';
import type { Database } from './client';
import { normalizeSearch } from '../domains/signalements/search-text';

const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The report-search condition for the running engine: every word of the query must appear in
 * search_text. Words of three characters or more use the trigram index (FTS5 on SQLite, pg_trgm on
 * PostgreSQL); shorter words fall back to a plain LIKE on the column.
 */
export function signalementSearchCondition(db: Database, query: string): SQL | undefined {
  const words = normalizeSearch(query).split(' ').filter(Boolean).slice(0, 8);
  if (words.length === 0) return undefined;
  const column = db.t.signalements.searchText;
  const id = db.t.signalements.id;
  const conditions = words.map((word) => {
    const pattern = `%${escapeLike(word)}%`;
    if (db.engine === 'sqlite' && word.length >= 3) {
      return sql`${id} in (select rowid from signalements_fts where search_text like ${pattern} escape '\\')`;
    }
    return sql`${column} like ${pattern} escape '\\'`;
  });
  return sql.join(conditions, sql` and `);
}
