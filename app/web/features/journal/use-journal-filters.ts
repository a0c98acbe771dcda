import { useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { JournalFilters } from '#shared/schemas/journal';
import { JOURNAL_PATH, journalSearchString, parseJournalSearch, type JournalState } from './journal-url';

/**
 * Page and filters of the log, read from and written to the address bar: each change is a history
 * entry (the back button undoes it). New filters start again from page 1.
 */
export function useJournalFilters() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const state = useMemo(() => parseJournalSearch(search), [search]);

  const actions = useMemo(() => {
    const go = (next: JournalState, replace = false) => {
      const query = journalSearchString(next);
      navigate(query ? `${JOURNAL_PATH}?${query}` : JOURNAL_PATH, { replace });
    };
    return {
      setFilters: (filters: JournalFilters) => go({ page: 1, filters }),
      // The filters of the address bar at call time, not of the render that made this function.
      setPage: (page: number, options: { replace?: boolean } = {}) =>
        go({ page, filters: parseJournalSearch(window.location.search).filters }, options.replace ?? false),
    };
  }, [navigate]);

  return { ...state, ...actions };
}
