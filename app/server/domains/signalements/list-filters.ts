// The list's filters (spec §7), taught in one place: LIST_FILTERS says, for each filter, whether it is
// set, which rows it names by code, its WHERE condition and how the day counts answer a total under it.
// A filter added to signalementListSchema does not compile until it has its entry here. The totals
// (queries.ts) and the page (list-page.ts) read the filters through this module only; what the filters
// name is looked up once per request in list-filters-resolve.ts (ResolvedFilters).
import { and, eq, exists, gte, inArray, lt, not, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { addDays } from '#shared/calendar';
import type { SignalementListQuery } from '#shared/schemas/signalements';
import type { ReadOnlyDatabase, Schema } from '#server/db/client';
import { inIdList, matchesNothing, signalementSearchCondition } from '#server/db/search';
import type { SessionUser } from '../auth/session';
import { dueSoonCondition, overdueCondition } from '../delais/conditions';
import type { ResolvedFilters } from './list-filters-resolve';

export type ListFilters = Omit<SignalementListQuery, 'page' | 'itemsPerPage'>;
/** The filters; `order` only sorts (list-page.ts). */
export type FilterKey = Exclude<keyof ListFilters, 'order'>;
/** The filters that name rows by code (each has `codes` in LIST_FILTERS). */
export type CodedFilter = Extract<FilterKey, `${string}.code`>;

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

/** What a filter's condition is built from (filterWhere). */
interface WhereContext {
  db: ReadOnlyDatabase;
  r: ResolvedFilters;
  plan: FilterPlan;
  /** Whether a filter other than this one is set (it narrows the set this one is tested on). */
  narrowed: boolean;
}

type DayCountDimension = Schema['signalementDayCounts']['$inferSelect']['dimension'];

/** What the planner knows of one filter. */ export interface FilterTeaching {
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
  // « Ouverts » / « Traités ou clos »: the report's own flag (set by its statut's kind, statut-kind.ts). Open
  // reports are most of the list, so a page reading in date order finds its rows at once; the total is
  // counted on the reports (the day counts do not split by state).
  etat: {
    isSet: (f) => f.etat !== undefined,
    dayCounts: null,
    where: ({ db, r }) =>
      r.f.etat === undefined ? [] : [eq(db.t.signalements.isTreated, r.f.etat === 'traite')],
  },
  search: {
    isSet: (f) => Boolean(f.search),
    dayCounts: null,
    where: ({ db, r, plan }) => {
      if (!r.f.search || !r.search) return [];
      // The same condition whether or not some source bears the name (an empty list then).
      const named = r.search.named ? inIdList(db, db.t.signalements.id, r.search.named) : undefined;
      // Words that no report holds: only the reports of the sources so named can match, read by their ids.
      // « false or id in (…) » walked the whole date index on SQLite (40–140 ms at 1,000,000 reports).
      if (named && matchesNothing(r.search.plan)) return [named];
      const text = signalementSearchCondition(db, r.search.plan, plan.searchStrategy);
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

/**
 * Whether `key` is the only filter set, as each filter's `isSet` says (sorting and paging do not narrow the
 * set; neither do `exists: {}`, an empty list or an empty search).
 */
export function onlyFilter(
  f: ListFilters & { page?: number; itemsPerPage?: number },
  key: FilterKey,
): boolean {
  return FILTER_KEYS.every((name) => name === key || !teaching(name).isSet(f));
}
