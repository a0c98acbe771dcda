// The list's filters (spec §7), taught in one place: LIST_FILTERS says, for each filter, whether it is
// set, which rows it names by code, its WHERE condition and how the day counts answer a total under it.
// A filter added to signalementListSchema does not compile until it has its entry here. The totals
// (queries.ts) and the page (list-page.ts) read the filters through this module only.
import {
  and,
  count,
  eq,
  exists,
  gte,
  inArray,
  lt,
  not,
  or,
  sql,
  type AnyColumn,
  type SQL,
} from 'drizzle-orm';
import { addDays, type BusinessCalendar } from '#shared/calendar';
import type { SignalementListQuery } from '#shared/schemas/signalements';
import { cipherOf, systemClock, type ListContext, type ReadsWithCipher } from '#server/context';
import type { ReadOnlyDatabase, Schema } from '#server/db/client';
import {
  inIdList,
  isDenseSearch,
  planSearch,
  signalementSearchCondition,
  type WordMatch,
} from '#server/db/search';
import type { SessionUser } from '../auth/session';
import { dueSoonCondition, overdueCondition } from '../delais/conditions';
import { editableCondition } from './access';

export type ListFilters = Omit<SignalementListQuery, 'page' | 'itemsPerPage'>;
/** The filters; `order` only sorts (list-page.ts). */
export type FilterKey = Exclude<keyof ListFilters, 'order'>;
/** The filters that name rows by code (each has `codes` in LIST_FILTERS). */
type CodedFilter = Extract<FilterKey, `${string}.code`>;

