// The list's filters live in the address bar (bookmarkable, back button). The browser URL uses short
// readable keys; the API gets the §7 vocabulary (order[field]=desc, field[]=a, signalementAt[after]).
// Shared by the client (web/features/signalement/list) and the saved filters' server check (server/domains/filtres).
import { PAGE_SIZE_SIGNALEMENTS } from '#shared/constants';
import {
  ECHEANCE_FILTERS,
  ETAT_FILTERS,
  type EcheanceFilter,
  type EtatFilter,
  type SignalementListInput,
} from '#shared/schemas/signalements';

export const SORTS = [
  { key: 'recent', label: 'Plus récent', field: 'signalementAt' },
  { key: 'code', label: 'Code', field: 'code' },
  { key: 'partenaire', label: 'Partenaire', field: 'partenaire.designation' },
  // The nearest due day first (docs/decisions/0032); reports without a deadline last.
  { key: 'echeance', label: 'Échéance', field: 'echeance', direction: 'asc' },
] as const;
export type SortKey = (typeof SORTS)[number]['key'];
export const DEFAULT_SORT: SortKey = 'recent';

export interface ListFilters {
  page: number;
  search: string;
  sort: SortKey;
  partenaires: string[];
  subjects: string[];
  createdBy: string[];
  /** « Assigné à »: a user's code, or NOT_ASSIGNED for « Non assigné » (docs/decisions/0028). */
  assignee: string | null;
  region: string | null;
  district: string | null;
  commune: string | null;
  /** yyyy-MM-dd, inclusive bounds of signalementAt. */
  after: string | null;
  before: string | null;
  /** « En retard » or « À échéance sous 7 jours » (docs/decisions/0032). */
  echeance: EcheanceFilter | null;
  /** « Ouverts » (not treated) or « Traités ou clos »: what the dashboard's « Mes dossiers » counts. */
  etat: EtatFilter | null;
}

/** The « Assigné à » value of « Non assigné » (never a user's code: codes are upper-case). */
export const NOT_ASSIGNED = 'aucun';

/** « Mes dossiers »: the list filtered on the reports assigned to this user (open or not). */
export const myCasesPath = (userCode: string) =>
  `/signalement/list?${KEY.assignee}=${encodeURIComponent(userCode)}`;

/** « Mes dossiers ouverts »: the reports assigned to this user that are not treated or closed. */
export const myOpenCasesPath = (userCode: string) => `${myCasesPath(userCode)}&${KEY.etat}=ouvert`;

/** Every filter cleared; the page and the sort are not filters (« Réinitialiser » keeps the sort). */
export const CLEARED_FILTERS: Omit<ListFilters, 'page' | 'sort'> = {
  search: '',
  partenaires: [],
  subjects: [],
  createdBy: [],
  assignee: null,
  region: null,
  district: null,
  commune: null,
  after: null,
  before: null,
  echeance: null,
  etat: null,
};

export const EMPTY_FILTERS: ListFilters = { page: 1, sort: DEFAULT_SORT, ...CLEARED_FILTERS };

// Browser URL keys.
export const LIST_URL_KEYS = {
  page: 'page',
  search: 'q',
  sort: 'tri',
  partenaires: 'partenaire',
  subjects: 'objet',
  createdBy: 'createur',
  assignee: 'assigne',
  region: 'region',
  district: 'district',
  commune: 'commune',
  after: 'du',
  before: 'au',
  echeance: 'echeance',
  etat: 'etat',
} as const;
const KEY = LIST_URL_KEYS;

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

function single(params: URLSearchParams, key: string): string | null {
  const value = params.get(key)?.trim();
  return value ? value : null;
}

