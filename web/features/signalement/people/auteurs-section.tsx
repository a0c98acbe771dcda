import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { AuteurDto } from '../../../../shared/dto/signalements';
import { useToast } from '../../../components/ui/toast';
import { serverMessage } from '../../../lib/errors';
import { useTRPC } from '../../../lib/trpc';
import { TOASTS } from '../labels';
import { AuteurDialog, type AuteurValues } from './auteur-form';
import { PersonSection } from './person-section';
import { useReportRefresh } from './use-report-refresh';

const T = {
  loadFailed: 'Impossible de charger les auteurs.',
  added: 'Auteur ajouté.',
  updated: 'Auteur mis à jour.',
  deleted: 'Auteur supprimé.',
};

export function AuteursSection({ code, canEdit }: { code: string; canEdit: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const refreshReport = useReportRefresh(code);
  const [target, setTarget] = useState<AuteurDto | 'new' | null>(null);
  const list = useQuery(trpc.auteurs.list.queryOptions({ signalement: code }));

  useEffect(() => {
    if (list.isError) toast.error(T.loadFailed);
  }, [list.isError, toast]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.auteurs.list.queryKey({ signalement: code }) });
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
    trpc.auteurs.create.mutationOptions({ onSuccess: onSaved(T.added), onError: failed }),
  );
  const update = useMutation(
    trpc.auteurs.update.mutationOptions({ onSuccess: onSaved(T.updated), onError: failed }),
  );
  const remove = useMutation(
    trpc.auteurs.delete.mutationOptions({
      onSuccess: () => {
        toast.success(T.deleted);
        refresh();
      },
      onError: () => toast.error(TOASTS.deleteFailed),
    }),
  );

  const submit = (values: AuteurValues) => {
    if (target === 'new') create.mutate({ ...values, signalement: code });
    else if (target) update.mutate({ code: target.code, data: values });
  };

  return (
    <>
      <PersonSection<AuteurDto>
        title="Auteurs Présumés"
        items={list.data}
        loading={list.isPending}
        canEdit={canEdit}
        addLabel="Ajouter"
        emptyText="Aucun auteur présumé."
        describe={(a) => ({ name: a.nomPrenom, details: [a.fonction, a.description] })}
        onAdd={() => setTarget('new')}
        onEdit={setTarget}
        onDelete={(a) => remove.mutateAsync({ code: a.code }).catch(() => undefined)}
        data-testid="auteurs-section"
      />
      <AuteurDialog
        target={target}
        pending={create.isPending || update.isPending}
        onClose={() => setTarget(null)}
        onSubmit={submit}
      />
    </>
  );
}
