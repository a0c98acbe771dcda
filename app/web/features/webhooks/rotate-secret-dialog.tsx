import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { WEBHOOK_SECRET_GRACE_HOURS } from '#shared/schemas/webhooks';
import { Dialog } from '#web/components/ui/dialog';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { formatDateTime } from '#web/lib/format';
import { useTRPC } from '#web/lib/trpc';
import { SecretShownOnce } from './endpoint-form-dialog';
import { WEBHOOKS_TEXT } from './webhooks-text';

/**
 * « Renouveler le secret » of one endpoint: what it does (the former secret signs for a grace period), then
 * the new secret, shown once, as after the registration (docs/decisions/0039-signed-webhooks.md).
 */
export function RotateSecretDialog({
  endpoint,
  onClose,
}: {
  endpoint: { id: number; url: string } | null;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [renewed, setRenewed] = useState<{ secret: string; until: string | null } | null>(null);
  const close = () => {
    setRenewed(null);
    onClose();
  };
  const rotate = useMutation(
    trpc.webhooks.rotateSecret.mutationOptions({
      onSuccess(result) {
        void queryClient.invalidateQueries({ queryKey: trpc.webhooks.endpoints.queryKey() });
        toast.success(WEBHOOKS_TEXT.rotated);
        setRenewed({ secret: result.secret, until: result.ancienSecretJusquA });
      },
      onError(error) {
        toast.error(WEBHOOKS_TEXT.rotateFailed, {
          description: serverMessage(error, WEBHOOKS_TEXT.rotateFailed),
        });
      },
    }),
  );
  return (
    <Dialog
      open={endpoint !== null}
      onClose={close}
      dismissible={!rotate.isPending}
      title={renewed ? WEBHOOKS_TEXT.secretTitle : WEBHOOKS_TEXT.rotate}
      data-testid="webhook-rotate-dialog"
    >
      {renewed ? (
        <SecretShownOnce
          secret={renewed.secret}
          note={renewed.until ? WEBHOOKS_TEXT.previousUntil(formatDateTime(renewed.until)) : undefined}
          onClose={close}
        />
      ) : (
        <div className="flex flex-col gap-3">
          <p className="text-sm">
            {WEBHOOKS_TEXT.rotateDescription(endpoint?.url ?? '', WEBHOOK_SECRET_GRACE_HOURS)}
          </p>
          <div className="modal-action">
            <button type="button" className="btn btn-ghost" onClick={close} disabled={rotate.isPending}>
              Annuler
            </button>
            <button
              type="button"
              className="btn btn-primary"
              disabled={rotate.isPending || endpoint === null}
              onClick={() => endpoint && rotate.mutate({ id: endpoint.id })}
            >
              {rotate.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
              {WEBHOOKS_TEXT.rotate}
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