function many(params: URLSearchParams, key: string): string[] {
  return [
    ...new Set(
      params
        .getAll(key)
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
}

const echeanceOf = (value: string | null): EcheanceFilter | null =>
  ECHEANCE_FILTERS.find((f) => f === value) ?? null;
const etatOf = (value: string | null): EtatFilter | null => ETAT_FILTERS.find((f) => f === value) ?? null;

/** Reads the filters from a query string ('?q=x&page=2' or 'q=x&page=2'); junk falls back to defaults. */
export function parseListSearch(search: string): ListFilters {
  const params = new URLSearchParams(search);
  const page = Number(params.get(KEY.page));
  const sort = params.get(KEY.sort);
  const day = (key: string) => {
    const value = single(params, key);
    return value && ISO_DAY.test(value) ? value : null;
  };
  const region = single(params, KEY.region);
  const district = region ? single(params, KEY.district) : null;
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    search: params.get(KEY.search)?.trim() ?? '',
    sort: SORTS.some((s) => s.key === sort) ? (sort as SortKey) : DEFAULT_SORT,
    partenaires: many(params, KEY.partenaires),
    subjects: many(params, KEY.subjects),
    createdBy: many(params, KEY.createdBy),
    assignee: single(params, KEY.assignee),
    // The cascade of §4 holds in the URL too: no district without its region, no commune without district.
    region,
    district,
    commune: district ? single(params, KEY.commune) : null,
    after: day(KEY.after),
    before: day(KEY.before),
    echeance: echeanceOf(single(params, KEY.echeance)),
    etat: etatOf(single(params, KEY.etat)),
  };
}

/** The query string (without '?') for the filters; defaults are left out so the plain list URL stays bare. */
export function listSearchString(filters: ListFilters): string {
  const params = new URLSearchParams();
  if (filters.search.trim()) params.set(KEY.search, filters.search.trim());
  if (filters.sort !== DEFAULT_SORT) params.set(KEY.sort, filters.sort);
  for (const v of filters.partenaires) params.append(KEY.partenaires, v);
  for (const v of filters.subjects) params.append(KEY.subjects, v);
  for (const v of filters.createdBy) params.append(KEY.createdBy, v);
  if (filters.assignee) params.set(KEY.assignee, filters.assignee);
  if (filters.region) params.set(KEY.region, filters.region);
  if (filters.region && filters.district) params.set(KEY.district, filters.district);
  if (filters.region && filters.district && filters.commune) params.set(KEY.commune, filters.commune);
  if (filters.after) params.set(KEY.after, filters.after);
  if (filters.before) params.set(KEY.before, filters.before);
  if (filters.echeance) params.set(KEY.echeance, filters.echeance);
  if (filters.etat) params.set(KEY.etat, filters.etat);
  if (filters.page > 1) params.set(KEY.page, String(filters.page));
  return params.toString();
}

/** Whether any filter (not the page or the sort) narrows the list. */
export function hasActiveFilters(filters: ListFilters): boolean {
  return listSearchString({ ...filters, page: 1, sort: DEFAULT_SORT }) !== '';
}

/** The filters without pagination, as the list call and the export share them. */
export function apiFilters(filters: ListFilters): Omit<SignalementListInput, 'page' | 'itemsPerPage'> {
  const sort = SORTS.find((s) => s.key === filters.sort) ?? SORTS[0];
  const direction = 'direction' in sort ? sort.direction : 'desc';
  const input: Omit<SignalementListInput, 'page' | 'itemsPerPage'> = { order: { [sort.field]: direction } };
  if (filters.search.trim()) input.search = filters.search.trim();
  if (filters.partenaires.length) input['partenaire.code'] = filters.partenaires;
  if (filters.subjects.length) input['subjects.code'] = filters.subjects;
  if (filters.createdBy.length) input['createdBy.code'] = filters.createdBy;
  if (filters.assignee === NOT_ASSIGNED) input.exists = { assignees: false };
  else if (filters.assignee) input['assignees.code'] = [filters.assignee];
  if (filters.region) input['region.code'] = filters.region;
  if (filters.region && filters.district) input['district.code'] = filters.district;
  if (filters.region && filters.district && filters.commune) input['commune.code'] = filters.commune;
  if (filters.echeance) input.echeance = filters.echeance;
  if (filters.etat) input.etat = filters.etat;
  if (filters.after || filters.before) {
    input.signalementAt = {
      ...(filters.after ? { after: filters.after } : {}),
      ...(filters.before ? { before: filters.before } : {}),
    };
  }
  return input;
}

/** Input of signalements.list. */
export function toListInput(filters: ListFilters): SignalementListInput {
  return { page: filters.page, itemsPerPage: PAGE_SIZE_SIGNALEMENTS, ...apiFilters(filters) };
}

/** The §7 query string of the export (same filters, no page or itemsPerPage). */
export function toExportQuery(filters: ListFilters): string {
  const input = apiFilters(filters);
  const parts: string[] = [];
  const add = (key: string, value: string) => parts.push(`${key}=${encodeURIComponent(value)}`);
  if (input.search) add('search', input.search);
  for (const [field, direction] of Object.entries(input.order ?? {}))
    add(`order[${field}]`, String(direction));
  for (const key of ['partenaire.code', 'subjects.code', 'createdBy.code', 'assignees.code'] as const) {
    for (const value of input[key] ?? []) add(`${key}[]`, value);
  }
  for (const key of ['region.code', 'district.code', 'commune.code'] as const) {
    const value = input[key];
    if (value) add(key, value);
  }
  if (input.exists?.assignees !== undefined) add('exists[assignees]', String(input.exists.assignees));
  if (input.echeance) add('echeance', input.echeance);
  if (input.etat) add('etat', input.etat);
  if (input.signalementAt?.after) add('signalementAt[after]', input.signalementAt.after);
  if (input.signalementAt?.before) add('signalementAt[before]', input.signalementAt.before);
  return parts.join('&');
}
