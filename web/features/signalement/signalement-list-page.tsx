import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { PAGE_SIZE_SIGNALEMENTS } from '#shared/constants';
import { PlusIcon } from '#web/components/ui/more-icons';
import { PageHeader } from '#web/components/ui/page-header';
import { Pagination } from '#web/components/ui/pagination';
import { Loading } from '#web/components/ui/loading';
import { LoadError } from '#web/components/ui/load-error';
import { OfflineBanner } from '#web/features/offline/offline-banner';
import { useTRPC } from '#web/lib/trpc';
import { PRELOADED_LIST_FRESH_MS } from '#web/preload';
import { CreateSignalementDialog } from './create/create-dialog';
import { BulkActions } from './list/bulk/bulk-actions';
import { useBulkSelection } from './list/bulk/use-bulk-selection';
import { ExportButton } from './list/export-button';
import { ListFilters } from './list/list-filters';
import { listSearchString, toListInput } from './list/list-url';
import { SignalementTable } from './list/signalement-table';
import { useListFilters } from './list/use-list-filters';

export default function SignalementListPage() {
  const trpc = useTRPC();
  const { filters, update } = useListFilters();
  const [creating, setCreating] = useState(false);
  const list = useQuery(
    trpc.signalements.list.queryOptions(toListInput(filters), {
      placeholderData: keepPreviousData,
      // The first page may have been fetched with the session check (web/preload.ts): no second request.
      staleTime: PRELOADED_LIST_FRESH_MS,
    }),
  );

  useEffect(() => {
    // Logged for the support team; the screen shows the error state below.
    if (list.isError) console.error('Chargement des signalements impossible', list.error);
  }, [list.isError, list.error]);

  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const selection = useBulkSelection(
    items.map((s) => s.code),
    listSearchString(filters),
  );

  return (
    <>
      <PageHeader
        title="Signalements"
        breadcrumb={[{ label: 'Signalements' }]}
        actions={
          <>
            <ExportButton filters={filters} />
            <button
              type="button"
              className="btn btn-primary self-start"
              data-testid="create-button"
              onClick={() => setCreating(true)}
            >
              <PlusIcon />
              Nouveau signalement
            </button>
          </>
        }
      />
      <OfflineBanner dataUpdatedAt={list.dataUpdatedAt} hasData={list.data !== undefined} />
      <div className="card border border-base-300 bg-base-100">
        <div className="card-body gap-4 p-4 md:p-6">
          <ListFilters filters={filters} update={update} />
          <BulkActions
            selection={selection}
            filters={filters}
            total={total}
            totalExact={list.data?.totalExact ?? true}
          />
          <div
            className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}
            aria-busy={list.isFetching}
          >
            {list.isError ? (
              <LoadError
                title="Impossible de charger les signalements."
                error={list.error}
                onRetry={() => void list.refetch()}
                testId="list-error"
              />
            ) : list.isPending ? (
              <Loading />
            ) : items.length === 0 ? (
              <p className="py-12 text-center text-base-content/70" data-testid="empty-state">
                Aucun signalement trouvé.
              </p>
            ) : (
              <SignalementTable items={items} selection={selection} />
            )}
          </div>
          {!list.isError && (
            <Pagination
              page={filters.page}
              totalItems={total}
              totalExact={list.data?.totalExact ?? true}
              pageSize={PAGE_SIZE_SIGNALEMENTS}
              onPageChange={(page) => update({ page })}
            />
          )}
        </div>
      </div>
      <CreateSignalementDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}
