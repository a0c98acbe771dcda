import { describe, expect, it } from 'vitest';
import { dashboardTables, type DashboardEngineTimes } from './bench-dashboard-figures';
import { renderFigures } from './figures';

const engine = (name: string, reports: number, scale: number): DashboardEngineTimes => ({
  engine: name,
  reports,
  ranges: [
    {
      range: {},
      calls: [
        { path: 'key-metrics', endpoint: 1.234 * scale, raw: 0.456 * scale },
        { path: 'count-per-niveau', endpoint: 2 * scale, raw: 1 * scale },
      ],
      together: { endpoint: 3.3 * scale, raw: 1.456 * scale },
    },
    {
      range: { dateStart: '2026-10-01', dateEnd: '2026-10-31' },
      calls: [
        { path: 'key-metrics', endpoint: 0.5 * scale, raw: 0.25 * scale },
        { path: 'count-per-niveau', endpoint: 0.75 * scale, raw: 0.125 * scale },
      ],
      together: { endpoint: 1.3 * scale, raw: 0.375 * scale },
    },
  ],
});

describe('dashboardTables', () => {
  it('gives one table per range, the engines side by side, the calls then their sum', () => {
    const tables = dashboardTables([engine('SQLite', 1_000_000, 1), engine('PostgreSQL', 1_000_000, 10)], 15);
    expect(tables).toHaveLength(2);
    expect(tables[0]!.caption).toContain('over the whole range of days');
    expect(tables[0]!.caption).toContain('1,000,000 on SQLite, 1,000,000 on PostgreSQL');
    expect(tables[0]!.caption).toContain('over 15 runs (ms)');
    expect(tables[1]!.caption).toBe('The same calls for one month, 2026-10-01 → 2026-10-31 (ms):');
    expect(tables[0]!.columns).toEqual([
      'call',
      'SQLite endpoint',
      'SQLite raw SQL',
      'PostgreSQL endpoint',
      'PostgreSQL raw SQL',
    ]);
    expect(tables[0]!.rows).toEqual([
      ['key-metrics', 1.2, 0.5, 12.3, 4.6],
      ['count-per-niveau', 2, 1, 20, 10],
      ['the 2 together', 3.3, 1.5, 33, 14.6],
    ]);
    expect(tables[1]!.rows.at(-1)).toEqual(['the 2 together', 1.3, 0.4, 13, 3.8]);
  });

  it('rounds each median once, to the tenth the console shows', () => {
    const times = engine('SQLite', 1_000, 1);
    times.ranges[0]!.calls[0]!.raw = 1.949;
    expect(dashboardTables([times], 15)[0]!.rows[0]).toEqual(['key-metrics', 1.2, 1.9]);
  });

  it('renders one decimal of milliseconds, and a single engine with its own columns', () => {
    const [table] = dashboardTables([engine('PostgreSQL', 2_000, 1)], 3);
    expect(table!.columns).toEqual(['call', 'PostgreSQL endpoint', 'PostgreSQL raw SQL']);
    const markdown = renderFigures({
      name: 'dashboard-2000',
      command: 'npm run bench:dashboard -- --reports 2000 --no-sqlite',
      date: '2026-11-27T12:00:00Z',
      machine: '2 cores (test)',
      source: 'measured by npm run bench:dashboard -- --reports 2000 --no-sqlite',
      tables: [table!],
    });
    expect(markdown).toContain('| key-metrics | 1.2 | 0.5 |');
    expect(markdown).toContain('| count-per-niveau | 2.0 | 1.0 |');
    expect(markdown).toContain('2,000 on PostgreSQL');
  });

  it('has nothing to show when no engine was measured', () => {
    expect(dashboardTables([], 15)).toEqual([]);
  });
});
