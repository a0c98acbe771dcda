import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { API_TOKEN_SCOPE_LABELS, OPTION_LIST_SIZE } from '#shared/constants';
import type { CreatedJeton, JetonDto } from '#shared/dto/jetons-api';
import { Badge, type BadgeTone } from '#web/components/ui/badge';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import { Loading } from '#web/components/ui/loading';
import { PlusIcon } from '#web/components/ui/more-icons';
import { PageHeader } from '#web/components/ui/page-header';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { formatDate, formatDateTime } from '#web/lib/format';
import { useTRPC } from '#web/lib/trpc';
import { ACCES_API_TEXT as T, STATE_LABELS } from './acces-api-text';
import { JetonFormDialog } from './jeton-form-dialog';
import { JetonSecretDialog } from './jeton-secret-dialog';

const STATE_TONES: Record<JetonDto['etat'], BadgeTone> = { actif: 'green', expire: 'gray', revoque: 'red' };

/** « Accès API »: the partners' API tokens, their creation (secret shown once) and revocation. */
export default function AccesApiPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [partenaire, setPartenaire] = useState('');
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedJeton | null>(null);
  const [revoking, setRevoking] = useState<JetonDto | null>(null);

  const partners = useQuery(trpc.partenaires.list.queryOptions({ page: 1, itemsPerPage: OPTION_LIST_SIZE }));
  const jetons = useQuery(trpc.jetonsApi.list.queryOptions(partenaire ? { partenaire } : {}));
  useEffect(() => {
    if (jetons.isError) toast.error(T.loadFailed);
  }, [jetons.isError, toast]);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.jetonsApi.list.queryKey() });
  const revoke = useMutation(
    trpc.jetonsApi.revoke.mutationOptions({
      onSuccess() {
        toast.success(T.revoked);
        refresh();
        setRevoking(null);
      },
      onError(error) {
        toast.error(T.revokeFailed, { description: serverMessage(error, T.revokeFailed) });
        setRevoking(null);
      },
    }),
  );

  const partnerOptions = (partners.data?.items ?? []).map((p) => ({ value: p.code, label: p.designation }));
  const items = jetons.data ?? [];

  return (
    <>
      <PageHeader
        title={T.title}
        subtitle={T.subtitle}
        actions={
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => setCreating(true)}
            data-testid="jeton-new"
          >
            <PlusIcon />
            {T.newToken}
          </button>
        }
      />
      <div className="card border border-base-300 bg-base-100">
        <div className="card-body gap-4 p-4 sm:p-6">
          <label className="flex flex-col gap-1 sm:max-w-sm" htmlFor="jetons-partenaire">
            <span className="text-sm font-medium">{T.filterLabel}</span>
            <select
              id="jetons-partenaire"
              className="select w-full"
              value={partenaire}
              onChange={(event) => setPartenaire(event.target.value)}
              data-testid="jetons-filter"
            >
              <option value="">{T.allPartners}</option>
              {partnerOptions.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
          {jetons.isPending ? (
            <Loading />
          ) : items.length === 0 ? (
            <p className="py-10 text-center text-base-content/70" data-testid="jetons-empty">
              {T.empty}
            </p>
          ) : (
            <div className="md:overflow-x-auto">
              <table className="table table-stack" data-testid="jetons-table">
                <thead>
                  <tr>
                    <th>{T.columns.nom}</th>
                    <th>{T.columns.partenaire}</th>
                    <th>{T.columns.scopes}</th>
                    <th>{T.columns.expiresAt}</th>
                    <th>{T.columns.lastUsedAt}</th>
                    <th>{T.columns.etat}</th>
                    <th className="text-right">{T.columns.actions}</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((j) => (
                    <tr key={j.id} data-testid="jeton-row" data-id={j.id} className="hover:bg-base-200/50">
                      <td className="font-medium break-all" data-label={T.columns.nom}>
                        {j.nom}
                      </td>
                      <td data-label={T.columns.partenaire}>{j.partenaire.designation}</td>
                      <td data-label={T.columns.scopes}>
                        <ul className="flex flex-col gap-0.5 text-sm">
                          {j.scopes.map((s) => (
                            <li key={s}>{API_TOKEN_SCOPE_LABELS[s]}</li>
                          ))}
                        </ul>
                      </td>
                      <td className="whitespace-nowrap" data-label={T.columns.expiresAt}>
                        {formatDate(j.expiresAt)}
                      </td>
                      <td
                        className="whitespace-nowrap"
                        data-label={T.columns.lastUsedAt}
                        data-testid="jeton-last-use"
                      >
                        {j.lastUsedAt ? formatDateTime(j.lastUsedAt) : T.neverUsed}
                      </td>
                      <td data-label={T.columns.etat}>
                        <Badge tone={STATE_TONES[j.etat]} data-testid="jeton-state">
                          {STATE_LABELS[j.etat]}
                        </Badge>
                      </td>
                      <td className="text-right">
                        {j.etat !== 'revoque' && (
                          <button
                            type="button"
                            className="btn btn-ghost btn-sm text-error"
                            onClick={() => setRevoking(j)}
                            aria-label={`${T.revoke} « ${j.nom} »`}
                            data-testid="jeton-revoke"
                          >
                            {T.revoke}
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      </div>

      <JetonFormDialog
        open={creating}
        partners={partnerOptions}
        onClose={() => setCreating(false)}
        onCreated={(result) => {
          setCreating(false);
          setCreated(result);
          refresh();
        }}
      />
      <JetonSecretDialog created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        open={revoking !== null}
        title={T.revokeTitle}
        description={revoking ? T.revokeDescription(revoking.nom) : undefined}
        confirmLabel={T.revoke}
        tone="danger"
        pending={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate({ id: revoking.id })}
        data-testid="jeton-revoke-dialog"
      />
    </>
  );
}
