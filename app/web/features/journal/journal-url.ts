// The log's filters and page live in the address bar: bookmarkable, and the alert e-mail's link
// '/admin/journal-acces?utilisateur=USR…' opens the list already filtered. The URL keys are the shared
// schema's names, which the xlsx export's query string uses too.
import { z } from 'zod';
import { journalFiltersSchema, type JournalFilters, type JournalListInput } from '#shared/schemas/journal';

export const JOURNAL_PATH = '/journal-acces';

const FILTER_KEYS = ['utilisateur', 'signalement', 'kind', 'du', 'au'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

export interface JournalState {
  page: number;
  filters: JournalFilters;
}

/** The filters without their empty values (a cleared field is no filter). */
function compact(values: Partial<Record<FilterKey, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = values[key]?.trim();
    if (value) out[key] = value;
  }
  return out;
}

/**
 * Reads page and filters from a query string ('?utilisateur=USR1&page=2'). A value the shared schema
 * refuses (unknown kind, malformed day, end before start) is dropped rather than sent to the server.
 */
export function parseJournalSearch(search: string): JournalState {
  const params = new URLSearchParams(search);
  const raw: Record<string, string> = compact(
    Object.fromEntries(FILTER_KEYS.map((k) => [k, params.get(k) ?? undefined])),
  );
  let filters: JournalFilters = {};
  for (let attempt = 0; attempt <= FILTER_KEYS.length; attempt++) {
    const parsed = journalFiltersSchema.safeParse(raw);
    if (parsed.success) {
      filters = parsed.data;
      break;
    }
    for (const issue of parsed.error.issues) delete raw[String(issue.path[0])];
  }
  const page = Number(params.get('page'));
  return { page: Number.isInteger(page) && page >= 1 ? page : 1, filters };
}

/** The filters as query-string pairs (no page): the export's query, and the list URL's without page. */
export function filtersQuery(filters: JournalFilters): string {
  return new URLSearchParams(compact(filters)).toString();
}

/** The query string (without '?') of the list URL; page 1 and empty filters are left out. */
export function journalSearchString({ page, filters }: JournalState): string {
  const params = new URLSearchParams(compact(filters));
  if (page > 1) params.set('page', String(page));
  return params.toString();
}

/** The list URL inside the app (under the /admin base): what the alerts link to. */
export function journalHref(filters: JournalFilters, page = 1): string {
  const query = journalSearchString({ page, filters });
  return query ? `${JOURNAL_PATH}?${query}` : JOURNAL_PATH;
}

export function hasActiveFilters(filters: JournalFilters): boolean {
  return filtersQuery(filters) !== '';
}

/** Input of journal.list. */
export function toListInput({ page, filters }: JournalState): JournalListInput {
  return { page, filters };
}

/** What the filter form holds: every field a string, '' for "all". */
export interface JournalFormValues {
  utilisateur: string;
  signalement: string;
  kind: string;
  du: string;
  au: string;
}

export function toFormValues(filters: JournalFilters): JournalFormValues {
  return {
    utilisateur: filters.utilisateur ?? '',
    signalement: filters.signalement ?? '',
    kind: filters.kind ?? '',
    du: filters.du ?? '',
    au: filters.au ?? '',
  };
}

/** The form's values checked by the shared schema (its French messages), cleared fields first removed. */
export const journalFormSchema = z.preprocess(
  (values: JournalFormValues) => compact(values),
  journalFiltersSchema,
);
