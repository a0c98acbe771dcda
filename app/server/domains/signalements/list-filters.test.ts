// Every filter of the list schema is taught to the planner (LIST_FILTERS): its `satisfies` fails to
// compile when an entry or one of its strategies is missing, and this test fails when the schema has a
// filter the planner was never told about at run time either.
import { describe, expect, it } from 'vitest';
import { signalementListSchema } from '#shared/schemas/signalements';
import { FILTER_KEYS, filterTeaching, LIST_FILTERS, onlyFilter } from './list-filters';

describe('LIST_FILTERS', () => {
  it('has one entry for each filter of signalementListSchema, and only those', () => {
    const paging = ['page', 'itemsPerPage', 'order'];
    const filters = Object.keys(signalementListSchema.shape).filter((key) => !paging.includes(key));
    expect([...FILTER_KEYS].sort()).toEqual(filters.sort());
    for (const key of filters) {
      const teaching = filterTeaching(key)!;
      expect(typeof teaching.isSet).toBe('function');
      expect(typeof teaching.where).toBe('function');
      expect(teaching.dayCounts).not.toBeUndefined();
    }
    expect(filterTeaching('order')).toBeUndefined();
    expect(filterTeaching('toString')).toBeUndefined();
  });

  it('says which filters the day counts answer, each through the table its codes name', () => {
    const counted = FILTER_KEYS.filter((key) => {
      const { dayCounts } = LIST_FILTERS[key];
      return dayCounts !== null && typeof dayCounts === 'object';
    });
    expect(counted).toHaveLength(6);
    expect(counted.every((key) => filterTeaching(key)!.codes !== undefined)).toBe(true);
    expect(filterTeaching('search')!.dayCounts).toBeNull();
    expect(filterTeaching('signalementAt')!.dayCounts).toBe('days');
  });

  it('says a filter is the only one set as the filters themselves say what is set', () => {
    expect(onlyFilter({ search: 'fonds' }, 'search')).toBe(true);
    // Sorting and paging do not narrow the set, nor filters that set nothing: `exists[foo]=…` arrives as
    // `exists: {}`, an empty list or search filters nothing.
    expect(
      onlyFilter(
        {
          search: 'fonds',
          order: { code: 'asc' },
          page: 2,
          itemsPerPage: 50,
          exists: {},
          'subjects.code': [],
        },
        'search',
      ),
    ).toBe(true);
    expect(onlyFilter({ 'subjects.code': ['FRAUDE'], search: '' }, 'subjects.code')).toBe(true);
    expect(onlyFilter({ search: 'fonds', etat: 'ouvert' }, 'search')).toBe(false);
    expect(onlyFilter({ search: 'fonds', exists: { assignees: false } }, 'search')).toBe(false);
    expect(onlyFilter({ search: 'fonds', 'subjects.code': ['FRAUDE'] }, 'search')).toBe(false);
  });
});
