import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '#shared/constants';
import type { AssignationDto, SignalementDto } from '#shared/dto/signalements';
import { Combobox } from '#web/components/ui/combobox';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import { Loading } from '#web/components/ui/loading';
import { PlusIcon, TrashIcon } from '#web/components/ui/more-icons';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { formatDateTime } from '#web/lib/format';
import { useTRPC } from '#web/lib/trpc';
import { useDebouncedValue } from '#web/lib/use-debounce';
import { NOT_ASSIGNED_LABEL } from '../labels';
import { DetailCard } from './detail-card';

export const ASSIGN_TEXTS = {
  title: 'Assignés',
  picker: 'Utilisateur à assigner',
  pickerPlaceholder: 'Choisir un utilisateur',
  add: 'Assigner',
  assigned: (name: string) => `${name} est assigné(e) au signalement.`,
  assignFailed: "Échec de l'assignation.",
  removeTitle: (name: string) => `Retirer ${name} des assignés ?`,
  removeText:
    'Cette personne ne pourra plus modifier ce signalement ni consulter ses sources protégées, sauf si elle en est le créateur ou administrateur.',
  remove: 'Retirer',
  removed: (name: string) => `${name} n'est plus assigné(e) au signalement.`,
  removeFailed: 'Échec du retrait.',
  by: (name: string | undefined, at: string) =>
    `Assigné${name ? ` par ${name}` : ''} le ${formatDateTime(at)}`,
} as const;

/** Enabled staff for the assignment picker, searched on the server. */
export function useStaffOptions(search: string) {
  const trpc = useTRPC();
  const term = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const query = useQuery(
    trpc.utilisateurs.options.queryOptions(
      { search: term, enabledOnly: true },
      { placeholderData: keepPreviousData },
    ),
  );
  return {
    ...query,
    options: (query.data ?? []).map((u) => ({ value: u.code, label: u.nomPrenom, hint: u.email })),
  };
}

/**
 * « Assignés » (docs/decisions/0028): who works on the report, for those who may change it (its creator
 * and administrators): add with a picker of enabled staff, remove after a confirmation.
 */
export function AssigneesCard({ signalement: s }: { signalement: SignalementDto }) {
  const { code } = s;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const [removing, setRemoving] = useState<AssignationDto | null>(null);
  const staff = useStaffOptions(search);
  const list = useQuery(trpc.signalements.assignees.queryOptions({ code }));
  const assign = useMutation(trpc.signalements.assign.mutationOptions());
  const unassign = useMutation(trpc.signalements.unassign.mutationOptions());

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.signalements.assignees.queryKey({ code }) });
    void queryClient.invalidateQueries({ queryKey: trpc.signalements.get.queryKey({ code }) });
    void queryClient.invalidateQueries({ queryKey: trpc.signalements.historique.queryKey({ code }) });
    void queryClient.invalidateQueries({ queryKey: trpc.signalements.list.queryKey() });
  };

  const add = async () => {
    if (!chosen) return;
    try {
      const added = await assign.mutateAsync({ code, utilisateur: chosen });
      toast.success(ASSIGN_TEXTS.assigned(added.utilisateur.nomPrenom));
      setChosen(null);
    } catch (error) {
      toast.error(ASSIGN_TEXTS.assignFailed, { description: serverMessage(error, '') || undefined });
    }
    refresh();
  };

  const remove = async () => {
    if (!removing) return;
    const name = removing.utilisateur.nomPrenom;
    try {
      await unassign.mutateAsync({ code, utilisateur: removing.utilisateur.code });
      toast.success(ASSIGN_TEXTS.removed(name));
    } catch (error) {
      toast.error(ASSIGN_TEXTS.removeFailed, { description: serverMessage(error, '') || undefined });
    } finally {
      setRemoving(null);
    }
    refresh();
  };

  const taken = new Set((list.data ?? []).map((a) => a.utilisateur.code));
  return (
    <DetailCard
      title={
        <span>
          {ASSIGN_TEXTS.title}
          {list.data && (
            <span className="ml-2 text-sm font-normal text-base-content/70">({list.data.length})</span>
          )}
        </span>
      }
      data-testid="assignees-card"
    >
      {list.isPending ? (
        <Loading />
      ) : !list.data || list.data.length === 0 ? (
        <p className="text-sm text-base-content/70">{NOT_ASSIGNED_LABEL}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-base-300">
          {list.data.map((a) => (
            <li key={a.utilisateur.code} className="flex items-start gap-3 py-2" data-testid="assignee-item">
              <div className="min-w-0 flex-1">
                <p className="font-medium break-words">{a.utilisateur.nomPrenom}</p>
                <p className="text-sm text-base-content/70">
                  {ASSIGN_TEXTS.by(a.assignedBy?.nomPrenom, a.assignedAt)}
                </p>
              </div>
              <button
                type="button"
                className="btn btn-ghost btn-sm btn-square text-error"
                aria-label={`${ASSIGN_TEXTS.remove} ${a.utilisateur.nomPrenom}`}
                title={ASSIGN_TEXTS.remove}
                data-testid="assignee-remove"
                onClick={() => setRemoving(a)}
              >
                <TrashIcon />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <Combobox
          className="flex-1"
          label={ASSIGN_TEXTS.picker}
          placeholder={ASSIGN_TEXTS.pickerPlaceholder}
          options={staff.options.filter((o) => !taken.has(o.value))}
          loading={staff.isPending}
          onSearchChange={setSearch}
          emptyText="Aucun utilisateur trouvé."
          value={chosen}
          onChange={setChosen}
          data-testid="assignee-picker"
        />
        <button
          type="button"
          className="btn btn-primary btn-sm"
          disabled={!chosen || assign.isPending}
          onClick={() => void add()}
          data-testid="assignee-add"
        >
          <PlusIcon />
          {ASSIGN_TEXTS.add}
        </button>
      </div>
      <ConfirmDialog
        open={removing !== null}
        title={removing ? ASSIGN_TEXTS.removeTitle(removing.utilisateur.nomPrenom) : ''}
        description={ASSIGN_TEXTS.removeText}
        confirmLabel={ASSIGN_TEXTS.remove}
        tone="danger"
        pending={unassign.isPending}
        onConfirm={() => void remove()}
        onCancel={() => setRemoving(null)}
        data-testid="assignee-remove-dialog"
      />
    </DetailCard>
  );
}
