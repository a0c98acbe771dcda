import { count, desc, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Database, Orm, ReadOnlyDatabase } from './client';
import { normalizeSearch } from '../domains/signalements/search-text';

// LIKE wildcards are dropped from the words rather than escaped: FTS5's trigram index cannot serve a
// LIKE with an ESCAPE clause, and a search for '%' or '_' has no useful meaning here.
const WILDCARDS = /[\\%_]/g;

/** The words of a search: lower-case, accent-free, without LIKE wildcards, at most 8. */
export function searchWords(query: string): string[] {
  return normalizeSearch(query.replace(WILDCARDS, ' ')).split(' ').filter(Boolean).slice(0, 8);
}

// FTS5's 'ascii' tokenizer (the word index of migration 0005): ASCII characters other than letters and
// digits separate tokens, every other character belongs to one, and only ASCII letters are folded.
const ASCII_SEPARATORS = /[^A-Za-z0-9\u{80}-\u{10FFFF}]+/u;
const ASCII_UPPER = /[A-Z]+/g;

/** The tokens the word index holds for a text, in the same form (FTS5 'ascii' tokenizer). */
export function searchTokens(text: string): string[] {
  return text
    .replace(ASCII_UPPER, (letters) => letters.toLowerCase())
    .split(ASCII_SEPARATORS)
    .filter(Boolean);
}

/**
 * Above this many tokens containing a word, the trigram index answers faster than the word index (an
 * OR of many tokens merges many lists); measured on 1,000,000 demo reports, see decision 0011.
 */
export const MAX_WORD_TERMS = 32;

/**
 * How one search word is matched on SQLite:
 * - 'like': under 3 characters, no index can serve it (LIKE on search_text);
 * - 'terms': a single token of 4+ characters, matched through the word index as any of the indexed
 *   tokens that contain it (`terms`, possibly none: then nothing matches);
 * - 'trigram': anything else (3 characters, separators inside, or too many tokens contain it), as a
 *   substring through the trigram index.
 * On PostgreSQL every word is 'like' (pg_trgm serves LIKE '%word%').
 */
export type WordMatch = { word: string } & (
  { via: 'like' } | { via: 'trigram' } | { via: 'terms'; terms: string[] }
);

/**
 * Decides how each word of a search is matched, reading the token list of migration 0005. Every route
 * finds exactly the reports whose search_text contains every word: a word without separators can only
 * occur inside one token, and search_terms lists every indexed token.
 */
export async function planSearch(db: ReadOnlyDatabase, query: string): Promise<WordMatch[]> {
  const plan: WordMatch[] = [];
  for (const word of searchWords(query)) {
    if (!db.dialect.searchIndexes || word.length < 3) {
      plan.push({ word, via: 'like' });
      continue;
    }
    const tokens = searchTokens(word);
    if (word.length < 4 || tokens.length !== 1 || tokens[0] !== word) {
      plan.push({ word, via: 'trigram' });
      continue;
    }
    const rows = await db.rows<{ term: string }>(sql`
      select term from search_terms
      where id in (select rowid from search_terms_fts where search_terms_fts match ${phrase(word)})
      limit ${MAX_WORD_TERMS + 1}`);
    plan.push(
      rows.length <= MAX_WORD_TERMS
        ? { word, via: 'terms', terms: rows.map((r) => r.term) }
        : { word, via: 'trigram' },
    );
  }
  return plan;
}

/** An FTS5 string literal: a trigram phrase (a substring) or one token of the word index. */
const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** The FTS5 query of the trigram index: each word a substring, all required. */
const trigramMatch = (plan: WordMatch[]) => plan.map((w) => phrase(w.word)).join(' AND ');

/** The FTS5 query of the word index: for each word one of its tokens, all words required. */
const wordsMatch = (plan: Array<Extract<WordMatch, { via: 'terms' }>>) =>
  plan.map((w) => `(${w.terms.map(phrase).join(' OR ')})`).join(' AND ');

const byRoute = (plan: WordMatch[]) => ({
  like: plan.filter((w) => w.via === 'like'),
  trigram: plan.filter((w) => w.via === 'trigram'),
  terms: plan.filter((w): w is Extract<WordMatch, { via: 'terms' }> => w.via === 'terms'),
});

