// What the list's filters name, looked up once per request (resolveFilters): the coded filters' ids, the
// search's plan, the reports with a source of the searched name, and how dense the assignees and words are.
import { and, count, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { BusinessCalendar } from '#shared/calendar';
import { cipherOf, systemClock, type ListContext, type ReadsWithCipher } from '#server/context';
import type { ReadOnlyDatabase, Schema } from '#server/db/client';
import { isDenseSearch, planSearch, type WordMatch } from '#server/db/search';
import type { SessionUser } from '../auth/session';
import { editableCondition } from './access';
import {
  FILTER_KEYS,
  filterWhere,
  LIST_FILTERS,
  type CodedFilter,
  type FilterKey,
  type FilterPlan,
  type FilterTeaching,
  type ListFilters,
} from './list-filters';

const teaching = (key: FilterKey): FilterTeaching => LIST_FILTERS[key];
const CODED_FILTERS = FILTER_KEYS.filter((key) => teaching(key).codes !== undefined) as CodedFilter[];

/**
 * The reports with a source named exactly `search` (normalised), among those whose sources the viewer
 * may know: the SQL form of canSeeSources (access.ts): not anonymous, or editable by the viewer
 * (editableCondition: created by or assigned to them), or any report for an administrator. Names are encrypted: only the keyed HMAC of the whole name is compared.
 * Looked up for every search, and the list's statements take the answer as one parameter (inIdList), so
 * a name that exists and one that does not issue the same statements with the same plans: the time of a
 * search does not tell whether a protected source bears a name (decision 0015).
 */
async function reportsNamed(ctx: ReadsWithCipher, search: string, viewer: SessionUser): Promise<number[]> {
  const { db } = ctx;
  // A keyed hash that no source has when the search is blank: the same statement runs.
  const index = cipherOf(ctx).blindIndex(search) ?? '';
  const { signalements: s, sources } = db.t;
  const editable = editableCondition(db, viewer);
  const visible = editable ? or(eq(s.isAnonyme, false), editable) : undefined;
  const rows = await db.read
    .selectDistinct({ id: s.id })
    .from(sources)
    .innerJoin(s, eq(s.id, sources.signalementId))
    .where(and(eq(sources.nomIndex, index), visible));
  return rows.map((r) => Number(r.id));
}

/**
 * What the filters name, looked up once per request and side by side: the ids of the coded filters' rows
 * (one query), the search's plan against the token list, and whether a source bears the searched name.
 */
export interface ResolvedFilters {
  f: ListFilters;
  /** The business calendar the date filters' days belong to (the context's). */
  calendar: BusinessCalendar;
  /** Today's business day (epoch-day number) by the context's clock: the deadline filters' reference. */
  today: number;
  /** For each coded filter set, the ids of its rows (unknown codes have none). */
  ids: Partial<Record<CodedFilter, number[]>>;
  /** `named`: the reports the viewer may know with a source of that exact name (only with a viewer). */
  search?: { plan: WordMatch[]; named?: number[]; strategy?: Promise<'index' | 'scan'> };
  /** Whether the « Assigné à » users hold more than DENSE_ASSIGNMENTS reports (the page's plan). */
  denseAssignments?: boolean;
}

/** With a viewer, a search also matches the exact name of a source the viewer may know. */
export async function resolveFilters(
  ctx: ListContext,
  f: ListFilters,
  viewer?: SessionUser,
): Promise<ResolvedFilters> {
  const { db } = ctx;
  const named: Array<[CodedFilter, string[]]> = [];
  for (const key of CODED_FILTERS) {
    const value = f[key];
    const list = Array.isArray(value) ? value : value ? [value] : [];
    if (list.length > 0) named.push([key, list]);
  }
  const lookUp = async () => {
    if (named.length === 0) return [];
    const parts = named.map(([key, list]) => {
      const table = db.t[teaching(key).codes!] as Schema['partenaires'];
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
  const assignees = ids['assignees.code'];
  const denseAssignments =
    assignees && assignees.length > 0 ? await holdMany(db, assignees, DENSE_ASSIGNMENTS) : undefined;
  return {
    f,
    ...(denseAssignments === undefined ? {} : { denseAssignments }),
    calendar: ctx.calendar,
    today: ctx.calendar.dayNumber((ctx.clock ?? systemClock).now()),
    ids,
    ...(plan ? { search: { plan, ...(sourcesNamed ? { named: sourcesNamed } : {}) } } : {}),
  };
}

/** filterWhere after resolveFilters, for callers that run the filters once (export, counts, tests). */
export async function filterConditions(
  ctx: ListContext,
  f: ListFilters,
  plan: FilterPlan = { mode: 'set' },
): Promise<SQL | undefined> {
  return filterWhere(ctx.db, await resolveFilters(ctx, f, plan.viewer), plan);
}

/**
 * Above this many assignments, a page of « Assigné à » walks the list's order and probes each report
 * (list-filters' 'assignees.code'); at or below it, the users' reports are collected and sorted.
 */
export const DENSE_ASSIGNMENTS = 2000;

/** Whether these users hold more than `threshold` assignments: at most threshold + 1 index entries read. */
async function holdMany(db: ReadOnlyDatabase, userIds: number[], threshold: number): Promise<boolean> {
  const a = db.t.signalementAssignees;
  const held = db.read
    .select({ one: sql`1` })
    .from(a)
    .where(inArray(a.userId, userIds))
    .limit(threshold + 1)
    .as('held');
  const [row] = await db.read.select({ n: count() }).from(held);
  return Number(row?.n ?? 0) > threshold;
}

/**
 * Above this many matches a search page is read by scanning in date order (matches are dense, so a
 * page is found after a few rows); below it, the matches are collected from the index and sorted.
 */
export const DENSE_SEARCH = 2000;

/**
 * How a page (or a bounded count) reads the search words: through the indexes when they are rare, by a
 * scan in date order when they are common (server/db/search.ts, isDenseSearch).
 */
export async function searchStrategy(db: ReadOnlyDatabase, r: ResolvedFilters): Promise<'index' | 'scan'> {
  if (!r.search) return 'index';
  // Asked by the bounded count and the page of one request: looked up once.
  r.search.strategy ??= isDenseSearch(db, r.search.plan, DENSE_SEARCH).then((dense) =>
    dense ? 'scan' : 'index',
  );
  return r.search.strategy;
}
