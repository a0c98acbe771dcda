// The list's totals (counting strategies: the day counts, the subject sets, the search index, a bounded
// count) and listPage, which runs a page (list-page.ts) beside its total. The filters themselves, their
// conditions and what each strategy does with each of them: list-filters.ts; what they name, looked up
// once per request: list-filters-resolve.ts. The DTOs of a page: loader.ts.
import { and, countDistinct, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { BusinessCalendar } from '#shared/calendar';
import { LIST_COUNT_CAP, MAX_PAGE_LINKS } from '#shared/constants';
import type { ListContext } from '#server/context';
import type { Orm, ReadOnlyDatabase, Schema } from '#server/db/client';
import {
  countSearchInIndex,
  countSearchInTexts,
  inIdList,
  signalementSearchCondition,
} from '#server/db/search';
import type { SessionUser } from '../auth/session';
import {
  FILTER_KEYS,
  filterTeaching,
  filterWhere,
  onlyFilter,
  type FilterKey,
  type ListFilters,
} from './list-filters';
import { DENSE_SEARCH, resolveFilters, searchStrategy, type ResolvedFilters } from './list-filters-resolve';
import { firstPageSource, pageIds, pageQuery, type PageSource } from './list-page';

// The filters and the page, for the callers that import them from here.
export { filterWhere, type FilterPlan, type ListFilters } from './list-filters';
export {
  DENSE_SEARCH,
  filterConditions,
  resolveFilters,
  searchStrategy,
  type ResolvedFilters,
} from './list-filters-resolve';
export { orderBy, pageIds, pageQuery, type PageSource } from './list-page';

/**
 * A search alone, counted in the FTS5 indexes (up to `limit`), plus the reports found only by a source's
 * exact name (those whose text does not hold the words), or null when the indexes cannot count. Both
 * statements run whether or not a source bears the name.
 */
async function countSearchOnly(
  db: ReadOnlyDatabase,
  search: NonNullable<ResolvedFilters['search']>,
  limit?: number,
): Promise<number | null> {
  const n = await countSearchInIndex(db, search.plan, limit);
  if (n === null || !search.named) return n;
  const s = db.t.signalements;
  // The same words as LIKE on the named reports alone: every route of planSearch finds exactly these.
  const words = signalementSearchCondition(db, search.plan, 'scan')!;
  const [row] = await db.read
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(s)
    .where(and(inIdList(db, s.id, search.named), sql`not (${words})`));
  return n + (row?.n ?? 0);
}

/**
 * The exact count read from signalement_day_counts, which the database's triggers keep in step with every
 * write (decisions 0014 and 0022), when the filters are at most one that the day counts answer and a range of whole
 * business days: one row per day instead of one per report (a million reports: under a millisecond
 * instead of 15–70 ms). Null when the filters need the reports themselves.
 */
export async function countFromDayCounts(
  db: ReadOnlyDatabase,
  f: ListFilters,
  calendar: BusinessCalendar,
): Promise<number | null> {
  const set = filtersSet(f);
  const { signalementAt } = f;
  // At most one filter besides the dates, and one the day counts answer (list-filters.ts, dayCounts).
  const [filter] = set;
  const counted = filter ? filterTeaching(filter[0]) : undefined;
  if (set.length > 1 || (filter && (!counted?.codes || !counted.dayCounts || counted.dayCounts === 'days')))
    return null;
  const after = signalementAt?.after && calendar.instant(signalementAt.after);
  const before = signalementAt?.before && calendar.instant(signalementAt.before);
  // Only an `after` at the start of a business day bounds whole days.
  if (after && calendar.dayStart(calendar.day(after)).getTime() !== after.getTime()) return null;
  const c = db.t.signalementDayCounts;
  const conditions: SQL[] = [];
  if (filter && counted?.codes && counted.dayCounts && counted.dayCounts !== 'days') {
    const { dimension, several } = counted.dayCounts;
    const codes = [...new Set(Array.isArray(filter[1]) ? (filter[1] as string[]) : [String(filter[1])])];
    if (codes.length > 1 && !several) return null;
    const table = db.t[counted.codes] as Schema['partenaires'];
    conditions.push(
      eq(c.dimension, dimension),
      inArray(c.refId, db.read.select({ id: table.id }).from(table).where(inArray(table.code, codes))),
    );
  } else {
    // The whole list's total, asked by every list as it opens (on PostgreSQL, read in the page's one
    // statement instead: listPage, decision 0067): one statement planned once (prepared).
    if (!after && !before) return wholeListTotal(db);
    conditions.push(eq(c.dimension, 'total'), eq(c.refId, 0));
  }
  if (after) conditions.push(gte(c.day, calendar.dayNumber(after)));
  // `before` includes its whole day.
  if (before) conditions.push(lte(c.day, calendar.dayNumber(before)));
  const [row] = await db.read
    .select({ n: sql<number>`coalesce(sum(${c.n}), 0)`.mapWith(Number) })
    .from(c)
    .where(and(...conditions));
  return row?.n ?? 0;
}

/**
 * The filters of `f` that are set, besides the dates, as the planner knows them (list-filters.ts, `isSet`):
 * the day counts, `isWholeList` and filterWhere agree on what is set (`exists` without `assignees` is not).
 */
function filtersSet(f: ListFilters): Array<[FilterKey, unknown]> {
  return FILTER_KEYS.filter((key) => key !== 'signalementAt' && filterTeaching(key)!.isSet(f)).map((key) => [
    key,
    f[key],
  ]);
}

/** Whether `f` lists every report: no filter, no dates (its total is wholeListTotal). */
function isWholeList(f: ListFilters): boolean {
  return filtersSet(f).length === 0 && !filterTeaching('signalementAt')!.isSet(f);
}

/**
 * The statement of wholeListTotal, built on `orm`: alone, or a part of the first page's one statement
 * (decision 0067). Its values are constants of its text, not parameters: the one statement has none, so
 * PostgreSQL plans it once per connection.
 */
export function wholeListTotalQuery(db: ReadOnlyDatabase, orm: Orm) {
  const c = db.t.signalementDayCounts;
  return orm
    .select({ n: sql<number>`coalesce(sum(${c.n}), 0)`.mapWith(Number) })
    .from(c)
    .where(sql`${c.dimension} = 'total' and ${c.refId} = 0`);
}

/**
 * How many reports there are: the sum of the day counts' totals (decision 0065). Prepared, so on SQLite read
 * on the serving thread (db.prepared): one row per business day with reports, a few thousand at most.
 */
export async function wholeListTotal(db: ReadOnlyDatabase): Promise<number> {
  const [row] = await db.prepared('whole_list_total', (orm) => wholeListTotalQuery(db, orm), {});
  return row?.n ?? 0;
}

/** The exact count when an index or the counters give it cheaply, or null. */
export async function cheapExactCount(
  db: ReadOnlyDatabase,
  f: ListFilters,
  calendar: BusinessCalendar,
): Promise<number | null> {
  const counted = await countFromDayCounts(db, f, calendar);
  if (counted !== null) return counted;
  const subjectCodes = f['subjects.code'];
  const subjectSetCount = db.dialect.subjectSetCount;
  if (!subjectSetCount || !subjectCodes || subjectCodes.length === 0 || !onlyFilter(f, 'subjects.code'))
    return null;
  // The subject ids are resolved first: the count below takes them as values.
  const { subjects } = db.t;
  const ids = (
    await db.read.select({ id: subjects.id }).from(subjects).where(inArray(subjects.code, subjectCodes))
  ).map((r) => r.id);
  if (ids.length === 0) return 0;
  const [row] = await db.rows<{ n: unknown }>(subjectSetCount(ids));
  return db.dialect.count(row?.n);
}

/** How many reports match the filters, exactly (tests, benchmarks; the list uses listTotal). */
export async function countSignalements(
  ctx: ListContext,
  f: ListFilters,
  viewer?: SessionUser,
): Promise<number> {
  const { db } = ctx;
  const cheap = await cheapExactCount(db, f, ctx.calendar);
  if (cheap !== null) return cheap;
  const { signalementSubjects: ss, subjects } = db.t;
  const subjectCodes = f['subjects.code'];
  if (subjectCodes && subjectCodes.length > 0 && onlyFilter(f, 'subjects.code')) {
    const ids = (
      await db.read.select({ id: subjects.id }).from(subjects).where(inArray(subjects.code, subjectCodes))
    ).map((r) => r.id);
    if (ids.length === 0) return 0;
    const [row] = await db.read
      .select({ n: countDistinct(ss.signalementId) })
      .from(ss)
      .where(inArray(ss.subjectId, ids));
    return row?.n ?? 0;
  }
  const r = await resolveFilters(ctx, f, viewer);
  if (r.search && onlyFilter(f, 'search')) {
    const n = await countSearchOnly(db, r.search);
    if (n !== null) return n;
  }
  const s = db.t.signalements;
  const [row] = await db.read
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(s)
    .where(filterWhere(db, r, { mode: 'set', viewer }));
  return row?.n ?? 0;
}

/**
 * A list's total (decision 0022): exact when the counters or an index give it cheaply (no filter, one
 * place, partners, creators or one subject, with or without whole days; subjects alone on SQLite);
 * otherwise matches are counted one by one up to `cap` and no further: exact at or under `cap`, and
 * beyond it the answer is « more than `cap` » (`exact: false`, `n: cap`), which bounds the cost of a
 * combination of filters or a common word (a million reports: 20–70 ms for an exact count).
 */
export interface ListTotal {
  n: number;
  exact: boolean;
}

export async function listTotal(
  ctx: ListContext,
  f: ListFilters,
  viewer: SessionUser,
  cap: number,
): Promise<ListTotal> {
  const { db } = ctx;
  const cheap = await cheapExactCount(db, f, ctx.calendar);
  return cheap !== null
    ? { n: cheap, exact: true }
    : boundedTotal(db, await resolveFilters(ctx, f, viewer), viewer, cap);
}

/** The second half of listTotal: the matches counted one by one, up to `cap + 1`. */
export async function boundedTotal(
  db: ReadOnlyDatabase,
  r: ResolvedFilters,
  viewer: SessionUser,
  cap: number,
): Promise<ListTotal> {
  const indexed = await indexedSearchTotal(db, r, cap);
  if (indexed) return indexed;
  const strategy = (await searchStrategy(db, r)) === 'scan' ? 'sequential' : 'index';
  return countedTotal(db, r, viewer, cap, strategy);
}

const bounded = (n: number, cap: number): ListTotal =>
  n > cap ? { n: cap, exact: false } : { n, exact: true };

/**
 * A search alone counted in the search index (SQLite's FTS5), up to the cap; the same count tells how
 * its page reads the words (searchStrategy). Null when the index cannot count (PostgreSQL, other filters).
 */
async function indexedSearchTotal(
  db: ReadOnlyDatabase,
  r: ResolvedFilters,
  cap: number,
): Promise<ListTotal | null> {
  if (!r.search || !onlyFilter(r.f, 'search')) return null;
  const n = await countSearchOnly(db, r.search, Math.max(cap, DENSE_SEARCH) + 1);
  if (n === null) return null;
  r.search.strategy ??= Promise.resolve(n > DENSE_SEARCH ? 'scan' : 'index');
  return bounded(n, cap);
}

/**
 * boundedCountQuery, run; a search alone counted sequentially reads the narrow copy of the search texts
 * where the engine keeps one (PostgreSQL, decision 0064).
 */
async function countedTotal(
  db: ReadOnlyDatabase,
  r: ResolvedFilters,
  viewer: SessionUser,
  cap: number,
  strategy: 'index' | 'sequential',
): Promise<ListTotal> {
  if (strategy === 'sequential' && r.search && onlyFilter(r.f, 'search')) {
    const n = await countSearchInTexts(db, r.search.plan, r.search.named, cap + 1);
    if (n !== null) return bounded(n, cap);
  }
  const [row] = await boundedCountQuery(db, r, viewer, cap, strategy);
  return bounded(row?.n ?? 0, cap);
}

/** The statement of boundedTotal: the matches up to `cap + 1`, counted. */
export function boundedCountQuery(
  db: ReadOnlyDatabase,
  r: ResolvedFilters,
  viewer: SessionUser,
  cap: number,
  strategy: 'index' | 'sequential',
) {
  const s = db.t.signalements;
  const where = filterWhere(db, r, { mode: 'page', counting: true, searchStrategy: strategy, viewer });
  const matches = db.read
    .select({ one: sql`1` })
    .from(s)
    .where(where)
    .limit(cap + 1)
    .as('matches');
  return db.read.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(matches);
}

/**
 * What a page's loader answers: its items and, when its source asked for it (`wholeTotal`) and the loader
 * read it with the page, the whole list's total.
 */
export interface LoadedPage<T> {
  items: T;
  total?: number;
}

/**
 * One page of the list: its ids in the list's order and its total (decision 0022). Counted as far as the
 * pager needs: a few pages past this one, and at least LIST_COUNT_CAP; below the largest safe integer
 * whatever the page number. `load` turns the page into its rows as soon as the page has answered, while
 * the total may still be counted (decision 0030); one of the first pages of the whole list is given to
 * `load` as its statement, so that its rows are read beside the total (decision 0063), and where the
 * dialect reads such a page in one statement, the whole list's total is read in it (decision 0067).
 */
export async function listPage<T = number[]>(
  ctx: ListContext,
  viewer: SessionUser,
  q: ListFilters & { page: number; itemsPerPage: number },
  load: (page: PageSource) => Promise<LoadedPage<T>> = async (page) => {
    // The ids alone, and the total beside them when the page asks for it.
    const [ids, total] = await Promise.all([
      pageIds(ctx.db, page),
      'name' in page && page.wholeTotal ? wholeListTotal(ctx.db) : undefined,
    ]);
    return total === undefined ? { items: ids as T } : { items: ids as T, total };
  },
): Promise<{ items: T; total: ListTotal }> {
  const { db } = ctx;
  const cap = Math.min(
    Number.MAX_SAFE_INTEGER - 1,
    Math.max(LIST_COUNT_CAP, (q.page + MAX_PAGE_LINKS) * q.itemsPerPage),
  );
  const resolving = resolveFilters(ctx, q, viewer);
  if (db.dialect.pageInOneStatement && isWholeList(q)) {
    // The list as it opens, in one statement: its rows and the whole list's total, one snapshot.
    const first = firstPageSource(db, await resolving, viewer, q);
    if (first) {
      const { items, total } = await load({ ...first, wholeTotal: true });
      return { items, total: { n: total ?? (await wholeListTotal(db)), exact: true } };
    }
  }
  // Side by side: each step waits for a database round trip (a reader thread, a pooled connection), and
  // neither the page nor its rows wait for the counters (decision 0030).
  const counting = cheapExactCount(db, q, ctx.calendar);
  const pageOf = async (r: ResolvedFilters, strategy: 'index' | 'scan') =>
    (await load({ ids: (await pageQuery(db, r, viewer, q, strategy)).map((row) => row.id) })).items;
  if (!q.search) {
    const [total, items] = await Promise.all([
      counting.then(async (counted) =>
        counted !== null ? { n: counted, exact: true } : boundedTotal(db, await resolving, viewer, cap),
      ),
      resolving.then(async (r) => {
        const first = firstPageSource(db, r, viewer, q);
        return first ? (await load(first)).items : pageOf(r, 'index');
      }),
    ]);
    return { items, total };
  }
  const [r, counted] = await Promise.all([resolving, counting]);
  // A search reads its page by the index or by a scan depending on how many match.
  const known = counted !== null ? bounded(counted, cap) : await indexedSearchTotal(db, r, cap);
  const strategy = await searchStrategy(db, r);
  if (known) return { items: await pageOf(r, strategy), total: known };
  // The count and the page are different reads (a common word: a scan that stops at the cap, and a page
  // read in date order; a rare word: the trigram bitmap, once stopped at the cap and once sorted): side by
  // side on two connections, the request waits for the slower one instead of both (decision 0030).
  const [total, items] = await Promise.all([
    countedTotal(db, r, viewer, cap, strategy === 'scan' ? 'sequential' : 'index'),
    pageOf(r, strategy),
  ]);
  return { items, total };
}
