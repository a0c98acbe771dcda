// Read queries of the report domain: the list filters of §7, the totals and the page of ids (the DTOs of
// a page: loader.ts).
import {
  and,
  asc,
  countDistinct,
  desc,
  eq,
  exists,
  gte,
  inArray,
  lt,
  lte,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { addDays, businessDay, businessDayNumber, businessDayStart } from '../../../shared/calendar';
import { LIST_COUNT_CAP, MAX_PAGE_LINKS } from '../../../shared/constants';
import type { SignalementListQuery } from '../../../shared/schemas/signalements';
import { cipherOf, type WithCipher } from '../../context';
import type { Database, Schema } from '../../db/client';
import {
  countSearchInIndex,
  inIdList,
  isDenseSearch,
  planSearch,
  signalementSearchCondition,
  type WordMatch,
} from '../../db/search';
import { isAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';

export type ListFilters = Omit<SignalementListQuery, 'page' | 'itemsPerPage'>;

export interface FilterPlan {
  /**
   * 'page' reads one page in sort order: membership tests that stop early (EXISTS, LIKE scan).
   * 'set' collects every match (counts, export): index lookups that build the whole set.
   */
  mode: 'page' | 'set';
  /** How the search words are read (server/db/search.ts, signalementSearchCondition). */
  searchStrategy?: 'index' | 'scan' | 'sequential';
  /**
   * Who searches: a report also matches when the whole search is the exact name of one of its sources
   * that this user may know (blind index, docs/decisions/0017). Without it, sources are never matched.
   */
  viewer?: SessionUser;
}

/**
 * The reports with a source named exactly `search` (normalised), among those whose sources the viewer
 * may know: the SQL form of canSeeSources (access.ts): not anonymous, or created by the viewer, or any
 * report for an administrator. Names are encrypted: only the keyed HMAC of the whole name is compared.
 * Looked up for every search, and the list's statements take the answer as one parameter (inIdList), so
 * a name that exists and one that does not issue the same statements with the same plans: the time of a
 * search does not tell whether a protected source bears a name (issue #21, decision 0015).
 */
async function reportsNamed(ctx: WithCipher, search: string, viewer: SessionUser): Promise<number[]> {
  const { db } = ctx;
  // A keyed hash that no source has when the search is blank: the same statement runs.
  const index = cipherOf(ctx).blindIndex(search) ?? '';
  const { signalements: s, sources } = db.t;
  const visible = isAdmin(viewer) ? undefined : or(eq(s.isAnonyme, false), eq(s.createdById, viewer.id));
  const rows = await db.read
    .selectDistinct({ id: s.id })
    .from(sources)
    .innerJoin(s, eq(s.id, sources.signalementId))
    .where(and(eq(sources.nomIndex, index), visible));
  return rows.map((r) => Number(r.id));
}

/** The filters that name rows by code, and the table of each. */
const CODED_FILTERS = {
  'partenaire.code': 'partenaires',
  'createdBy.code': 'utilisateurs',
  'subjects.code': 'subjects',
  'region.code': 'regions',
  'district.code': 'districts',
  'commune.code': 'communes',
} as const;
type CodedFilter = keyof typeof CODED_FILTERS;

/**
 * What the filters name, looked up once per request and side by side: the ids of the coded filters' rows
 * (one query), the search's plan against the token list, and whether a source bears the searched name.
 */
export interface ResolvedFilters {
  f: ListFilters;
  /** For each coded filter set, the ids of its rows (unknown codes have none). */
  ids: Partial<Record<CodedFilter, number[]>>;
  /** `named`: the reports the viewer may know with a source of that exact name (only with a viewer). */
  search?: { plan: WordMatch[]; named?: number[]; strategy?: Promise<'index' | 'scan'> };
}

/** With a viewer, a search also matches the exact name of a source the viewer may know. */
export async function resolveFilters(
  ctx: WithCipher,
  f: ListFilters,
  viewer?: SessionUser,
): Promise<ResolvedFilters> {
  const { db } = ctx;
  const named: Array<[CodedFilter, string[]]> = [];
  for (const key of Object.keys(CODED_FILTERS) as CodedFilter[]) {
    const value = f[key];
    const list = Array.isArray(value) ? value : value ? [value] : [];
    if (list.length > 0) named.push([key, list]);
  }
  const lookUp = async () => {
    if (named.length === 0) return [];
    const parts = named.map(([key, list]) => {
      const table = db.t[CODED_FILTERS[key]] as Schema['partenaires'];
      return sql`select ${key} as k, ${table.id} as id from ${table} where ${inArray(table.code, list)}`;
    });
    return db.rows<{ k: CodedFilter; id: number }>(sql.join(parts, sql` union all `));
  };
  const search = f.search;
  const [rows, plan, sourcesNamed] = await Promise.all([
    lookUp(),
    search ? planSearch(db, search) : undefined,
    search && viewer ? reportsNamed(ctx, search, viewer) : undefined,
  ]);
  const ids: ResolvedFilters['ids'] = Object.fromEntries(named.map(([key]) => [key, [] as number[]]));
  for (const row of rows) ids[row.k]!.push(Number(row.id));
  return { f, ids, ...(plan ? { search: { plan, ...(sourcesNamed ? { named: sourcesNamed } : {}) } } : {}) };
}

/**
 * The WHERE conditions of the §7 filters. `before` includes its whole day. Codes are already ids: with
 * ids as values SQLite plans the report scan well (a sub-select inside a correlated EXISTS is rebuilt for
 * every report it probes: 25 ms instead of 0.1 ms for one page).
 */
export function filterWhere(
  db: Database,
  r: ResolvedFilters,
  plan: FilterPlan = { mode: 'set' },
): SQL | undefined {
  const { signalements: s, signalementSubjects: ss } = db.t;
  const { f, ids } = r;
  const conditions: Array<SQL | undefined> = [];
  if (ids['partenaire.code']) conditions.push(inArray(s.partenaireId, ids['partenaire.code']));
  if (ids['createdBy.code']) conditions.push(inArray(s.createdById, ids['createdBy.code']));
  const subjectIds = ids['subjects.code'];
  if (subjectIds) {
    // Another filter narrows the set: each of its reports is probed through the links' index (a
    // subject's links alone can be 150,000 rows at a million reports, each a random read of the report).
    const narrowed =
      Object.keys(ids).length > 1 || Boolean(f.signalementAt?.after || f.signalementAt?.before || f.search);
    conditions.push(
      plan.mode === 'page' || narrowed
        ? // Read in date order, each report is probed through the links' primary key, and the scan
          // stops after one page.
          exists(
            db.read
              .select({ one: sql`1` })
              .from(ss)
              .where(and(eq(ss.signalementId, s.id), inArray(ss.subjectId, subjectIds))),
          )
        : // The whole set comes straight from the (subject_id, signalement_id) index.
          inArray(
            s.id,
            db.read.select({ id: ss.signalementId }).from(ss).where(inArray(ss.subjectId, subjectIds)),
          ),
    );
  }
  if (ids['region.code']) conditions.push(inArray(s.regionId, ids['region.code']));
  if (ids['district.code']) conditions.push(inArray(s.districtId, ids['district.code']));
  if (ids['commune.code']) conditions.push(inArray(s.communeId, ids['commune.code']));

  const after = f.signalementAt?.after;
  const before = f.signalementAt?.before;
  if (after) conditions.push(gte(s.signalementAt, after));
  // Inclusive by business day: up to the end of the day that contains `before` (a bare day is its first instant).
  if (before) conditions.push(lt(s.signalementAt, businessDayStart(addDays(businessDay(before), 1))));
  if (f.search && r.search) {
    const text = signalementSearchCondition(db, r.search.plan, plan.searchStrategy);
    // The same condition whether or not some source bears the name (an empty list then).
    const named = r.search.named ? inIdList(db, s.id, r.search.named) : undefined;
    // A search of only wildcards plans no word (no condition): it must not become "sources named …".
    conditions.push(named && text ? or(text, named) : text);
  }
  const kept = conditions.filter((c): c is SQL => c !== undefined);
  return kept.length > 0 ? and(...kept) : undefined;
}

/** filterWhere after resolveFilters, for callers that run the filters once (export, counts, tests). */
export async function filterConditions(
  ctx: WithCipher,
  f: ListFilters,
  plan: FilterPlan = { mode: 'set' },
): Promise<SQL | undefined> {
  const { db } = ctx;
  return filterWhere(db, await resolveFilters(ctx, f, plan.viewer), plan);
}

/**
 * A search alone, counted in the FTS5 indexes (up to `limit`), plus the reports found only by a source's
 * exact name (those whose text does not hold the words), or null when the indexes cannot count. Both
 * statements run whether or not a source bears the name.
 */
async function countSearchOnly(
  db: Database,
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

/** Whether `key` is the only filter set (sorting and paging do not narrow the set). */
function onlyFilter(
  f: ListFilters & { page?: number; itemsPerPage?: number },
  key: keyof ListFilters,
): boolean {
  const { order: _order, page: _page, itemsPerPage: _size, ...rest } = f;
  return Object.entries(rest).every(
    ([name, value]) => name === key || value === undefined || (Array.isArray(value) && value.length === 0),
  );
}

/**
 * The filters whose total the day counts answer, each with its dimension and the table its codes name.
 * A report has one place of each level, one partner and one creator, so the counts of several partners
 * (or creators) add up exactly; it may have several subjects, so only a single subject does.
 */
const COUNTED_FILTERS = {
  'region.code': { dimension: 'region', table: 'regions', several: false },
  'district.code': { dimension: 'district', table: 'districts', several: false },
  'commune.code': { dimension: 'commune', table: 'communes', several: false },
  'partenaire.code': { dimension: 'partenaire', table: 'partenaires', several: true },
  'createdBy.code': { dimension: 'createur', table: 'utilisateurs', several: true },
  'subjects.code': { dimension: 'subject', table: 'subjects', several: false },
} as const;
type CountedFilter = keyof typeof COUNTED_FILTERS;

/**
 * The exact count read from signalement_day_counts, which the database's triggers keep in step with every
 * write (decisions 0014 and 0022), when the filters are at most one of COUNTED_FILTERS and a range of whole
 * business days: one row per day instead of one per report (a million reports: under a millisecond
 * instead of 15–70 ms). Null when the filters need the reports themselves.
 */
export async function countFromDayCounts(db: Database, f: ListFilters): Promise<number | null> {
  const {
    order: _order,
    page: _page,
    itemsPerPage: _size,
    signalementAt,
    ...rest
  } = f as ListFilters & { page?: number; itemsPerPage?: number };
  const unset = (value: unknown) =>
    value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
  const set = Object.entries(rest).filter(([, value]) => !unset(value));
  if (set.length > 1 || set.some(([name]) => !(name in COUNTED_FILTERS))) return null;
  const after = signalementAt?.after;
  const before = signalementAt?.before;
  // `after` is an instant: only one at the start of a business day bounds whole days.
  if (after && businessDayStart(businessDay(after)).getTime() !== after.getTime()) return null;
  const c = db.t.signalementDayCounts;
  const conditions: SQL[] = [];
  const [filter] = set;
  if (filter) {
    const { dimension, table: name, several } = COUNTED_FILTERS[filter[0] as CountedFilter];
    const codes = [...new Set(Array.isArray(filter[1]) ? (filter[1] as string[]) : [String(filter[1])])];
    if (codes.length > 1 && !several) return null;
    const table = db.t[name];
    conditions.push(
      eq(c.dimension, dimension),
      inArray(c.refId, db.read.select({ id: table.id }).from(table).where(inArray(table.code, codes))),
    );
  } else {
    conditions.push(eq(c.dimension, 'total'), eq(c.refId, 0));
  }
  if (after) conditions.push(gte(c.day, businessDayNumber(after)));
  // `before` includes its whole day.
  if (before) conditions.push(lte(c.day, businessDayNumber(before)));
  const [row] = await db.read
    .select({ n: sql<number>`coalesce(sum(${c.n}), 0)`.mapWith(Number) })
    .from(c)
    .where(and(...conditions));
  return row?.n ?? 0;
}

/** The exact count when an index or the counters give it cheaply, or null. */
export async function cheapExactCount(db: Database, f: ListFilters): Promise<number | null> {
  const counted = await countFromDayCounts(db, f);
  if (counted !== null) return counted;
  const subjectCodes = f['subjects.code'];
  if (db.engine !== 'sqlite' || !subjectCodes || subjectCodes.length === 0 || !onlyFilter(f, 'subjects.code'))
    return null;
  // The subject ids are resolved first: the count below takes them as values.
  const { subjects } = db.t;
  const ids = (
    await db.read.select({ id: subjects.id }).from(subjects).where(inArray(subjects.code, subjectCodes))
  ).map((r) => r.id);
  if (ids.length === 0) return 0;
  // Migration 0006: a report counts once, in the row of its set of subjects.
  const holds = ids.map((id) => sql`(',' || subjects || ',') like ${`%,${id},%`}`);
  const [row] = await db.rows<{ n: number }>(
    sql`select coalesce(sum(n), 0) as n from signalement_subject_sets where ${sql.join(holds, sql` or `)}`,
  );
  return Number(row?.n ?? 0);
}

/** How many reports match the filters, exactly (tests, benchmarks; the list uses listTotal). */
export async function countSignalements(
  ctx: WithCipher,
  f: ListFilters,
  viewer?: SessionUser,
): Promise<number> {
  const { db } = ctx;
  const cheap = await cheapExactCount(db, f);
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
  ctx: WithCipher,
  f: ListFilters,
  viewer: SessionUser,
  cap: number,
): Promise<ListTotal> {
  const { db } = ctx;
  const cheap = await cheapExactCount(db, f);
  return cheap !== null
    ? { n: cheap, exact: true }
    : boundedTotal(db, await resolveFilters(ctx, f, viewer), viewer, cap);
}

/** The second half of listTotal: the matches counted one by one, up to `cap + 1`. */
export async function boundedTotal(
  db: Database,
  r: ResolvedFilters,
  viewer: SessionUser,
  cap: number,
): Promise<ListTotal> {
  const bounded = (n: number): ListTotal => (n > cap ? { n: cap, exact: false } : { n, exact: true });
  if (r.search && onlyFilter(r.f, 'search')) {
    // One count in the index answers both the total and how the page reads the words (searchStrategy).
    const n = await countSearchOnly(db, r.search, Math.max(cap, DENSE_SEARCH) + 1);
    if (n !== null) {
      r.search.strategy ??= Promise.resolve(n > DENSE_SEARCH ? 'scan' : 'index');
      return bounded(n);
    }
  }
  const strategy = (await searchStrategy(db, r)) === 'scan' ? 'sequential' : 'index';
  const [row] = await boundedCountQuery(db, r, viewer, cap, strategy);
  return bounded(row?.n ?? 0);
}

/** The statement of boundedTotal: the matches up to `cap + 1`, counted. */
export function boundedCountQuery(
  db: Database,
  r: ResolvedFilters,
  viewer: SessionUser,
  cap: number,
  strategy: 'index' | 'sequential',
) {
  const s = db.t.signalements;
  const where = filterWhere(db, r, { mode: 'page', searchStrategy: strategy, viewer });
  const matches = db.read
    .select({ one: sql`1` })
    .from(s)
    .where(where)
    .limit(cap + 1)
    .as('matches');
  return db.read.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(matches);
}

/** The statement of one page of the list: the ids, in the list's order. */
export function pageQuery(
  db: Database,
  r: ResolvedFilters,
  viewer: SessionUser,
  q: { order?: ListFilters['order']; page: number; itemsPerPage: number },
  strategy: 'index' | 'scan',
) {
  const s = db.t.signalements;
  // Common words read in an indexed order: the trigram index kept out of the plan, as for the bounded
  // count (PostgreSQL's estimate for several common words is their product, low enough to prefer the
  // bitmap of every match and a sort). Sorted by partner, no index gives the order: the bitmap stays.
  const byIndexedOrder = Object.keys(q.order ?? {})[0] !== 'partenaire.designation';
  const searchStrategy = strategy === 'scan' && byIndexedOrder ? 'sequential' : strategy;
  return db.read
    .select({ id: s.id })
    .from(s)
    .where(filterWhere(db, r, { mode: 'page', searchStrategy, viewer }))
    .orderBy(...orderBy(db, q.order))
    .limit(q.itemsPerPage)
    .offset((q.page - 1) * q.itemsPerPage);
}

/**
 * How a page (or a bounded count) reads the search words: through the indexes when they are rare, by a
 * scan in date order when they are common (server/db/search.ts, isDenseSearch).
 */
export async function searchStrategy(db: Database, r: ResolvedFilters): Promise<'index' | 'scan'> {
  if (!r.search) return 'index';
  // Asked by the bounded count and the page of one request: looked up once.
  r.search.strategy ??= isDenseSearch(db, r.search.plan, DENSE_SEARCH).then((dense) =>
    dense ? 'scan' : 'index',
  );
  return r.search.strategy;
}

/**
 * Above this many matches a search page is read by scanning in date order (matches are dense, so a
 * page is found after a few rows); below it, the matches are collected from the index and sorted.
 */
export const DENSE_SEARCH = 2000;

/** ORDER BY for the list: one field of §7, ties broken by id so pages never overlap. */
export function orderBy(db: Database, order: ListFilters['order']) {
  const { signalements: s, partenaires } = db.t;
  const [field, direction] = (Object.entries(order ?? {})[0] ?? ['signalementAt', 'desc']) as [
    string,
    'asc' | 'desc',
  ];
  const dir = direction === 'asc' ? asc : desc;
  switch (field) {
    case 'code':
      return [dir(s.code)];
    case 'partenaire.designation':
      return [
        dir(
          db.read
            .select({ d: partenaires.designation })
            .from(partenaires)
            .where(eq(partenaires.id, s.partenaireId)),
        ),
        dir(s.signalementAt),
        dir(s.id),
      ];
    default:
      return [dir(s.signalementAt), dir(s.id)];
  }
}

/**
 * One page of the list: its ids in the list's order and its total (decision 0022), as the endpoint
 * answers before the DTOs are loaded. Counted as far as the pager needs: a few pages past this one, and at
 * least LIST_COUNT_CAP; below the largest safe integer whatever the page number.
 */
export async function listPage(
  ctx: WithCipher,
  viewer: SessionUser,
  q: ListFilters & { page: number; itemsPerPage: number },
): Promise<{ ids: number[]; total: ListTotal }> {
  const { db } = ctx;
  const cap = Math.min(
    Number.MAX_SAFE_INTEGER - 1,
    Math.max(LIST_COUNT_CAP, (q.page + MAX_PAGE_LINKS) * q.itemsPerPage),
  );
  // Side by side: each step waits for a database round trip (a reader thread, a pooled connection).
  const [resolved, counted] = await Promise.all([resolveFilters(ctx, q, viewer), cheapExactCount(db, q)]);
  const totalOf = (): Promise<ListTotal> =>
    counted !== null ? Promise.resolve({ n: counted, exact: true }) : boundedTotal(db, resolved, viewer, cap);
  const pageOf = (strategy: 'index' | 'scan') => pageQuery(db, resolved, viewer, q, strategy);
  // A search reads its page by the index or by a scan depending on how many match; nothing else depends on the total.
  const [total, page] = q.search
    ? await totalOf().then(async (t) => {
        const strategy = !t.exact
          ? await searchStrategy(db, resolved)
          : t.n <= DENSE_SEARCH
            ? 'index'
            : 'scan';
        return [t, await pageOf(strategy)] as const;
      })
    : await Promise.all([totalOf(), pageOf('index')]);
  return { ids: page.map((r) => r.id), total };
}
