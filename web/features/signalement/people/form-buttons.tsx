/** Annuler / Enregistrer at the bottom of a person's dialog. */
export function FormButtons({ pending, onCancel }: { pending: boolean; onCancel: () => void }) {
  return (
    <div className="modal-action">
      <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={pending}>
        Annuler
      </button>
      <button type="submit" className="btn btn-primary" disabled={pending}>
        {pending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        Enregistrer
      </button>
    </div>
  );
}
