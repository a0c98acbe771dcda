import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { VictimeDto } from '../../../../shared/dto/signalements';
import { useToast } from '../../../components/ui/toast';
import { serverMessage } from '../../../lib/errors';
import { useTRPC } from '../../../lib/trpc';
import { TOASTS } from '../labels';
import { PersonSection } from './person-section';
import { useReportRefresh } from './use-report-refresh';
import { VictimeDialog, type VictimeValues } from './victime-form';

const T = {
  loadFailed: 'Impossible de charger les victimes.',
  added: 'Victime ajoutée.',
  updated: 'Victime mise à jour.',
  deleted: 'Victime supprimée.',
};

export function VictimesSection({ code, canEdit }: { code: string; canEdit: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const refreshReport = useReportRefresh(code);
  const [target, setTarget] = useState<VictimeDto | 'new' | null>(null);
  const list = useQuery(trpc.victimes.list.queryOptions({ signalement: code }));

  useEffect(() => {
    if (list.isError) toast.error(T.loadFailed);
  }, [list.isError, toast]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.victimes.list.queryKey({ signalement: code }) });
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
    trpc.victimes.create.mutationOptions({ onSuccess: onSaved(T.added), onError: failed }),
  );
  const update = useMutation(
    trpc.victimes.update.mutationOptions({ onSuccess: onSaved(T.updated), onError: failed }),
  );
  const remove = useMutation(
    trpc.victimes.delete.mutationOptions({
      onSuccess: () => {
        toast.success(T.deleted);
        refresh();
      },
      onError: () => toast.error(TOASTS.deleteFailed),
    }),
  );

  const submit = (values: VictimeValues) => {
    if (target === 'new') create.mutate({ ...values, signalement: code });
    else if (target) update.mutate({ code: target.code, data: values });
  };

  return (
    <>
      <PersonSection<VictimeDto>
        title="Victimes"
        items={list.data}
        loading={list.isPending}
        canEdit={canEdit}
        addLabel="Ajouter"
        emptyText="Aucune victime."
        describe={(v) => ({ name: v.nomPrenom, details: [v.fonction, v.contact] })}
        onAdd={() => setTarget('new')}
        onEdit={setTarget}
        onDelete={(v) => remove.mutateAsync({ code: v.code }).catch(() => undefined)}
        data-testid="victimes-section"
      />
      <VictimeDialog
        target={target}
        pending={create.isPending || update.isPending}
        onClose={() => setTarget(null)}
        onSubmit={submit}
      />
    </>
  );
}
