import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { PAGE_SIZE_PARTENAIRES, PARTNER_SEARCH_DEBOUNCE_MS } from '#shared/constants';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import { Loading } from '#web/components/ui/loading';
import { PlusIcon, SearchIcon } from '#web/components/ui/more-icons';
import { PageHeader } from '#web/components/ui/page-header';
import { Pagination } from '#web/components/ui/pagination';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { useTRPC } from '#web/lib/trpc';
import { useDebouncedValue } from '#web/lib/use-debounce';
import { PartenaireFormDialog, type PartenaireDialogState } from './partenaire-form-dialog';
import { PartenairesTable } from './partenaires-table';
import { PARTENAIRES_TEXT, type PartenaireRow } from './partenaires-text';

export default function PartenairesPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [draft, setDraft] = useState('');
  const search = useDebouncedValue(draft.trim(), PARTNER_SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<PartenaireDialogState>(null);
  const [deleting, setDeleting] = useState<PartenaireRow | null>(null);

  // A new search starts again from the first page.
  const [searched, setSearched] = useState(search);
  if (searched !== search) {
    setSearched(search);
    setPage(1);
  }

  const input = { page, itemsPerPage: PAGE_SIZE_PARTENAIRES, ...(search ? { search } : {}) };
  const partenaires = useQuery(
    trpc.partenaires.list.queryOptions(input, { placeholderData: keepPreviousData }),
  );
  useEffect(() => {
    if (partenaires.isError) toast.error(PARTENAIRES_TEXT.loadFailed);
  }, [partenaires.isError, toast]);

  const remove = useMutation(
    trpc.partenaires.delete.mutationOptions({
      onSuccess() {
        toast.success(PARTENAIRES_TEXT.deleted);
        void queryClient.invalidateQueries({ queryKey: trpc.partenaires.list.queryKey() });
        setDeleting(null);
      },
      onError(error) {
        toast.error(PARTENAIRES_TEXT.deleteFailed, {
          description: serverMessage(error, PARTENAIRES_TEXT.deleteFailed),
        });
        setDeleting(null);
      },
    }),
  );

  const items = partenaires.data?.items ?? [];
  const total = partenaires.data?.total ?? 0;
  // Deleting the last partner of the last page: show the page before.
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE_PARTENAIRES));
  if (partenaires.isSuccess && !partenaires.isPlaceholderData && page > lastPage) setPage(lastPage);

  return (
    <>
      <PageHeader
        title={PARTENAIRES_TEXT.title}
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setDialog({ mode: 'create' })}>
            <PlusIcon />
            {PARTENAIRES_TEXT.newPartner}
          </button>
        }
      />
      <div className="card border border-base-300 bg-base-100">
        <div className="card-body gap-4 p-4 sm:p-6">
          <label className="input w-full sm:max-w-sm">
            <SearchIcon className="opacity-50" />
            <input
              type="search"
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              placeholder={PARTENAIRES_TEXT.searchPlaceholder}
              aria-label={PARTENAIRES_TEXT.searchPlaceholder}
              data-testid="partenaires-search"
            />
          </label>
          {partenaires.isPending ? (
            <Loading />
          ) : items.length === 0 ? (
            <p className="py-10 text-center text-base-content/70" data-testid="partenaires-empty">
              {PARTENAIRES_TEXT.empty}
            </p>
          ) : (
            <PartenairesTable
              partenaires={items}
              onEdit={(partenaire) => setDialog({ mode: 'edit', partenaire })}
              onDelete={setDeleting}
            />
          )}
          {total > 0 && (
            <Pagination
              page={page}
              totalItems={total}
              pageSize={PAGE_SIZE_PARTENAIRES}
              onPageChange={setPage}
            />
          )}
        </div>
      </div>

      <PartenaireFormDialog state={dialog} onClose={() => setDialog(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={PARTENAIRES_TEXT.deleteTitle}
        description={PARTENAIRES_TEXT.deleteDescription}
        confirmLabel={PARTENAIRES_TEXT.delete}
        tone="danger"
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate({ code: deleting.code })}
        data-testid="partenaire-delete-dialog"
      />
    </>
  );
}
