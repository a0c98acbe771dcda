import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { PAGE_SIZE_SIGNALEMENTS } from '#shared/constants';
import { PlusIcon, SaveIcon } from '#web/components/ui/more-icons';
import { PageHeader } from '#web/components/ui/page-header';
import { Pagination } from '#web/components/ui/pagination';
import { Loading } from '#web/components/ui/loading';
import { LoadError } from '#web/components/ui/load-error';
import { OfflineBanner } from '#web/features/offline/offline-banner';
import { useTRPC } from '#web/lib/trpc';
import { PRELOADED_LIST_FRESH_MS } from '#web/preload';
import { FILTRES_TEXT } from '#web/features/filtres/filtres-text';
import { SaveFilterDialog } from '#web/features/filtres/save-filter-dialog';
import { CreateSignalementDialog } from './create/create-dialog';
import { BulkActions } from './list/bulk/bulk-actions';
import { useBulkSelection } from './list/bulk/use-bulk-selection';
import { ExportButton } from './list/export-button';
import { ListFilters } from './list/list-filters';
import { hasActiveFilters, listSearchString, toListInput } from './list/list-url';
import { SignalementTable } from './list/signalement-table';
import { useListFilters } from './list/use-list-filters';

export default function SignalementListPage() {
  const trpc = useTRPC();
  const { filters, update } = useListFilters();
  const [creating, setCreating] = useState(false);
  const [saving, setSaving] = useState(false);
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

  // On paper, the table alone (docs/decisions/0043-print-view.md): no filters, actions or pagination.
  return (
    <div className="print-liste">
      <div className="print:hidden">
        <PageHeader
          title="Signalements"
          breadcrumb={[{ label: 'Signalements' }]}
          actions={
            <>
              {hasActiveFilters(filters) && (
                <button
                  type="button"
                  className="btn btn-outline self-start"
                  data-testid="save-filter-button"
                  onClick={() => setSaving(true)}
                >
                  <SaveIcon />
                  {FILTRES_TEXT.save.button}
                </button>
              )}
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
      </div>
      <div className="print:hidden">
        <OfflineBanner dataUpdatedAt={list.dataUpdatedAt} hasData={list.data !== undefined} />
      </div>
      <div className="card border border-base-300 bg-base-100 print:border-0">
        <div className="card-body gap-4 p-4 md:p-6 print:p-0">
          <div className="flex flex-col gap-4 print:hidden">
            <ListFilters filters={filters} update={update} />
            <BulkActions
              selection={selection}
              filters={filters}
              total={total}
              totalExact={list.data?.totalExact ?? true}
            />
          </div>
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
            <div className="print:hidden">
              <Pagination
                page={filters.page}
                totalItems={total}
                totalExact={list.data?.totalExact ?? true}
                pageSize={PAGE_SIZE_SIGNALEMENTS}
                onPageChange={(page) => update({ page })}
              />
            </div>
          )}
        </div>
      </div>
      <CreateSignalementDialog open={creating} onClose={() => setCreating(false)} />
      <SaveFilterDialog
        open={saving}
        requete={listSearchString({ ...filters, page: 1 })}
        onClose={() => setSaving(false)}
      />
    </div>
  );
}
