import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { JOURNAL_PAGE_SIZE } from '#shared/schemas/journal';
import { Loading } from '#web/components/ui/loading';
import { PageHeader } from '#web/components/ui/page-header';
import { Pagination } from '#web/components/ui/pagination';
import { serverMessage } from '#web/lib/errors';
import { useTRPC } from '#web/lib/trpc';
import { JournalExportButton } from './journal-export-button';
import { JournalFiltersBar } from './journal-filters';
import { JournalTable } from './journal-table';
import { toListInput } from './journal-url';
import { JOURNAL_TEXT } from './journal-text';
import { useJournalFilters } from './use-journal-filters';

/** 'Journal des accès' (administrators): the filtered, paginated access log and its xlsx export. */
export default function JournalPage() {
  const trpc = useTRPC();
  const { page, filters, setFilters, setPage } = useJournalFilters();
  const journal = useQuery(
    trpc.journal.list.queryOptions(toListInput({ page, filters }), { placeholderData: keepPreviousData }),
  );
  const items = journal.data?.items ?? [];
  const total = journal.data?.total ?? 0;
  // A page beyond the last (an old link, a narrower filter typed in the URL): show the last one instead.
  const lastPage = Math.max(1, Math.ceil(total / JOURNAL_PAGE_SIZE));
  const beyondLast = journal.isSuccess && !journal.isPlaceholderData && page > lastPage;
  useEffect(() => {
    if (beyondLast) setPage(lastPage, { replace: true });
  }, [beyondLast, lastPage, setPage]);

  return (
    <>
      <PageHeader
        title={JOURNAL_TEXT.title}
        subtitle={JOURNAL_TEXT.subtitle}
        actions={<JournalExportButton filters={filters} />}
      />
      <div className="card border border-base-300 bg-base-100">
        <div className="card-body gap-4 p-4 sm:p-6">
          <JournalFiltersBar filters={filters} onApply={setFilters} />
          {journal.isError ? (
            <div role="alert" className="alert alert-error alert-soft" data-testid="journal-error">
              <div className="text-base-content">
                <p className="font-medium">{JOURNAL_TEXT.loadFailed}</p>
                {serverMessage(journal.error, '') && (
                  <p className="text-sm text-base-content/70">{serverMessage(journal.error, '')}</p>
                )}
              </div>
              <button type="button" className="btn btn-sm" onClick={() => void journal.refetch()}>
                {JOURNAL_TEXT.retry}
              </button>
            </div>
          ) : journal.isPending ? (
            <Loading />
          ) : (
            <>
              <p className="text-sm text-base-content/70" data-testid="journal-total" aria-live="polite">
                {JOURNAL_TEXT.total(total)}
              </p>
              {items.length === 0 ? (
                <p className="py-10 text-center text-base-content/70" data-testid="journal-empty">
                  {JOURNAL_TEXT.empty}
                </p>
              ) : (
                <JournalTable entries={items} />
              )}
              {total > 0 && (
                <Pagination
                  page={page}
                  totalItems={total}
                  pageSize={JOURNAL_PAGE_SIZE}
                  onPageChange={setPage}
                  // The total is the line above the table ('N entrée(s) au total'), said once.
                  showTotal={false}
                />
              )}
            </>
          )}
        </div>
      </div>
    </>
  );
}
