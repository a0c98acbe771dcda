import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { BulkAction, BulkPreviewInput } from '#shared/schemas/signalements';
import { Combobox } from '#web/components/ui/combobox';
import { Dialog } from '#web/components/ui/dialog';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { useTRPC } from '#web/lib/trpc';
import { useStaffOptions } from '../../detail/assignees-card';
import { useNiveaux, useStatuts } from '../../use-references';
import { BULK_TEXTS } from './bulk-texts';
import type { BulkKind } from './bulk-toolbar';

export type BulkSelectionInput = Pick<BulkPreviewInput, 'codes' | 'filtre'>;

const TITLES: Record<BulkKind, string> = {
  assigner: BULK_TEXTS.assign,
  desassigner: BULK_TEXTS.unassign,
  statut: BULK_TEXTS.statut,
  niveau: BULK_TEXTS.niveau,
};
const NO_NIVEAU = '__aucun';

/** The action once its value is chosen, or null while it is not. */
function actionOf(kind: BulkKind, value: string | null): BulkAction | null {
  if (value === null) return null;
  switch (kind) {
    case 'assigner':
    case 'desassigner':
      return { type: kind, utilisateur: value };
    case 'statut':
      return { type: 'statut', statut: value };
    case 'niveau':
      return { type: 'niveau', niveau: value === NO_NIVEAU ? null : value };
  }
}

function UserPicker({ value, onChange }: { value: string | null; onChange: (v: string | null) => void }) {
  const [search, setSearch] = useState('');
  const staff = useStaffOptions(search);
  return (
    <Combobox
      label={BULK_TEXTS.userLabel}
      placeholder={BULK_TEXTS.userPlaceholder}
      options={staff.options}
      loading={staff.isPending}
      onSearchChange={setSearch}
      emptyText="Aucun utilisateur trouvé."
      value={value}
      onChange={onChange}
      data-testid="bulk-user-picker"
    />
  );
}

function CodeSelect({
  kind,
  value,
  onChange,
}: {
  kind: 'statut' | 'niveau';
  value: string | null;
  onChange: (v: string | null) => void;
}) {
  const id = useId();
  const statuts = useStatuts();
  const niveaux = useNiveaux();
  const rows = (kind === 'statut' ? statuts.data : niveaux.data) ?? [];
  return (
    <label className="flex flex-col gap-1" htmlFor={id}>
      <span className="text-sm font-medium">
        {kind === 'statut' ? BULK_TEXTS.statutLabel : BULK_TEXTS.niveauLabel}
      </span>
      <select
        id={id}
        className="select w-full"
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)}
        data-testid="bulk-value"
      >
        <option value="">{BULK_TEXTS.choose}</option>
        {rows.map((r) => (
          <option key={r.code} value={r.code}>
            {r.designation}
          </option>
        ))}
        {kind === 'niveau' && <option value={NO_NIVEAU}>{BULK_TEXTS.noNiveau}</option>}
      </select>
    </label>
  );
}

/**
 * One bulk action (mounted afresh for each: its key is the action's kind): its value, then the count the server previews (« 42 signalements seront modifiés. »,
 * or its refusal in French), then the action itself with that count, which the server checks again.
 */
export function BulkDialog({
  kind,
  selection,
  onClose,
  onDone,
}: {
  kind: BulkKind | null;
  selection: BulkSelectionInput;
  onClose: () => void;
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [value, setValue] = useState<string | null>(null);
  const preview = useMutation(trpc.signalements.bulkPreview.mutationOptions());
  const run = useMutation(trpc.signalements.bulk.mutationOptions());
  const action = kind ? actionOf(kind, value) : null;
  const { mutate: askPreview, reset: resetPreview } = preview;

  const key = JSON.stringify(action);
  useEffect(() => {
    resetPreview();
    if (action) askPreview({ ...selection, action });
    // The preview follows the chosen action; `key` stands for it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const confirm = async () => {
    if (!action || !preview.data) return;
    try {
      const result = await run.mutateAsync({ ...selection, action, attendu: preview.data.modifies });
      toast.success(BULK_TEXTS.done(result.modifies));
      onDone();
    } catch (error) {
      toast.error(BULK_TEXTS.failed, { description: serverMessage(error, '') || undefined });
    }
    void queryClient.invalidateQueries({ queryKey: trpc.signalements.pathKey() });
    onClose();
  };

  const status = !action
    ? null
    : preview.isPending
      ? BULK_TEXTS.counting
      : preview.isError
        ? serverMessage(preview.error, BULK_TEXTS.previewFailed)
        : preview.data
          ? BULK_TEXTS.willChange(preview.data.modifies)
          : null;

  return (
    <Dialog
      open={kind !== null}
      onClose={onClose}
      title={kind ? TITLES[kind] : ''}
      dismissible={!run.isPending}
      data-testid="bulk-dialog"
      actions={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={run.isPending}>
            Annuler
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={!preview.data || preview.data.modifies === 0 || run.isPending}
            onClick={() => void confirm()}
            data-testid="bulk-confirm"
          >
            {run.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {BULK_TEXTS.confirm}
          </button>
        </>
      }
    >
      <div className="flex flex-col gap-3">
        {kind === 'assigner' || kind === 'desassigner' ? (
          <UserPicker value={value} onChange={setValue} />
        ) : kind ? (
          <CodeSelect kind={kind} value={value} onChange={setValue} />
        ) : null}
        {status && (
          <p
            role="status"
            className={preview.isError ? 'alert alert-error alert-soft text-base-content' : 'font-medium'}
            data-testid="bulk-preview"
            data-state={preview.isError ? 'error' : preview.isPending ? 'pending' : 'ready'}
          >
            {status}
          </p>
        )}
      </div>
    </Dialog>
  );
}
