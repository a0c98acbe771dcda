import type { CreatedJeton } from '#shared/dto/jetons-api';
import { Dialog } from '#web/components/ui/dialog';
import { useToast } from '#web/components/ui/toast';
import { ACCES_API_TEXT } from './acces-api-text';

const T = ACCES_API_TEXT.secret;

/**
 * The new token, shown once: it lives only in the page's state until this dialog closes, and no procedure
 * ever returns it again (docs/decisions/0038-partner-api-tokens.md).
 */
export function JetonSecretDialog({
  created,
  onClose,
}: {
  created: CreatedJeton | null;
  onClose: () => void;
}) {
  const toast = useToast();
  const copy = () =>
    void navigator.clipboard
      ?.writeText(created?.secret ?? '')
      .then(() => toast.success(T.copied))
      .catch(() => undefined);
  return (
    <Dialog
      open={created !== null}
      onClose={onClose}
      title={T.title}
      size="lg"
      data-testid="jeton-secret-dialog"
      actions={
        <button type="button" className="btn btn-primary" onClick={onClose} data-testid="jeton-secret-done">
          {T.done}
        </button>
      }
    >
      {created && (
        <div className="flex flex-col gap-3">
          <div role="alert" className="alert alert-warning text-sm" data-testid="jeton-secret-warning">
            {T.warning}
          </div>
          <label className="flex flex-col gap-1" htmlFor="jeton-secret">
            <span className="text-sm font-medium">
              {T.label} « {created.jeton.nom} »
            </span>
            <div className="join w-full">
              <input
                id="jeton-secret"
                className="input join-item w-full font-mono text-sm"
                readOnly
                value={created.secret}
                onFocus={(event) => event.currentTarget.select()}
                data-testid="jeton-secret"
              />
              <button type="button" className="btn join-item" onClick={copy} data-testid="jeton-secret-copy">
                {T.copy}
              </button>
            </div>
          </label>
        </div>
      )}
    </Dialog>
  );
}
