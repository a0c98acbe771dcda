import { useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { listSearchString, parseListSearch, type ListFilters } from './list-url';

export const LIST_PATH = '/signalement/list';

/**
 * The list filters, read from and written to the address bar. Each change is a history entry (the back
 * button undoes it), except typing in the search box, which replaces the entry so that one word is not
 * ten steps back. Changing a filter returns to page 1.
 */
export function useListFilters() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const filters = useMemo(() => parseListSearch(search), [search]);

  const update = useMemo(
    () =>
      (change: Partial<ListFilters>, options: { replace?: boolean } = {}) => {
        // Read the address bar at call time: a debounced call must not write back stale filters.
        const current = parseListSearch(window.location.search);
        const next: ListFilters = { ...current, page: 1, ...change };
        const query = listSearchString(next);
        if (query === listSearchString(current)) return;
        navigate(query ? `${LIST_PATH}?${query}` : LIST_PATH, { replace: options.replace ?? false });
      },
    [navigate],
  );

  return { filters, update };
}
