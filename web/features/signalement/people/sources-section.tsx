import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { OTHERS_CODE } from '../../../../shared/constants';
import type { SignalementDto, SourceDto } from '../../../../shared/dto/signalements';
import { Switch } from '../../../components/ui/switch';
import { useToast } from '../../../components/ui/toast';
import { serverMessage } from '../../../lib/errors';
import { useTRPC } from '../../../lib/trpc';
import { YesNo } from '../detail/detail-card';
import { TOASTS } from '../labels';
import { PersonSection } from './person-section';
import { SourceDialog, type SourceValues } from './source-form';
import { useReportRefresh } from './use-report-refresh';

const T = {
  loadFailed: 'Impossible de charger les sources.',
  added: 'Source ajoutée.',
  updated: 'Source mise à jour.',
  deleted: 'Source supprimée.',
};

const canauxText = (s: SourceDto) =>
  s.canaux
    .map((c) =>
      c.code === OTHERS_CODE && s.autreCanal ? `${c.designation} : ${s.autreCanal}` : c.designation,
    )
    .join(', ');

/** Sources, hidden while the report is anonymous; the switch saves at once (§4). */
export function SourcesSection({ signalement }: { signalement: SignalementDto }) {
  const { code, canEdit, isAnonyme } = signalement;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const refreshReport = useReportRefresh(code);
  const [target, setTarget] = useState<SourceDto | 'new' | null>(null);
  const list = useQuery(trpc.sources.list.queryOptions({ signalement: code }));

  useEffect(() => {
    if (list.isError) toast.error(T.loadFailed);
  }, [list.isError, toast]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.sources.list.queryKey({ signalement: code }) });
    refreshReport();
  };
  const failed = (error: unknown) =>
    toast.error(TOASTS.updateFailed, { description: serverMessage(error, '') || undefined });
  const onSaved = (message: string) => () => {
    toast.success(message);
    setTarget(null);
    refresh();
  };
  const create = useMutation(
    trpc.sources.create.mutationOptions({ onSuccess: onSaved(T.added), onError: failed }),
  );
  const update = useMutation(
    trpc.sources.update.mutationOptions({ onSuccess: onSaved(T.updated), onError: failed }),
  );
  const remove = useMutation(
    trpc.sources.delete.mutationOptions({
      onSuccess: () => {
        toast.success(T.deleted);
        refresh();
      },
      onError: () => toast.error(TOASTS.deleteFailed),
    }),
  );
  const anonymous = useMutation(
    trpc.signalements.update.mutationOptions({
      onSuccess(saved) {
        queryClient.setQueryData(trpc.signalements.get.queryKey({ code }), saved);
        toast.success(saved.isAnonyme ? TOASTS.anonymousOn : TOASTS.anonymousOff);
        refresh();
      },
      onError: () => toast.error(TOASTS.anonymousFailed),
    }),
  );

  const submit = (values: SourceValues) => {
    if (target === 'new') create.mutate({ ...values, signalement: code });
    else if (target) update.mutate({ code: target.code, data: values });
  };

  const switchOrValue = canEdit ? (
    <Switch
      label="Anonyme"
      checked={anonymous.isPending ? !isAnonyme : isAnonyme}
      disabled={anonymous.isPending}
      onChange={(checked) => anonymous.mutate({ code, patch: { isAnonyme: checked } })}
      data-testid="anonymous-switch"
    />
  ) : (
    <span className="flex items-center gap-2 text-sm" data-testid="anonymous-value">
      Anonyme : <YesNo value={isAnonyme} />
    </span>
  );

  return (
    <>
      <PersonSection<SourceDto>
        title="Sources"
        items={list.data?.sources}
        loading={list.isPending}
        canEdit={canEdit}
        addLabel="Ajouter"
        emptyText="Aucune source."
        describe={(s) => ({
          name: s.nomPrenom || 'Source sans nom',
          details: [s.contact, canauxText(s), s.description],
        })}
        onAdd={() => setTarget('new')}
        onEdit={setTarget}
        onDelete={(s) => remove.mutateAsync({ code: s.code }).catch(() => undefined)}
        headerExtra={switchOrValue}
        body={
          isAnonyme ? (
            <p className="text-sm text-base-content/60" data-testid="sources-hidden">
              Signalement anonyme : les sources ne sont pas affichées.
            </p>
          ) : undefined
        }
        data-testid="sources-section"
      />
      <SourceDialog
        target={target}
        pending={create.isPending || update.isPending}
        onClose={() => setTarget(null)}
        onSubmit={submit}
      />
    </>
  );
}
