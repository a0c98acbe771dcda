import { describe, expect, it } from 'vitest';
import { dashboardSearchString, parseDashboardSearch } from './dashboard-url';

describe('dashboard URL', () => {
  it('reads and writes the range and the map level', () => {
    const state = parseDashboardSearch('?du=2025-11-01&au=2025-11-20&vue=district');
    expect(state).toEqual({ range: { start: '2025-11-01', end: '2025-11-20' }, view: 'District' });
    expect(dashboardSearchString(state)).toBe('du=2025-11-01&au=2025-11-20&vue=district');
  });

  it('leaves the defaults out', () => {
    expect(parseDashboardSearch('')).toEqual({ range: null, view: 'Region' });
    expect(dashboardSearchString({ range: null, view: 'Region' })).toBe('');
  });

  it('ignores broken values: an impossible day, a reversed range, half a range, an unknown level', () => {
    expect(parseDashboardSearch('?du=2025-02-30&au=2025-03-01').range).toBeNull();
    expect(parseDashboardSearch('?du=2025-03-02&au=2025-03-01').range).toBeNull();
    expect(parseDashboardSearch('?du=2025-03-01').range).toBeNull();
    expect(parseDashboardSearch('?du=01/03/2025&au=02/03/2025').range).toBeNull();
    expect(parseDashboardSearch('?vue=Province').view).toBe('Region');
    expect(parseDashboardSearch('?vue=commune').view).toBe('Commune');
  });
});
