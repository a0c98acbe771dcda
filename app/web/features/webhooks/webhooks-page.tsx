import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { webhookDeliveryStates } from '#shared/schemas/webhooks';
import { Badge, type BadgeTone } from '#web/components/ui/badge';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import { Loading } from '#web/components/ui/loading';
import { PlusIcon, TrashIcon } from '#web/components/ui/more-icons';
import { PageHeader } from '#web/components/ui/page-header';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { formatDateTime, formatNumber } from '#web/lib/format';
import { useTRPC } from '#web/lib/trpc';
import { EndpointFormDialog } from './endpoint-form-dialog';
import { RotateSecretDialog } from './rotate-secret-dialog';
import { DELIVERY_STATE_LABELS, FAILING_LABEL, WEBHOOKS_TEXT } from './webhooks-text';

type DeliveryState = (typeof webhookDeliveryStates)[number];
const STATE_TONES: Record<DeliveryState, BadgeTone> = { pending: 'amber', delivered: 'green', dead: 'red' };

/** « Webhooks » (Administration): the partners' endpoints, their deliveries, and the dead letters to send again. */
export default function WebhooksPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<{ id: number; url: string } | null>(null);
  const [renewing, setRenewing] = useState<{ id: number; url: string } | null>(null);
  const [state, setState] = useState<DeliveryState | ''>('');

  const endpoints = useQuery(trpc.webhooks.endpoints.queryOptions());
  const deliveries = useQuery(trpc.webhooks.deliveries.queryOptions(state ? { state } : {}));
  useEffect(() => {
    if (endpoints.isError || deliveries.isError) toast.error(WEBHOOKS_TEXT.loadFailed);
  }, [endpoints.isError, deliveries.isError, toast]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.webhooks.endpoints.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey() });
  };
  const toggle = useMutation(
    trpc.webhooks.setEndpointEnabled.mutationOptions({
      onSuccess(result) {
        toast.success(result.actif ? WEBHOOKS_TEXT.enabled : WEBHOOKS_TEXT.disabledDone);
        refresh();
      },
      onError(error) {
        toast.error(WEBHOOKS_TEXT.toggleFailed, {
          description: serverMessage(error, WEBHOOKS_TEXT.toggleFailed),
        });
      },
    }),
  );
  const remove = useMutation(
    trpc.webhooks.deleteEndpoint.mutationOptions({
      onSuccess() {
        toast.success(WEBHOOKS_TEXT.deleted);
        setDeleting(null);
        refresh();
      },
      onError(error) {
        toast.error(WEBHOOKS_TEXT.deleteFailed, {
          description: serverMessage(error, WEBHOOKS_TEXT.deleteFailed),
        });
        setDeleting(null);
      },
    }),
  );
  const retry = useMutation(
    trpc.webhooks.retryDelivery.mutationOptions({
      onSuccess() {
        toast.success(WEBHOOKS_TEXT.retried);
        refresh();
      },
      onError(error) {
        toast.error(WEBHOOKS_TEXT.retryFailed, {
          description: serverMessage(error, WEBHOOKS_TEXT.retryFailed),
        });
      },
    }),
  );

  return (
    <>
      <PageHeader
        title={WEBHOOKS_TEXT.title}
        subtitle={WEBHOOKS_TEXT.subtitle}
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
            <PlusIcon />
            {WEBHOOKS_TEXT.newEndpoint}
          </button>
        }
      />
      <section
        className="card mb-6 border border-base-300 bg-base-100"
        aria-labelledby="webhook-endpoints-title"
      >
        <div className="card-body gap-4 p-4 sm:p-6">
          <h2 id="webhook-endpoints-title" className="card-title text-base">
            {WEBHOOKS_TEXT.endpoints}
          </h2>
          {endpoints.isPending ? (
            <Loading />
          ) : (endpoints.data ?? []).length === 0 ? (
            <p className="py-6 text-center text-base-content/70" data-testid="webhook-endpoints-empty">
              {WEBHOOKS_TEXT.endpointsEmpty}
            </p>
          ) : (
            <div className="md:overflow-x-auto">
              <table className="table table-stack" data-testid="webhook-endpoints">
                <thead>
                  <tr>
                    <th>{WEBHOOKS_TEXT.partner}</th>
                    <th>{WEBHOOKS_TEXT.url}</th>
                    <th>{WEBHOOKS_TEXT.createdAt}</th>
                    <th>{WEBHOOKS_TEXT.state}</th>
                    <th>{WEBHOOKS_TEXT.counts}</th>
                    <th className="text-right">{WEBHOOKS_TEXT.actions}</th>
                  </tr>
                </thead>
                <tbody>
                  {endpoints.data!.map((e) => (
                    <tr key={e.id} data-testid="webhook-endpoint-row" data-id={e.id}>
                      <td data-label={WEBHOOKS_TEXT.partner}>
                        {e.partenaire.designation}
                        {e.origine === 'partenaire' && (
                          <span
                            className="block text-xs text-base-content/70"
                            data-testid="webhook-by-partner"
                          >
                            {WEBHOOKS_TEXT.byPartner}
                          </span>
                        )}
                      </td>
                      <td data-label={WEBHOOKS_TEXT.url} className="break-all font-mono text-sm">
                        {e.url}
                      </td>
                      <td data-label={WEBHOOKS_TEXT.createdAt} className="whitespace-nowrap">
                        {formatDateTime(e.createdAt)}
                      </td>
                      <td data-label={WEBHOOKS_TEXT.state}>
                        <Badge tone={e.actif ? 'green' : 'gray'}>
                          {e.actif ? WEBHOOKS_TEXT.active : WEBHOOKS_TEXT.disabled}
                        </Badge>
                        {e.ancienSecretJusquA && (
                          <span
                            className="block text-xs text-base-content/70"
                            data-testid="webhook-previous-secret"
                          >
                            {WEBHOOKS_TEXT.previousUntil(formatDateTime(e.ancienSecretJusquA))}
                          </span>
                        )}
                      </td>
                      <td data-label={WEBHOOKS_TEXT.counts} className="text-sm">
                        {WEBHOOKS_TEXT.pendingCount(e.livraisons.enAttente)} ·{' '}
                        {WEBHOOKS_TEXT.deliveredCount(e.livraisons.livrees)} ·{' '}
                        {WEBHOOKS_TEXT.deadCount(e.livraisons.lettresMortes)}
                      </td>
                      <td>
                        <div className="flex justify-end gap-1">
                          <button
                            type="button"
                            className="btn btn-ghost btn-sm"
                            disabled={toggle.isPending}
                            aria-label={`${e.actif ? WEBHOOKS_TEXT.disable : WEBHOOKS_TEXT.enable} ${e.url}`}
                            onClick={() => toggle.mutate({ id: e.id, actif: !e.actif })}
                          >
                            {e.actif ? WEBHOOKS_TEXT.disable : WEBHOOKS_TEXT.enable}
                          </button>
                          <button
                            type="button"
                            className="btn btn-ghost btn-sm"
                            aria-label={`${WEBHOOKS_TEXT.rotate} de ${e.url}`}
                            onClick={() => setRenewing({ id: e.id, url: e.url })}
                          >
                            {WEBHOOKS_TEXT.rotate}
                          </button>
                          <button
                            type="button"
                            className="btn btn-ghost btn-sm btn-square text-error"
                            aria-label={`${WEBHOOKS_TEXT.delete} ${e.url}`}
                            onClick={() => setDeleting({ id: e.id, url: e.url })}
                          >
                            <TrashIcon />
                          </button>
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      </section>

      <section className="card border border-base-300 bg-base-100" aria-labelledby="webhook-deliveries-title">
        <div className="card-body gap-4 p-4 sm:p-6">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <h2 id="webhook-deliveries-title" className="card-title text-base">
              {WEBHOOKS_TEXT.deliveries}
            </h2>
            <label className="flex flex-col gap-1 text-sm">
              <span>{WEBHOOKS_TEXT.stateFilter}</span>
              <select
                className="select select-sm"
                value={state}
                onChange={(event) => setState(event.target.value as DeliveryState | '')}
                data-testid="webhook-state-filter"
              >
                <option value="">{WEBHOOKS_TEXT.allStates}</option>
                {webhookDeliveryStates.map((s) => (
                  <option key={s} value={s}>
                    {DELIVERY_STATE_LABELS[s]}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {deliveries.isPending ? (
            <Loading />
          ) : (deliveries.data ?? []).length === 0 ? (
            <p className="py-6 text-center text-base-content/70" data-testid="webhook-deliveries-empty">
              {WEBHOOKS_TEXT.deliveriesEmpty}
            </p>
          ) : (
            <div className="md:overflow-x-auto">
              <table className="table table-stack" data-testid="webhook-deliveries">
                <thead>
                  <tr>
                    <th>{WEBHOOKS_TEXT.signalement}</th>
                    <th>{WEBHOOKS_TEXT.partner}</th>
                    <th>{WEBHOOKS_TEXT.event}</th>
                    <th>{WEBHOOKS_TEXT.state}</th>
                    <th className="text-right">{WEBHOOKS_TEXT.attempts}</th>
                    <th>{WEBHOOKS_TEXT.lastAnswer}</th>
                    <th>{WEBHOOKS_TEXT.createdAt}</th>
                    <th className="text-right">{WEBHOOKS_TEXT.actions}</th>
                  </tr>
                </thead>
                <tbody>
                  {deliveries.data!.map((d) => (
                    <tr key={d.id} data-testid="webhook-delivery-row" data-state={d.state}>
                      <td data-label={WEBHOOKS_TEXT.signalement} className="font-mono text-sm">
                        {d.signalement}
                      </td>
                      <td data-label={WEBHOOKS_TEXT.partner} className="text-sm">
                        {d.endpoint.partenaire}
                        <span className="block break-all text-xs text-base-content/70">{d.endpoint.url}</span>
                      </td>
                      <td data-label={WEBHOOKS_TEXT.event} className="font-mono text-xs">
                        {d.type}
                      </td>
                      <td data-label={WEBHOOKS_TEXT.state}>
                        {d.state === 'pending' && d.lastError ? (
                          <Badge tone="orange">{FAILING_LABEL}</Badge>
                        ) : (
                          <Badge tone={STATE_TONES[d.state]}>{DELIVERY_STATE_LABELS[d.state]}</Badge>
                        )}
                        {d.state === 'pending' && d.nextAttemptAt && (
                          <span className="block text-xs text-base-content/70">
                            {WEBHOOKS_TEXT.nextAttempt} : {formatDateTime(d.nextAttemptAt)}
                          </span>
                        )}
                        {d.deliveredAt && (
                          <span className="block text-xs text-base-content/70">
                            {WEBHOOKS_TEXT.deliveredAt} {formatDateTime(d.deliveredAt)}
                          </span>
                        )}
                      </td>
                      <td data-label={WEBHOOKS_TEXT.attempts} className="text-right tabular-nums">
                        {formatNumber(d.attempts)}
                      </td>
                      <td data-label={WEBHOOKS_TEXT.lastAnswer} className="max-w-72 text-sm">
                        {d.lastStatus !== null && <span className="font-mono">HTTP {d.lastStatus}</span>}
                        {d.lastError && <span className="block break-words">{d.lastError}</span>}
                        {d.lastResponse && (
                          <span
                            className="block truncate text-xs text-base-content/70"
                            title={d.lastResponse}
                          >
                            {d.lastResponse}
                          </span>
                        )}
                        {d.lastStatus === null && !d.lastError && '-'}
                      </td>
                      <td data-label={WEBHOOKS_TEXT.createdAt} className="whitespace-nowrap">
                        {formatDateTime(d.createdAt)}
                      </td>
                      <td>
                        <div className="flex justify-end">
                          {d.state === 'dead' && (
                            <button
                              type="button"
                              className="btn btn-sm btn-outline"
                              disabled={retry.isPending}
                              aria-label={`${WEBHOOKS_TEXT.retry} la livraison du signalement ${d.signalement}`}
                              onClick={() => retry.mutate({ id: d.id })}
                            >
                              {WEBHOOKS_TEXT.retry}
                            </button>
                          )}
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      </section>

      <EndpointFormDialog open={creating} onClose={() => setCreating(false)} />
      <RotateSecretDialog endpoint={renewing} onClose={() => setRenewing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={WEBHOOKS_TEXT.deleteTitle}
        description={WEBHOOKS_TEXT.deleteDescription}
        confirmLabel={WEBHOOKS_TEXT.delete}
        tone="danger"
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
        data-testid="webhook-delete-dialog"
      />
    </>
  );
}
