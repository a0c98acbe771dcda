import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { PAGE_SIZE_UTILISATEURS } from '#shared/constants';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import { Loading } from '#web/components/ui/loading';
import { PlusIcon, SearchIcon } from '#web/components/ui/more-icons';
import { PageHeader } from '#web/components/ui/page-header';
import { Pagination } from '#web/components/ui/pagination';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { useTRPC } from '#web/lib/trpc';
import { FailedMails } from './failed-mails';
import { UserFormDialog, type UserDialogState } from './user-form-dialog';
import { UsersTable } from './users-table';
import { USERS_TEXT, type UserRow } from './users-text';

export default function UsersPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<UserDialogState>(null);
  const [toggling, setToggling] = useState<UserRow | null>(null);
  const [resetting, setResetting] = useState<UserRow | null>(null);
  const [resettingTwoFactor, setResettingTwoFactor] = useState<UserRow | null>(null);

  const input = { page, itemsPerPage: PAGE_SIZE_UTILISATEURS, ...(search ? { nomPrenom: search } : {}) };
  const users = useQuery(trpc.utilisateurs.list.queryOptions(input, { placeholderData: keepPreviousData }));
  const roles = useQuery(trpc.utilisateurs.roles.queryOptions());

  useEffect(() => {
    if (users.isError)
      toast.error(USERS_TEXT.loadFailed, { description: serverMessage(users.error, '') || undefined });
  }, [users.isError, users.error, toast]);
  useEffect(() => {
    if (roles.isError) toast.error(USERS_TEXT.rolesFailed);
  }, [roles.isError, toast]);

  const setStatus = useMutation(
    trpc.utilisateurs.update.mutationOptions({
      onSuccess(updated) {
        // The row changes at once; the list is then reloaded in the background.
        queryClient.setQueryData(trpc.utilisateurs.list.queryKey(input), (old) =>
          old ? { ...old, items: old.items.map((u) => (u.code === updated.code ? updated : u)) } : old,
        );
        void queryClient.invalidateQueries({ queryKey: trpc.utilisateurs.list.queryKey() });
        toast.success(USERS_TEXT.statusChanged(updated.isEnabled));
        setToggling(null);
      },
      onError(error) {
        toast.error(USERS_TEXT.statusFailed, { description: serverMessage(error, USERS_TEXT.statusFailed) });
        setToggling(null);
      },
    }),
  );
  const reset = useMutation(
    trpc.utilisateurs.resetPassword.mutationOptions({
      onSuccess() {
        toast.success(USERS_TEXT.resetSent);
        void queryClient.invalidateQueries({ queryKey: trpc.mail.failed.queryKey() });
        setResetting(null);
      },
      onError(error) {
        toast.error(serverMessage(error, USERS_TEXT.resetFailed));
        setResetting(null);
      },
    }),
  );

  const resetTwoFactor = useMutation(
    trpc.utilisateurs.resetTwoFactor.mutationOptions({
      onSuccess() {
        toast.success(USERS_TEXT.twoFactorResetDone);
        setResettingTwoFactor(null);
      },
      onError(error) {
        toast.error(USERS_TEXT.twoFactorResetFailed, {
          description: serverMessage(error, USERS_TEXT.twoFactorResetFailed),
        });
        setResettingTwoFactor(null);
      },
    }),
  );

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setSearch(draft.trim());
    setPage(1);
  };
  const total = users.data?.total ?? 0;
  const enabling = toggling ? !toggling.isEnabled : false;

  return (
    <>
      <PageHeader
        title={USERS_TEXT.title}
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setDialog({ mode: 'create' })}>
            <PlusIcon />
            {USERS_TEXT.newUser}
          </button>
        }
      />
      <FailedMails />
      <div className="card border border-base-300 bg-base-100">
        <div className="card-body gap-4 p-4 sm:p-6">
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <form onSubmit={onSearch} role="search" className="w-full sm:max-w-sm">
              <label className="input w-full">
                <SearchIcon className="opacity-50" />
                <input
                  type="search"
                  value={draft}
                  onChange={(event) => setDraft(event.target.value)}
                  placeholder={USERS_TEXT.searchPlaceholder}
                  aria-label={USERS_TEXT.searchPlaceholder}
                  data-testid="users-search"
                />
              </label>
            </form>
            <p className="text-sm text-base-content/70" data-testid="users-total">
              {USERS_TEXT.total(total)}
            </p>
          </div>
          {users.isPending ? (
            <Loading />
          ) : (users.data?.items.length ?? 0) === 0 ? (
            <p className="py-10 text-center text-base-content/70" data-testid="users-empty">
              {USERS_TEXT.empty}
            </p>
          ) : (
            <UsersTable
              users={users.data?.items ?? []}
              onToggle={setToggling}
              onEdit={(user) => setDialog({ mode: 'edit', user })}
              onReset={setResetting}
              onResetTwoFactor={setResettingTwoFactor}
            />
          )}
          {total > 0 && (
            <Pagination
              page={page}
              totalItems={total}
              pageSize={PAGE_SIZE_UTILISATEURS}
              onPageChange={setPage}
            />
          )}
        </div>
      </div>

      <UserFormDialog state={dialog} roles={roles.data ?? []} onClose={() => setDialog(null)} />
      <ConfirmDialog
        open={toggling !== null}
        title={USERS_TEXT.statusTitle(enabling)}
        description={toggling ? USERS_TEXT.statusDescription(toggling, enabling) : undefined}
        confirmLabel={enabling ? 'Activer' : 'Désactiver'}
        tone={enabling ? 'primary' : 'danger'}
        pending={setStatus.isPending}
        onCancel={() => setToggling(null)}
        onConfirm={() => toggling && setStatus.mutate({ code: toggling.code, isEnabled: enabling })}
        data-testid="user-status-dialog"
      />
      <ConfirmDialog
        open={resetting !== null}
        title={USERS_TEXT.resetTitle}
        description={resetting ? USERS_TEXT.resetDescription(resetting.email) : undefined}
        confirmLabel="Envoyer"
        pending={reset.isPending}
        onCancel={() => setResetting(null)}
        onConfirm={() => resetting && reset.mutate({ code: resetting.code })}
        data-testid="user-reset-dialog"
      />
      <ConfirmDialog
        open={resettingTwoFactor !== null}
        title={USERS_TEXT.twoFactorResetTitle}
        description={
          resettingTwoFactor ? USERS_TEXT.twoFactorResetDescription(resettingTwoFactor.nomPrenom) : undefined
        }
        confirmLabel="Réinitialiser"
        tone="danger"
        pending={resetTwoFactor.isPending}
        onCancel={() => setResettingTwoFactor(null)}
        onConfirm={() => resettingTwoFactor && resetTwoFactor.mutate({ code: resettingTwoFactor.code })}
        data-testid="user-two-factor-reset-dialog"
      />
    </>
  );
}
