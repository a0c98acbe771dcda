import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Dialog } from '#web/components/ui/dialog';
import { AlertTriangleIcon } from '#web/components/ui/more-icons';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { formatDateTime, formatNumber } from '#web/lib/format';
import { useTRPC } from '#web/lib/trpc';

const TEXT = {
  banner: (n: number) => `${formatNumber(n)} email(s) n'ont pas pu être envoyés.`,
  open: 'Voir le détail',
  title: 'Emails non envoyés',
  description:
    "Ces messages ont été refusés par le serveur de messagerie, n'ont pas pu lui être remis après plusieurs essais, ou attendent encore un processus d'envoi qui s'est arrêté.",
  stuckBadge: 'Bloqué',
  stuck:
    "En attente : le processus d'envoi s'est arrêté pendant l'envoi. Réessayer le renvoie tout de suite.",
  retry: 'Réessayer',
  retried: "Email remis en file d'envoi.",
  retryFailed: "Échec de la remise en file d'envoi.",
  close: 'Fermer',
  none: 'Aucun email en échec.',
} as const;

/**
 * Undelivered e-mails (set-up, reset, partner notifications), for administrators: shown on the users
 * screen only when there are some, with a retry per message.
 */
export function FailedMails() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const failed = useQuery(trpc.mail.failed.queryOptions(undefined, { refetchInterval: 60_000 }));
  const retry = useMutation(
    trpc.mail.retry.mutationOptions({
      onSuccess() {
        toast.success(TEXT.retried);
        void queryClient.invalidateQueries({ queryKey: trpc.mail.failed.queryKey() });
      },
      onError(error) {
        toast.error(TEXT.retryFailed, { description: serverMessage(error, TEXT.retryFailed) });
      },
    }),
  );
  const items = failed.data ?? [];
  if (items.length === 0 && !open) return null;

  return (
    <>
      <div role="alert" className="alert alert-warning alert-soft mb-4" data-testid="failed-mails">
        <AlertTriangleIcon size={18} />
        <span>{TEXT.banner(items.length)}</span>
        <button type="button" className="btn btn-sm" onClick={() => setOpen(true)}>
          {TEXT.open}
        </button>
      </div>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={TEXT.title}
        description={TEXT.description}
        size="lg"
        actions={
          <button type="button" className="btn" onClick={() => setOpen(false)}>
            {TEXT.close}
          </button>
        }
      >
        {items.length === 0 && <p className="text-sm text-base-content/70">{TEXT.none}</p>}
        <ul className="flex max-h-96 flex-col gap-2 overflow-y-auto" data-testid="failed-mails-list">
          {items.map((mail) => (
            <li key={mail.id} className="rounded-box border border-base-300 p-3">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <p className="font-medium">{mail.subject}</p>
                  <p className="text-sm text-base-content/70">
                    {mail.to} · {formatDateTime(mail.createdAt)} · {mail.attempts} essai(s)
                  </p>
                </div>
                <button
                  type="button"
                  className="btn btn-sm btn-primary"
                  disabled={retry.isPending && retry.variables?.id === mail.id}
                  onClick={() => retry.mutate({ id: mail.id })}
                >
                  {TEXT.retry}
                </button>
              </div>
              {mail.state === 'stuck' && (
                <p className="mt-2 text-sm">
                  <span className="badge badge-warning badge-sm mr-2">{TEXT.stuckBadge}</span>
                  {TEXT.stuck}
                </p>
              )}
              {mail.lastError && <p className="mt-2 text-sm break-words text-error">{mail.lastError}</p>}
            </li>
          ))}
        </ul>
      </Dialog>
    </>
  );
}
