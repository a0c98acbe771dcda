import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { PHONE_DIGITS, PHONE_PREFIX } from '../../../shared/constants';
import {
  partenaireInputSchema,
  phoneDigitsOf,
  sanitizePhoneInput,
  type PartenaireFormValues,
} from '../../../shared/schemas/partenaires';
import { Dialog } from '../../components/ui/dialog';
import { errorProps, Field } from '../../components/ui/field';
import { useToast } from '../../components/ui/toast';
import { serverMessage } from '../../lib/errors';
import { useTRPC } from '../../lib/trpc';
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
  const { errors } = form.formState;
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
    <form
      onSubmit={onSubmit}
      noValidate
      className="flex flex-col gap-3"
      aria-label={PARTENAIRES_TEXT.newPartner}
    >
      <Field htmlFor="partenaire-designation" label="Désignation" error={errors.designation?.message}>
        <input
          id="partenaire-designation"
          type="text"
          autoFocus
          autoComplete="off"
          className={`input w-full ${errors.designation ? 'input-error' : ''}`}
          {...errorProps('partenaire-designation', errors.designation?.message)}
          {...form.register('designation')}
        />
      </Field>
      <Field htmlFor="partenaire-email" label="Email" error={errors.email?.message}>
        <input
          id="partenaire-email"
          type="email"
          autoComplete="off"
          className={`input w-full ${errors.email ? 'input-error' : ''}`}
          placeholder="contact@partenaire.mg"
          {...errorProps('partenaire-email', errors.email?.message)}
          {...form.register('email')}
        />
      </Field>
      <Field htmlFor="partenaire-phone" label="Téléphone" error={errors.phoneNumber?.message}>
        <Controller
          control={form.control}
          name="phoneNumber"
          render={({ field }) => (
            <div className="join w-full">
              <span
                className="join-item flex items-center border border-base-300 bg-base-200 px-3 text-sm"
                aria-hidden="true"
              >
                {PHONE_PREFIX}
              </span>
              <input
                id="partenaire-phone"
                type="tel"
                inputMode="numeric"
                autoComplete="off"
                placeholder="341234567"
                className={`input join-item w-full ${errors.phoneNumber ? 'input-error' : ''}`}
                aria-label={`Téléphone (${PHONE_PREFIX} suivi de ${PHONE_DIGITS} chiffres)`}
                {...errorProps('partenaire-phone', errors.phoneNumber?.message)}
                name={field.name}
                ref={field.ref}
                value={field.value ?? ''}
                onBlur={field.onBlur}
                onChange={(event) => field.onChange(sanitizePhoneInput(event.target.value))}
              />
            </div>
          )}
        />
      </Field>
      <div className="modal-action">
        <button type="button" className="btn btn-ghost" onClick={onClose} disabled={pending}>
          Annuler
        </button>
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {partenaire ? 'Enregistrer' : 'Créer'}
        </button>
      </div>
    </form>
  );
}
