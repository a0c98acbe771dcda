// The dashboard's range and map level in the address bar, like the list's filters: a reload,
// a shared link or Back/Forward shows the same figures. Unknown or broken values are ignored.
import { parseDay } from '#shared/calendar';
import type { IsoRange } from './calendar';

export const MAP_LEVELS = ['Region', 'District', 'Commune'] as const;
export type MapLevel = (typeof MAP_LEVELS)[number];

export interface DashboardState {
  range: IsoRange | null;
  view: MapLevel;
}

const KEY = { start: 'du', end: 'au', view: 'vue' } as const;
const VIEW_KEY: Record<MapLevel, string> = { Region: 'region', District: 'district', Commune: 'commune' };

const day = (value: string | null) => (value && parseDay(value) ? value : null);

export function parseDashboardSearch(search: string): DashboardState {
  const params = new URLSearchParams(search);
  const start = day(params.get(KEY.start));
  const end = day(params.get(KEY.end));
  const range = start && end && start <= end ? { start, end } : null;
  const viewParam = params.get(KEY.view);
  const view = MAP_LEVELS.find((level) => VIEW_KEY[level] === viewParam) ?? 'Region';
  return { range, view };
}

/** The query string (without '?') of a state; the defaults (no range, regions) are left out. */
export function dashboardSearchString(state: DashboardState): string {
  const params = new URLSearchParams();
  if (state.range) {
    params.set(KEY.start, state.range.start);
    params.set(KEY.end, state.range.end);
  }
  if (state.view !== 'Region') params.set(KEY.view, VIEW_KEY[state.view]);
  return params.toString();
}