/**
 * `column IN ids` with the list as one parameter, whatever its length (none included): the statement's
 * text, and so its plan, are the same whether the list is empty or not (the exact-source-name search,
 * decision 0015: a different statement for a name that exists was measurable). PostgreSQL reads it as
 * `= ANY` on the column's index (a BitmapOr beside the trigram index), SQLite as a rowid list.
 */
export function inIdList(db: ReadOnlyDatabase, column: SQL | AnyColumn, ids: readonly number[]): SQL {
  return db.dialect.idList(column, ids);
}

/**
 * Whether the plan proves that no report's search text holds the words: one of them is in no indexed token
 * (SQLite's word index; search_terms lists every token, planSearch). Never on PostgreSQL.
 */
export function matchesNothing(plan: WordMatch[]): boolean {
  return byRoute(plan).terms.some((w) => w.terms.length === 0);
}

/**
 * Every word of the plan in `column`, each tested as a scan that stops at a cap tests it (the dialect's
 * containsSequentially: strpos on PostgreSQL, decision 0062): the 'sequential' condition, the count in the
 * copy of the texts and the density check.
 */
function containsEveryWord(db: ReadOnlyDatabase, plan: WordMatch[], column: SQL | AnyColumn): SQL {
  return sql.join(
    plan.map((w) => db.dialect.containsSequentially(column, w.word)),
    sql` and `,
  );
}

/**
 * The report-search condition: every word of the plan must appear in search_text.
 * - 'index' (default): each word through its route of planSearch (a set of ids from an FTS5 index).
 * - 'scan': plain LIKE on the column, for a page read in date order when the words are common: the
 *   scan stops after a page of matches, where an index would first collect every match (PostgreSQL's
 *   planner makes that choice itself from the trigram statistics).
 * - 'sequential': the same test by the dialect's containsSequentially (PostgreSQL's strpos, which keeps the
 *   trigram index out of the plan and costs a row less than LIKE: decision 0062), for a count that stops at
 *   a cap and a page read in an indexed order: the bitmap holds every match before the first is counted
 *   (80 ms for two common words at a million reports, against 40 ms for a scan that stops at 1,001), and
 *   the planner, which multiplies the words' frequencies, may prefer it for several common words.
 */
export function signalementSearchCondition(
  db: ReadOnlyDatabase,
  plan: WordMatch[],
  strategy: 'index' | 'scan' | 'sequential' = 'index',
): SQL | undefined {
  if (plan.length === 0) return undefined;
  const s = db.t.signalements;
  const like = (w: WordMatch) => sql`${s.searchText} like ${`%${w.word}%`}`;
  if (strategy === 'sequential') return containsEveryWord(db, plan, s.searchText);
  if (strategy === 'scan') return sql.join(plan.map(like), sql` and `);
  const { like: short, trigram, terms } = byRoute(plan);
  if (matchesNothing(plan)) return sql`1 = 0`;
  const conditions = short.map(like);
  if (trigram.length > 0) {
    conditions.unshift(
      sql`${s.id} in (select rowid from signalements_fts where signalements_fts match ${trigramMatch(trigram)})`,
    );
  }
  if (terms.length > 0) {
    conditions.unshift(
      sql`${s.id} in (select rowid from signalements_words where signalements_words match ${wordsMatch(terms)})`,
    );
  }
  return sql.join(conditions, sql` and `);
}

/**
 * How many reports match a search, counted in the FTS5 indexes alone, or null when they cannot answer
 * by themselves (PostgreSQL, or a word under 3 characters). The indexes have one row per report, so
 * the count needs no lookup in the reports table (which costs a random read per match). With `limit`,
 * the count stops there (a common word: a million reports hold 70,000 matches).
 */
export async function countSearchInIndex(
  db: ReadOnlyDatabase,
  plan: WordMatch[],
  limit?: number,
): Promise<number | null> {
  if (!db.dialect.searchIndexes || plan.length === 0) return null;
  const { like, trigram, terms } = byRoute(plan);
  if (like.length > 0) return null;
  if (matchesNothing(plan)) return 0;
  const matches =
    terms.length === 0
      ? sql`select 1 from signalements_fts where signalements_fts match ${trigramMatch(trigram)}`
      : trigram.length === 0
        ? sql`select 1 from signalements_words where signalements_words match ${wordsMatch(terms)}`
        : sql`select 1 from signalements_words where signalements_words match ${wordsMatch(terms)}
                and rowid in (select rowid from signalements_fts where signalements_fts match ${trigramMatch(trigram)})`;
  const bounded = limit === undefined ? matches : sql`${matches} limit ${limit}`;
  const [row] = await db.rows<{ n: number }>(sql`select count(*) as n from (${bounded})`);
  return Number(row?.n ?? 0);
}

