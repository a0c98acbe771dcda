import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ACCESS_ALERT_KIND_LABELS, type AccessAlertDto } from '#shared/dto/journal';
import { AlertTriangleIcon } from '#web/components/ui/more-icons';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { formatDateTimeSeconds } from '#web/lib/format';
import { isAdmin } from '#web/lib/role';
import { useTRPC } from '#web/lib/trpc';
import { useWhoAmI } from '../auth/use-who-am-i';
import { journalHref } from './journal-url';
import { ALERTS_TEXT } from './journal-text';

/**
 * Unusual reading raised from the access log, at the top of the dashboard. Administrators only: for
 * anyone else the alerts are not even asked for. Nothing is shown when no alert awaits.
 */
export function AccessAlerts() {
  const whoAmI = useWhoAmI();
  if (!whoAmI.isSuccess || !isAdmin(whoAmI.user)) return null;
  return <AccessAlertList selfCode={whoAmI.user?.code} />;
}

function AccessAlertList({ selfCode }: { selfCode: string | undefined }) {
  const trpc = useTRPC();
  const alerts = useQuery(trpc.journal.alerts.queryOptions());

  if (alerts.isError) {
    return (
      <div role="alert" className="alert alert-error alert-soft" data-testid="access-alerts-error">
        <span className="text-base-content">{serverMessage(alerts.error, ALERTS_TEXT.loadFailed)}</span>
      </div>
    );
  }
  const items = alerts.data ?? [];
  if (items.length === 0) return null;
  return (
    <section
      aria-labelledby="access-alerts-title"
      className="flex flex-col gap-3"
      data-testid="access-alerts"
    >
      <div>
        <h2 id="access-alerts-title" className="text-lg font-semibold">
          {ALERTS_TEXT.title}
        </h2>
        <p className="text-sm text-base-content/70">{ALERTS_TEXT.intro(items.length)}</p>
      </div>
      <ul className="flex flex-col gap-2">
        {items.map((alert) => (
          <AccessAlertItem key={alert.id} alert={alert} own={alert.utilisateur.code === selfCode} />
        ))}
      </ul>
    </section>
  );
}

/** `own`: the alert is about the administrator reading it, who may not mark it seen (the server refuses it too). */
function AccessAlertItem({ alert, own }: { alert: AccessAlertDto; own: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const markSeen = useMutation(
    trpc.journal.markAlertSeen.mutationOptions({
      onSuccess() {
        toast.success(ALERTS_TEXT.markedSeen);
        void queryClient.invalidateQueries({ queryKey: trpc.journal.alerts.queryKey() });
      },
      onError(error) {
        toast.error(ALERTS_TEXT.markFailed, { description: serverMessage(error, ALERTS_TEXT.markFailed) });
      },
    }),
  );
  const { utilisateur } = alert;
  return (
    // A flex box, not daisyUI's grid (one row of auto columns: 423 px wide at 375 px, buttons over the text at
    // 768 px): the text takes the room left, the buttons go under it until there is room for both (lg).
    <li
      className="alert alert-warning flex flex-col items-stretch gap-3 lg:flex-row lg:items-center"
      data-testid="access-alert"
      data-alert-id={alert.id}
    >
      <AlertTriangleIcon className="hidden shrink-0 lg:block" aria-hidden="true" />
      <div className="min-w-0 flex-1 [overflow-wrap:anywhere]" data-testid="access-alert-text">
        <p className="font-semibold" data-testid="access-alert-kind">
          {ACCESS_ALERT_KIND_LABELS[alert.kind]}
        </p>
        <p data-testid="access-alert-message">
          <span className="font-medium">{utilisateur.nomPrenom}</span> ({utilisateur.email}) {alert.message}
        </p>
        <p className="text-sm">
          <time dateTime={alert.createdAt}>
            {ALERTS_TEXT.raisedAt(formatDateTimeSeconds(alert.createdAt))}
          </time>
        </p>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2" data-testid="access-alert-actions">
        <Link href={journalHref({ utilisateur: utilisateur.code })} className="btn btn-sm">
          {ALERTS_TEXT.viewLog}
        </Link>
        {!own && (
          <button
            type="button"
            className="btn btn-sm btn-outline"
            disabled={markSeen.isPending}
            onClick={() => markSeen.mutate({ id: alert.id })}
          >
            {markSeen.isPending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            {ALERTS_TEXT.markSeen}
          </button>
        )}
      </div>
    </li>
  );
}