export interface FilterPlan {
  /**
   * 'page' reads one page in sort order: membership tests that stop early (EXISTS, LIKE scan).
   * 'set' collects every match (counts, export): index lookups that build the whole set.
   */
  mode: 'page' | 'set';
  /** A bounded count in 'page' mode (no order): a membership test that pays off only in order is not used. */
  counting?: boolean;
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

/** What a filter's condition is built from (filterWhere). */
interface WhereContext {
  db: ReadOnlyDatabase;
  r: ResolvedFilters;
  plan: FilterPlan;
  /** Whether a filter other than this one is set (it narrows the set this one is tested on). */
  narrowed: boolean;
}

type DayCountDimension = Schema['signalementDayCounts']['$inferSelect']['dimension'];

/** What the planner knows of one filter. */
interface FilterTeaching {
  /** Whether the filter is set (an empty list or a blank value is not). */
  isSet: (f: ListFilters) => boolean;
  /** The table whose rows the filter names by code: looked up once per request, compared as ids. */
  codes?: keyof Schema;
  /**
   * How the day counts (signalement_day_counts, decisions 0014 and 0022) answer a total under this filter
   * when it is the only one besides the dates: a dimension, and whether several codes add up exactly (a
   * report has one place of each level, one partner and one creator, but maybe several subjects);
   * 'days' for the date range itself; null when the total needs the reports.
   */
  dayCounts: { dimension: DayCountDimension; several: boolean } | 'days' | null;
  /** Its WHERE conditions (none when it is not set). */
  where: (c: WhereContext) => Array<SQL | undefined>;
}

const hasCodes = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value.length > 0 : Boolean(value);

/** A filter naming rows by code: the report's column holds one of their ids. */
const coded = (
  key: CodedFilter,
  codes: keyof Schema,
  column: (s: Schema['signalements']) => AnyColumn,
  dayCounts: FilterTeaching['dayCounts'],
): FilterTeaching => ({
  isSet: (f) => hasCodes(f[key]),
  codes,
  dayCounts,
  where: ({ db, r }) => {
    const ids = r.ids[key];
    return [ids ? inArray(column(db.t.signalements), ids) : undefined];
  },
});

/**
 * Every filter of the list, in the order of its conditions. Codes are compared as ids: with ids as values
 * SQLite plans the report scan well (a sub-select inside a correlated EXISTS is rebuilt for every report
 * it probes: 25 ms instead of 0.1 ms for one page).
 */
export const LIST_FILTERS = {
  'partenaire.code': coded('partenaire.code', 'partenaires', (s) => s.partenaireId, {
    dimension: 'partenaire',
    several: true,
  }),
  'createdBy.code': coded('createdBy.code', 'utilisateurs', (s) => s.createdById, {
    dimension: 'createur',
    several: true,
  }),
  'subjects.code': {
    isSet: (f) => hasCodes(f['subjects.code']),
    codes: 'subjects',
    dayCounts: { dimension: 'subject', several: false },
    where: ({ db, r, plan, narrowed }) => {
      const subjectIds = r.ids['subjects.code'];
      if (!subjectIds) return [];
      const { signalements: s, signalementSubjects: ss } = db.t;
      // Another filter narrows the set: each of its reports is probed through the links' index (a
      // subject's links alone can be 150,000 rows at a million reports, each a random read of the report).
      return [
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
      ];
    },
  },
  'region.code': coded('region.code', 'regions', (s) => s.regionId, { dimension: 'region', several: false }),
  'district.code': coded('district.code', 'districts', (s) => s.districtId, {
    dimension: 'district',
    several: false,
  }),
  'commune.code': coded('commune.code', 'communes', (s) => s.communeId, {
    dimension: 'commune',
    several: false,
  }),
  signalementAt: {
    isSet: (f) => Boolean(f.signalementAt?.after || f.signalementAt?.before),
    dayCounts: 'days',
    where: ({ db, r }) => {
      const s = db.t.signalements;
      const { calendar } = r;
      const after = r.f.signalementAt?.after;
      const before = r.f.signalementAt?.before && calendar.instant(r.f.signalementAt.before);
      return [
        after ? gte(s.signalementAt, calendar.instant(after)) : undefined,
        // Inclusive by business day: up to the end of the day that contains `before` (a bare day is its
        // first instant).
        before ? lt(s.signalementAt, calendar.dayStart(addDays(calendar.day(before), 1))) : undefined,
      ];
    },
  },
  // « Assigné à » (docs/decisions/0028): when the users hold few reports (DENSE_ASSIGNMENTS or fewer),
  // the set comes straight from the (user_id, signalement_id) index and the page sorts it; when they hold
  // many, a page walks the list's order and probes each report through the assignees' primary key
  // (signalement_id first), stopping after a page, as « Non assigné » does: sorting tens of thousands of
  // rows to show twenty cost 160 ms at 1,000,000 reports (bench:reports). The bounded count keeps the set,
  // which stops after cap + 1 entries of the users' index.
  'assignees.code': {
    isSet: (f) => hasCodes(f['assignees.code']),
    codes: 'utilisateurs',
    dayCounts: null,
    where: ({ db, r, plan }) => {
      const userIds = r.ids['assignees.code'];
      if (!userIds) return [];
      const { signalements: s, signalementAssignees: a } = db.t;
      if (plan.mode === 'page' && !plan.counting && r.denseAssignments) {
        // A scalar subquery, not EXISTS: SQLite turns an EXISTS into a join and first builds a Bloom filter
        // of every assignment (150 ms at 800,000), for a page that probes a few hundred reports.
        const held = db.read
          .select({ one: sql`1` })
          .from(a)
          .where(and(eq(a.signalementId, s.id), inArray(a.userId, userIds)))
          .limit(1);
        return [sql`(${held}) = 1`];
      }
      return [
        inArray(s.id, db.read.select({ id: a.signalementId }).from(a).where(inArray(a.userId, userIds))),
      ];
    },
  },
  // « Non assigné » (exists[assignees]=false), or assigned to anyone (true): each report probed through
  // the assignees' primary key (signalement_id first), in the list's order, stopping after a page.
  exists: {
    isSet: (f) => f.exists?.assignees !== undefined,
    dayCounts: null,
    where: ({ db, r }) => {
      const wanted = r.f.exists?.assignees;
      if (wanted === undefined) return [];
      const { signalements: s, signalementAssignees: a } = db.t;
      const assigned = exists(
        db.read
          .select({ one: sql`1` })
          .from(a)
          .where(eq(a.signalementId, s.id)),
      );
      return [wanted ? assigned : not(assigned)];
    },
  },
  // « En retard » (due day before today) and « À échéance sous 7 jours » (today to today + 7): a range of
  // the due-day index (docs/decisions/0032), which holds NO_DUE_DAY for reports without a deadline, treated
  // and closed ones included, so the range holds open reports only.
  echeance: {
    isSet: (f) => f.echeance !== undefined,
    dayCounts: null,
    where: ({ db, r }) => {
      switch (r.f.echeance) {
        case 'en_retard':
          return [overdueCondition(db, r.today)];
        case 'sous_7_jours':
          return [dueSoonCondition(db, r.today)];
        default:
          return [];
      }
    },
  },
  search: {
    isSet: (f) => Boolean(f.search),
    dayCounts: null,
    where: ({ db, r, plan }) => {
      if (!r.f.search || !r.search) return [];
      const text = signalementSearchCondition(db, r.search.plan, plan.searchStrategy);
      // The same condition whether or not some source bears the name (an empty list then).
      const named = r.search.named ? inIdList(db, db.t.signalements.id, r.search.named) : undefined;
      // A search of only wildcards plans no word (no condition): it must not become "sources named …".
      return [named && text ? or(text, named) : text];
    },
  },
} satisfies Record<FilterKey, FilterTeaching>;

export const FILTER_KEYS = Object.keys(LIST_FILTERS) as FilterKey[];
const teaching = (key: FilterKey): FilterTeaching => LIST_FILTERS[key];
/** What the planner knows of a filter named `name`, or undefined when it is not a filter. */
export const filterTeaching = (name: string): FilterTeaching | undefined =>
  Object.hasOwn(LIST_FILTERS, name) ? teaching(name as FilterKey) : undefined;

const CODED_FILTERS = FILTER_KEYS.filter((key) => teaching(key).codes !== undefined) as CodedFilter[];

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

/** The WHERE conditions of the §7 filters (LIST_FILTERS), in one AND. `before` includes its whole day. */
export function filterWhere(
  db: ReadOnlyDatabase,
  r: ResolvedFilters,
  plan: FilterPlan = { mode: 'set' },
): SQL | undefined {
  const set = FILTER_KEYS.filter((key) => teaching(key).isSet(r.f));
  const conditions = FILTER_KEYS.flatMap((key) =>
    teaching(key).where({ db, r, plan, narrowed: set.some((other) => other !== key) }),
  );
  const kept = conditions.filter((c): c is SQL => c !== undefined);
  return kept.length > 0 ? and(...kept) : undefined;
}

/** filterWhere after resolveFilters, for callers that run the filters once (export, counts, tests). */
export async function filterConditions(
  ctx: ListContext,
  f: ListFilters,
  plan: FilterPlan = { mode: 'set' },
): Promise<SQL | undefined> {
  return filterWhere(ctx.db, await resolveFilters(ctx, f, plan.viewer), plan);
}

/** Whether `key` is the only filter set (sorting and paging do not narrow the set). */
export function onlyFilter(
  f: ListFilters & { page?: number; itemsPerPage?: number },
  key: keyof ListFilters,
): boolean {
  const { order: _order, page: _page, itemsPerPage: _size, ...rest } = f;
  return Object.entries(rest).every(
    ([name, value]) => name === key || value === undefined || (Array.isArray(value) && value.length === 0),
  );
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
