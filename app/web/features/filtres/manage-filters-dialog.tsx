import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { FiltreDto } from '#shared/dto/filtres';
import { filtreNomSchema } from '#shared/schemas/filtres';
import { Dialog } from '#web/components/ui/dialog';
import { ButtonSpinner } from '#web/components/ui/form-actions';
import { PencilIcon, TrashIcon } from '#web/components/ui/more-icons';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { useTRPC } from '#web/lib/trpc';
import { FILTRES_TEXT } from './filtres-text';

const T = FILTRES_TEXT.dialog;

/** « Gérer mes filtres »: rename or delete the filters the reader may manage (their own, any shared one for an administrator). */
export function ManageFiltersDialog({
  open,
  filtres,
  onClose,
}: {
  open: boolean;
  filtres: readonly FiltreDto[];
  onClose: () => void;
}) {
  const manageable = filtres.filter((f) => f.gerable);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={T.title}
      description={T.description}
      data-testid="manage-filters-dialog"
      actions={
        <button type="button" className="btn" onClick={onClose}>
          {T.close}
        </button>
      }
    >
      {manageable.length === 0 ? (
        <p className="text-sm text-base-content/70" data-testid="manage-filters-empty">
          {T.none}
        </p>
      ) : (
        <ul className="flex flex-col divide-y divide-base-300" aria-label={FILTRES_TEXT.group}>
          {manageable.map((f) => (
            <FiltreRow key={f.id} filtre={f} />
          ))}
        </ul>
      )}
    </Dialog>
  );
}

type Mode = 'view' | 'rename' | 'delete';

function FiltreRow({ filtre }: { filtre: FiltreDto }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [mode, setMode] = useState<Mode>('view');
  const [nom, setNom] = useState(filtre.nom);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.filtres.list.queryKey() });

  const rename = useMutation(
    trpc.filtres.rename.mutationOptions({
      onSuccess: () => {
        void refresh();
        toast.success(T.renamed);
        setMode('view');
      },
      onError: (e) => setError(serverMessage(e, T.renameFailed)),
    }),
  );
  const remove = useMutation(
    trpc.filtres.delete.mutationOptions({
      onSuccess: () => {
        void refresh();
        toast.success(T.deleted);
      },
      onError: (e) => toast.error(T.deleteFailed, { description: serverMessage(e, T.deleteFailed) }),
    }),
  );

  const submitRename = (event: FormEvent) => {
    event.preventDefault();
    const parsed = filtreNomSchema.safeParse(nom);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? T.renameFailed);
      return;
    }
    setError(null);
    rename.mutate({ id: filtre.id, nom: parsed.data });
  };

  return (
    <li className="flex flex-col gap-2 py-3" data-testid="manage-filter-row" data-filtre={filtre.nom}>
      {mode === 'rename' ? (
        <form
          onSubmit={submitRename}
          noValidate
          className="flex flex-col gap-2"
          aria-label={T.renameLabel(filtre.nom)}
        >
          <label htmlFor={inputId} className="text-sm font-medium">
            {T.newName}
          </label>
          <input
            id={inputId}
            className={`input w-full ${error ? 'input-error' : ''}`}
            value={nom}
            autoFocus
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(e) => setNom(e.target.value)}
          />
          {error && (
            <p id={errorId} className="text-sm text-error">
              {error}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={rename.isPending}
              onClick={() => {
                setMode('view');
                setNom(filtre.nom);
                setError(null);
              }}
            >
              {T.cancel}
            </button>
            <button type="submit" className="btn btn-primary btn-sm" disabled={rename.isPending}>
              {rename.isPending && <ButtonSpinner />}
              {T.submitRename}
            </button>
          </div>
        </form>
      ) : (
        <div className="flex items-center gap-2">
          <div className="min-w-0 flex-1">
            <p className="truncate font-medium">{filtre.nom}</p>
            <p className="text-xs text-base-content/70">
              {filtre.partage
                ? filtre.mien
                  ? FILTRES_TEXT.shared
                  : FILTRES_TEXT.sharedBy(filtre.proprietaire.nomPrenom)
                : T.personal}
            </p>
          </div>
          {mode === 'view' && (
            <>
              <button
                type="button"
                className="btn btn-ghost btn-sm btn-square"
                aria-label={T.renameLabel(filtre.nom)}
                title={T.rename}
                onClick={() => setMode('rename')}
              >
                <PencilIcon />
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-sm btn-square text-error"
                aria-label={T.deleteLabel(filtre.nom)}
                title={T.delete}
                onClick={() => setMode('delete')}
              >
                <TrashIcon />
              </button>
            </>
          )}
        </div>
      )}
      {mode === 'delete' && (
        <div
          className="flex flex-wrap items-center justify-end gap-2"
          role="group"
          aria-label={T.deleteLabel(filtre.nom)}
        >
          <p className="flex-1 text-sm">{T.confirmDelete(filtre.nom)}</p>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={remove.isPending}
            onClick={() => setMode('view')}
          >
            {T.cancel}
          </button>
          <button
            type="button"
            className="btn btn-error btn-sm"
            disabled={remove.isPending}
            onClick={() => remove.mutate({ id: filtre.id })}
          >
            {remove.isPending && <ButtonSpinner />}
            {T.confirm}
          </button>
        </div>
      )}
    </li>
  );
}
