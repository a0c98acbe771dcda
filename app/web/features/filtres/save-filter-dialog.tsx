import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { filtreFormSchema, type FiltreFormValues } from '#shared/schemas/filtres';
import { Dialog } from '#web/components/ui/dialog';
import { DialogFooter, Form } from '#web/components/ui/form-actions';
import { TextField } from '#web/components/ui/form-field';
import { Switch } from '#web/components/ui/switch';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { useTRPC } from '#web/lib/trpc';
import { FILTRES_TEXT } from './filtres-text';

const T = FILTRES_TEXT.save;

/** « Enregistrer ce filtre »: a name and « Partager avec l'équipe »; the query string is the list's address. */
export function SaveFilterDialog({
  open,
  requete,
  onClose,
}: {
  open: boolean;
  requete: string;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={T.title}
      description={T.description}
      data-testid="save-filter-dialog"
    >
      {open && <SaveFilterForm requete={requete} onClose={onClose} />}
    </Dialog>
  );
}

function SaveFilterForm({ requete, onClose }: { requete: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const form = useForm<FiltreFormValues, unknown, z.output<typeof filtreFormSchema>>({
    resolver: zodResolver(filtreFormSchema),
    defaultValues: { nom: '', partage: false },
  });
  const create = useMutation(
    trpc.filtres.create.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.filtres.list.queryKey() });
        toast.success(T.done);
        onClose();
      },
      onError: (error) => toast.error(T.failed, { description: serverMessage(error, T.failed) }),
    }),
  );
  const onSubmit = form.handleSubmit((values) => create.mutate({ ...values, requete }));

  return (
    <Form label={T.title} onSubmit={onSubmit}>
      <TextField
        control={form.control}
        name="nom"
        id="filtre-nom"
        label={T.nom}
        type="text"
        autoComplete="off"
        autoFocus
        placeholder={T.nomPlaceholder}
      />
      <Controller
        control={form.control}
        name="partage"
        render={({ field }) => (
          <Switch
            id="filtre-partage"
            checked={field.value ?? false}
            onChange={field.onChange}
            label={T.partage}
            data-testid="filtre-partage"
          />
        )}
      />
      <DialogFooter pending={create.isPending} submitLabel={T.submit} onCancel={onClose} />
    </Form>
  );
}
