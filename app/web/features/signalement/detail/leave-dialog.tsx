import { Dialog } from '#web/components/ui/dialog';

/**
 * 'Quitter sans sauvegarder' / 'Annuler' (§2). Built on Dialog rather than ConfirmDialog so that the long
 * label wraps under 'Annuler' on a phone instead of pushing it off screen.
 */
export function LeaveDialog({
  open,
  onLeave,
  onStay,
}: {
  open: boolean;
  onLeave: () => void;
  onStay: () => void;
}) {
  return (
    <Dialog
      open={open}
      onClose={onStay}
      title="Modifications non sauvegardées"
      description="Vos modifications seront perdues si vous quittez cette page."
      size="md"
      data-testid="leave-dialog"
      actions={
        <div className="flex w-full flex-wrap-reverse justify-end gap-2 sm:flex-nowrap">
          <button type="button" className="btn btn-ghost" onClick={onStay} autoFocus>
            Annuler
          </button>
          <button type="button" className="btn btn-error" onClick={onLeave}>
            Quitter sans sauvegarder
          </button>
        </div>
      }
    />
  );
}
