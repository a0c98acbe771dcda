// The tables of docs/figures/dashboard-<N>.json (npm run bench:dashboard): what each engine measured, one
// table per range of days, the engines side by side as in the report list's table (bench:reports).
import type { Cell, FiguresTable } from './figures';

export interface DashboardRange {
  dateStart?: string;
  dateEnd?: string;
}

/** Medians of one range on one engine (ms): each call, then the seven together. */
export interface DashboardRangeTimes {
  range: DashboardRange;
  calls: Array<{ path: string; endpoint: number; raw: number }>;
  /** The median of the seven calls' sums, and the sum of the raw SQL's medians. */
  together: { endpoint: number; raw: number };
}

export interface DashboardEngineTimes {
  engine: string;
  reports: number;
  ranges: DashboardRangeTimes[];
}

// Rounded once, as the console shows them (a second rounding of 1.95 would show 2.0 where the console said 1.9).
const tenths = (ms: number) => Number(ms.toFixed(1));

function rangeName(range: DashboardRange): string {
  return range.dateStart === undefined && range.dateEnd === undefined
    ? 'over the whole range of days'
    : `for one month, ${range.dateStart ?? '…'} → ${range.dateEnd ?? '…'}`;
}

/** One table per range measured (those of the first engine), a pair of columns per engine. */
export function dashboardTables(engines: DashboardEngineTimes[], runs: number): FiguresTable[] {
  const first = engines[0];
  if (!first) return [];
  const sizes = engines.map((e) => `${e.reports.toLocaleString('en-US')} on ${e.engine}`).join(', ');
  return first.ranges.map((range, r) => {
    const rows: Cell[][] = range.calls.map((call, i) => [
      call.path,
      ...engines.flatMap((e) => {
        const times = e.ranges[r]!.calls[i]!;
        return [tenths(times.endpoint), tenths(times.raw)];
      }),
    ]);
    rows.push([
      `the ${range.calls.length} together`,
      ...engines.flatMap((e) => [tenths(e.ranges[r]!.together.endpoint), tenths(e.ranges[r]!.together.raw)]),
    ]);
    const caption =
      r === 0
        ? `The dashboard's calls (\`GET /api/dashboard/…\`, spec §7), ${rangeName(range.range)}; reports in the database: ${sizes}. Median server-side time of each call (in-process, session included) and of the raw SQL it runs, over ${runs} runs (ms); together: the median of the calls' sums, and the sum of the raw SQL's medians.`
        : `The same calls ${rangeName(range.range)} (ms):`;
    return {
      caption,
      columns: ['call', ...engines.flatMap((e) => [`${e.engine} endpoint`, `${e.engine} raw SQL`])],
      decimals: [null, ...engines.flatMap(() => [1, 1])],
      rows,
    };
  });
}
