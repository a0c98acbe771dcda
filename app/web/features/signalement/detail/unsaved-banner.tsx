import { AlertTriangleIcon, XIcon } from '#web/components/ui/more-icons';

/** Sticky amber strip shown while the detail has unsaved changes (§2); it can be dismissed. */
export function UnsavedBanner({
  canSave,
  saving,
  onSave,
  onDismiss,
}: {
  canSave: boolean;
  saving: boolean;
  onSave: () => void;
  onDismiss: () => void;
}) {
  return (
    <div
      role="status"
      className="sticky top-16 z-20 mb-4 flex flex-wrap items-center gap-3 rounded-box border border-amber-300 bg-amber-50 px-4 py-2.5 text-amber-900 shadow-sm"
      data-testid="unsaved-banner"
    >
      <AlertTriangleIcon size={18} className="shrink-0" />
      <p className="min-w-0 flex-1 text-sm font-medium">Modifications non sauvegardées</p>
      {canSave && (
        <button
          type="button"
          className="btn btn-sm btn-warning"
          disabled={saving}
          onClick={onSave}
          data-testid="unsaved-save"
        >
          {saving && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
          Sauvegarder
        </button>
      )}
      <button
        type="button"
        className="btn btn-ghost btn-sm btn-square"
        aria-label="Masquer ce message"
        onClick={onDismiss}
        data-testid="unsaved-dismiss"
      >
        <XIcon />
      </button>
    </div>
  );
}
