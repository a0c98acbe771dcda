import { useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { JOURNAL_PATH, journalSearchString, parseJournalSearch, type JournalState } from './journal-url';

/**
 * Page and filters of the log, read from and written to the address bar: each change is a history
 * entry (the back button undoes it). New filters start again from page 1.
 */
export function useJournalFilters() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const state = useMemo(() => parseJournalSearch(search), [search]);

  const go = useMemo(
    () => (next: JournalState) => {
      const query = journalSearchString(next);
      navigate(query ? `${JOURNAL_PATH}?${query}` : JOURNAL_PATH);
    },
    [navigate],
  );

  return {
    ...state,
    setFilters: (filters: JournalState['filters']) => go({ page: 1, filters }),
    setPage: (page: number) => go({ page, filters: state.filters }),
  };
}
