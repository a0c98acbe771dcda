import type { SignalementDto } from '#shared/dto/signalements';
import { Dialog } from '#web/components/ui/dialog';
import { useCanals, useNiveaux, useResultats, useStatuts, useSubjects } from '../use-references';
import { conflictRows, type Designations, type EditConflict } from './edit-conflict';

export const EDIT_CONFLICT_TEXTS = {
  title: 'Modification en conflit',
  description:
    "Ce signalement a été modifié par quelqu'un d'autre depuis que vous l'avez ouvert. Comparez les valeurs puis choisissez.",
  field: 'Champ',
  yours: 'Votre valeur',
  current: 'Valeur actuelle',
  reload: 'Recharger',
  overwrite: 'Écraser avec mes valeurs',
} as const;

/**
 * The 409 of a save (docs/decisions/0047-edit-conflicts.md): per field « Votre valeur » and « Valeur
 * actuelle »; « Recharger » drops the user's values for the server's, « Écraser avec mes valeurs » sends
 * them again over the current version. Not dismissible: one of the two is chosen, nothing is lost unseen.
 */
export function EditConflictDialog({
  conflict,
  signalement,
  busy,
  onReload,
  onOverwrite,
}: {
  conflict: EditConflict | null;
  signalement: SignalementDto;
  busy: boolean;
  onReload: () => void;
  onOverwrite: () => void;
}) {
  const names = useDesignations(signalement.projects);
  const T = EDIT_CONFLICT_TEXTS;
  return (
    <Dialog
      open={conflict !== null}
      onClose={() => undefined}
      dismissible={false}
      title={T.title}
      description={T.description}
      size="lg"
      data-testid="edit-conflict-dialog"
      actions={
        <div className="flex w-full flex-wrap-reverse justify-end gap-2 sm:flex-nowrap">
          <button
            type="button"
            className="btn btn-ghost"
            onClick={onReload}
            disabled={busy}
            data-testid="edit-conflict-reload"
          >
            {T.reload}
          </button>
          <button
            type="button"
            className="btn btn-warning"
            onClick={onOverwrite}
            disabled={busy}
            data-testid="edit-conflict-overwrite"
          >
            {busy && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            {T.overwrite}
          </button>
        </div>
      }
    >
      {conflict && <EditConflictTable conflict={conflict} names={names} />}
    </Dialog>
  );
}

/**
 * « Champ », « Votre valeur », « Valeur actuelle » per field of a conflict: the dialog's table, and the
 * outbox panel's for a change refused as stale offline (docs/decisions/0048-offline-store.md), so both
 * read alike.
 */
export function EditConflictTable({ conflict, names }: { conflict: EditConflict; names: Designations }) {
  const T = EDIT_CONFLICT_TEXTS;
  return (
    // Fixed columns that wrap long values: no horizontal scrolling region, even at 375 px.
    <div>
      <table className="table table-sm w-full table-fixed" data-testid="edit-conflict-table">
        <thead>
          <tr>
            <th scope="col">{T.field}</th>
            <th scope="col">{T.yours}</th>
            <th scope="col">{T.current}</th>
          </tr>
        </thead>
        <tbody>
          {conflictRows(conflict, names).map((row) => (
            <tr key={row.champ} data-testid={`edit-conflict-${row.champ}`}>
              <th scope="row" className="font-medium">
                {row.label}
              </th>
              <td className="break-words whitespace-pre-line" data-testid="edit-conflict-yours">
                {row.votre}
              </td>
              <td className="break-words whitespace-pre-line" data-testid="edit-conflict-current">
                {row.actuelle}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Designations of the references the form edits, from the pickers' cached lists and the report's projects
 * (when known: a project's code stays as is otherwise).
 */
export function useDesignations(
  projects: ReadonlyArray<{ code: string; designation: string }> = [],
): Designations {
  const byCode = (rows: ReadonlyArray<{ code: string; designation: string }> | undefined) =>
    new Map((rows ?? []).map((r) => [r.code, r.designation]));
  return {
    niveau: byCode(useNiveaux().data),
    statut: byCode(useStatuts().data),
    resultat: byCode(useResultats().data),
    canalPrincipal: byCode(useCanals().data),
    subjects: byCode(useSubjects().data),
    projects: byCode(projects),
  };
}