/**
 * How many reports hold every word, or have a source of that exact name (`named`: their ids), up to
 * `limit`, counted by a scan of the narrow copy of the search texts (decision 0064) with the test of a
 * bounded count (containsSequentially): the same reports as the 'sequential' condition on the reports'
 * table, at half the cost a row. Null where the engine keeps no copy (SQLite) or no word is planned.
 */
export async function countSearchInTexts(
  db: ReadOnlyDatabase,
  plan: WordMatch[],
  named: readonly number[] | undefined,
  limit: number,
): Promise<number | null> {
  const statement = searchTextsCount(db, plan, named, limit);
  if (!statement) return null;
  const [row] = await db.rows<{ n: unknown }>(statement);
  return db.dialect.count(row?.n);
}

/** The statement of countSearchInTexts (null where it returns null). */
export function searchTextsCount(
  db: ReadOnlyDatabase,
  plan: WordMatch[],
  named: readonly number[] | undefined,
  limit: number,
): SQL | null {
  const texts = db.dialect.searchTexts;
  if (!texts || plan.length === 0) return null;
  const words = containsEveryWord(db, plan, texts.text);
  const where = named ? sql`(${words}) or ${inIdList(db, texts.id, named)}` : words;
  return sql`select count(*) as n from (select 1 from ${texts.table} where ${where} limit ${limit}) matches`;
}

/** How many of the latest reports isDenseSearch reads when no index can count the matches. */
const DENSITY_SAMPLE = 1000;

/**
 * Whether a search matches so many reports that a page is best read by a scan in date order (which stops
 * after a page of matches) rather than through an index (which first collects every match): more than
 * `threshold` matches counted in the FTS5 indexes on SQLite; where they cannot count (PostgreSQL, words
 * under 3 characters), 1 % of matches among the latest DENSITY_SAMPLE reports (the ones a first page
 * reads). A word common lately and rare before is then counted by a scan of the whole table (decision 0022).
 */
export async function isDenseSearch(
  db: ReadOnlyDatabase,
  plan: WordMatch[],
  threshold: number,
): Promise<boolean> {
  if (plan.length === 0) return false;
  const n = await countSearchInIndex(db, plan, threshold + 1);
  if (n !== null) return n > threshold;
  const s = db.t.signalements;
  const recent = db.read
    .select({ text: s.searchText })
    .from(s)
    .orderBy(desc(s.signalementAt), desc(s.id))
    .limit(DENSITY_SAMPLE)
    .as('recent');
  // A scan of DENSITY_SAMPLE texts, as a bounded count's: strpos on PostgreSQL (decision 0062).
  const [row] = await db.read
    .select({ n: count() })
    .from(recent)
    .where(containsEveryWord(db, plan, recent.text));
  return (row?.n ?? 0) >= DENSITY_SAMPLE / 100;
}

/**
 * Adds the tokens of these search texts to search_terms (SQLite), in the transaction that writes the
 * texts: a token missing from that list could not be found by a search word inside it. Every writer of
 * signalements.search_text calls it (refreshSearchText, the demo generator).
 */
export async function recordSearchTerms(db: Database, tx: Orm, texts: Iterable<string>): Promise<void> {
  if (!db.dialect.searchIndexes) return;
  const tokens = new Set<string>();
  for (const text of texts) for (const token of searchTokens(text)) tokens.add(token);
  const all = [...tokens];
  // Bound each statement's JSON argument (the demo generator passes thousands of reports at once).
  for (let i = 0; i < all.length; i += 20_000) {
    const chunk = JSON.stringify(all.slice(i, i + 20_000));
    await db.rows(
      sql`insert or ignore into search_terms(term) select value from json_each(${chunk}) returning id`,
      tx,
    );
  }
}
