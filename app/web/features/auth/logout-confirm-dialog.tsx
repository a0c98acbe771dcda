import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import { OFFLINE_TEXT } from '#web/features/offline/offline-text';
import { useOutbox } from '#web/lib/offline/hooks';

/** Set on the /logout entry by a confirmed log-out: the page does not ask again. */
export const LOGOUT_CONFIRMED = { logoutConfirmed: true } as const;

export const logoutConfirmed = (state: unknown): boolean =>
  typeof state === 'object' &&
  state !== null &&
  (state as { logoutConfirmed?: unknown }).logoutConfirmed === true;

/**
 * « Êtes-vous sûr de vouloir vous déconnecter ? », saying how many changes still waiting on this device
 * would be lost with the session (docs/decisions/0048-offline-store.md): the user can cancel and send them
 * once the link is back.
 */
export function LogoutConfirmDialog({
  open,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const waiting = useOutbox().length;
  return (
    <ConfirmDialog
      open={open}
      title="Êtes-vous sûr de vouloir vous déconnecter ?"
      description={
        <>
          Votre session actuelle sera terminée et vous devrez vous reconnecter pour accéder au tableau de
          bord.
          {waiting > 0 && (
            <span className="mt-2 block font-medium text-error" data-testid="logout-pending">
              {OFFLINE_TEXT.lostAtLogout(waiting)} {OFFLINE_TEXT.reconnectFirst(waiting)}
            </span>
          )}
        </>
      }
      cancelLabel="Annuler"
      confirmLabel="Confirmer"
      data-testid="logout-dialog"
      onCancel={onCancel}
      onConfirm={onConfirm}
    />
  );
}
