import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { PHONE_DIGITS, PHONE_PREFIX } from '#shared/constants';
import {
  partenaireInputSchema,
  phoneDigitsOf,
  sanitizePhoneInput,
  type PartenaireFormValues,
} from '#shared/schemas/partenaires';
import { Dialog } from '#web/components/ui/dialog';
import { DialogFooter, Form } from '#web/components/ui/form-actions';
import { TextField } from '#web/components/ui/form-field';
import { useToast } from '#web/components/ui/toast';
import { serverMessage } from '#web/lib/errors';
import { useTRPC } from '#web/lib/trpc';
import { PARTENAIRES_TEXT, type PartenaireRow } from './partenaires-text';

export type PartenaireDialogState = { mode: 'create' } | { mode: 'edit'; partenaire: PartenaireRow } | null;

/** 'Nouveau Partenaire' and 'Modifier le partenaire'; the form is mounted afresh at each opening. */
export function PartenaireFormDialog({
  state,
  onClose,
}: {
  state: PartenaireDialogState;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={state !== null}
      onClose={onClose}
      title={state?.mode === 'edit' ? PARTENAIRES_TEXT.editTitle : PARTENAIRES_TEXT.newPartner}
      data-testid="partenaire-form-dialog"
    >
      {state && (
        <PartenaireForm partenaire={state.mode === 'edit' ? state.partenaire : null} onClose={onClose} />
      )}
    </Dialog>
  );
}

function PartenaireForm({ partenaire, onClose }: { partenaire: PartenaireRow | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const form = useForm<PartenaireFormValues, unknown, z.output<typeof partenaireInputSchema>>({
    resolver: zodResolver(partenaireInputSchema),
    defaultValues: {
      designation: partenaire?.designation ?? '',
      email: partenaire?.email ?? '',
      phoneNumber: phoneDigitsOf(partenaire?.phoneNumber),
    },
  });
  const failed = partenaire ? PARTENAIRES_TEXT.updateFailed : PARTENAIRES_TEXT.createFailed;
  const done = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.partenaires.list.queryKey() });
    toast.success(partenaire ? PARTENAIRES_TEXT.updated : PARTENAIRES_TEXT.created);
    onClose();
  };
  const onError = (error: unknown) => toast.error(failed, { description: serverMessage(error, failed) });
  const create = useMutation(trpc.partenaires.create.mutationOptions({ onSuccess: done, onError }));
  const update = useMutation(trpc.partenaires.update.mutationOptions({ onSuccess: done, onError }));
  const pending = create.isPending || update.isPending;

  const onSubmit = form.handleSubmit((values) => {
    if (partenaire) update.mutate({ code: partenaire.code, ...values });
    else create.mutate(values);
  });

  return (
    <Form label={PARTENAIRES_TEXT.newPartner} onSubmit={onSubmit}>
      <TextField
        control={form.control}
        name="designation"
        id="partenaire-designation"
        label="Désignation"
        type="text"
        autoFocus
        autoComplete="off"
      />
      <TextField
        control={form.control}
        name="email"
        id="partenaire-email"
        label="Email"
        type="email"
        autoComplete="off"
        placeholder="contact@partenaire.mg"
      />
      <TextField
        control={form.control}
        name="phoneNumber"
        id="partenaire-phone"
        label="Téléphone"
        type="tel"
        inputMode="numeric"
        autoComplete="off"
        placeholder="341234567"
        aria-label={`Téléphone (${PHONE_PREFIX} suivi de ${PHONE_DIGITS} chiffres)`}
        prefix={PHONE_PREFIX}
        parse={sanitizePhoneInput}
      />
      <DialogFooter pending={pending} submitLabel={partenaire ? 'Enregistrer' : 'Créer'} onCancel={onClose} />
    </Form>
  );
}
