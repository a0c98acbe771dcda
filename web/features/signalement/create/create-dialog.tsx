import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useLocation } from 'wouter';
import type { z } from 'zod';
import { OTHERS_CODE } from '../../../../shared/constants';
import { signalementCreateSchema } from '../../../../shared/schemas/signalements';
import { Combobox } from '../../../components/ui/combobox';
import { DateInput } from '../../../components/ui/date-input';
import { Dialog } from '../../../components/ui/dialog';
import { errorProps, Field } from '../../../components/ui/field';
import { MultiSelect } from '../../../components/ui/multi-select';
import { useToast } from '../../../components/ui/toast';
import { serverMessage } from '../../../lib/errors';
import { businessToday } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import { TOASTS } from '../labels';
import { detailPath } from '../list/signalement-table';
import { toOptions, useCanals, usePartenaireOptions, useSubjects } from '../use-references';

type Values = z.input<typeof signalementCreateSchema>;
type Parsed = z.output<typeof signalementCreateSchema>;

export function CreateSignalementDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Initialiser un nouveau signalement"
      description="Renseignez les informations essentielles ; le reste se complète dans le détail."
      size="lg"
      data-testid="create-dialog"
    >
      {open && <CreateForm onClose={onClose} />}
    </Dialog>
  );
}

function CreateForm({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [, navigate] = useLocation();
  const [partnerSearch, setPartnerSearch] = useState('');
  const partners = usePartenaireOptions(partnerSearch);
  const subjects = useSubjects();
  const canals = useCanals();
  const loadFailed = partners.isError || subjects.isError || canals.isError;

  useEffect(() => {
    if (loadFailed) toast.error(TOASTS.formLoadFailed);
  }, [loadFailed, toast]);

  const form = useForm<Values, unknown, Parsed>({
    resolver: zodResolver(signalementCreateSchema),
    defaultValues: {
      partenaire: '',
      subjects: [],
      canalPrincipal: '',
      signalementAt: businessToday(),
      autreObject: '',
      autreCanalPrincipal: '',
    },
  });
  const { errors } = form.formState;
  const chosenSubjects = useWatch({ control: form.control, name: 'subjects' });
  const chosenCanal = useWatch({ control: form.control, name: 'canalPrincipal' });
  const otherSubject = chosenSubjects.includes(OTHERS_CODE);
  const otherCanal = chosenCanal === OTHERS_CODE;

  const create = useMutation(
    trpc.signalements.create.mutationOptions({
      onSuccess({ code }) {
        toast.success(TOASTS.created, { description: code });
        void queryClient.invalidateQueries({ queryKey: trpc.signalements.list.queryKey() });
        onClose();
        navigate(detailPath(code));
      },
      onError(error) {
        toast.error(TOASTS.createFailed, { description: serverMessage(error, '') || undefined });
      },
    }),
  );

  const onSubmit = form.handleSubmit((_parsed, event) => {
    event?.preventDefault();
    const values = form.getValues();
    create.mutate({
      partenaire: values.partenaire,
      subjects: values.subjects,
      canalPrincipal: values.canalPrincipal,
      signalementAt: values.signalementAt,
      // A description left behind by an unticked OTHERS is not sent.
      autreObject: otherSubject ? values.autreObject : null,
      autreCanalPrincipal: otherCanal ? values.autreCanalPrincipal : null,
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" aria-label="Nouveau signalement">
      <Field htmlFor="create-partenaire" label="Partenaire concerné" error={errors.partenaire?.message}>
        <Controller
          control={form.control}
          name="partenaire"
          render={({ field }) => (
            <Combobox
              id="create-partenaire"
              label="Partenaire concerné"
              placeholder="Sélectionner un partenaire"
              options={partners.options}
              loading={partners.isPending}
              onSearchChange={setPartnerSearch}
              emptyText="Aucun partenaire trouvé."
              value={field.value || null}
              onChange={(value) => field.onChange(value ?? '')}
              invalid={!!errors.partenaire}
              data-testid="create-partenaire"
            />
          )}
        />
      </Field>
      <Field htmlFor="create-subjects" label="Objet(s) de la plainte" error={errors.subjects?.message}>
        <Controller
          control={form.control}
          name="subjects"
          render={({ field }) => (
            <MultiSelect
              id="create-subjects"
              label="Objet(s) de la plainte"
              placeholder="Sélectionner un ou plusieurs objets"
              options={toOptions(subjects.data)}
              loading={subjects.isPending}
              emptyText="Aucun objet trouvé."
              value={field.value}
              onChange={field.onChange}
              invalid={!!errors.subjects}
              data-testid="create-subjects"
            />
          )}
        />
      </Field>
      {otherSubject && (
        <Field
          htmlFor="create-autre-objet"
          label="Précisez l'objet (Autre)"
          error={errors.autreObject?.message}
        >
          <textarea
            id="create-autre-objet"
            className={`textarea w-full ${errors.autreObject ? 'textarea-error' : ''}`}
            rows={2}
            {...errorProps('create-autre-objet', errors.autreObject?.message)}
            {...form.register('autreObject')}
          />
        </Field>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          htmlFor="create-canal"
          label="Canal de réception principal"
          error={errors.canalPrincipal?.message}
        >
          <select
            id="create-canal"
            className={`select w-full ${errors.canalPrincipal ? 'select-error' : ''}`}
            {...errorProps('create-canal', errors.canalPrincipal?.message)}
            {...form.register('canalPrincipal')}
          >
            <option value="">Sélectionner un canal</option>
            {(canals.data ?? []).map((c) => (
              <option key={c.code} value={c.code}>
                {c.designation}
              </option>
            ))}
          </select>
        </Field>
        <Field htmlFor="create-date" label="Date de signalement" error={errors.signalementAt?.message}>
          <Controller
            control={form.control}
            name="signalementAt"
            render={({ field }) => (
              <DateInput
                id="create-date"
                pastOnly
                className={errors.signalementAt ? 'input-error' : ''}
                {...errorProps('create-date', errors.signalementAt?.message)}
                {...field}
              />
            )}
          />
        </Field>
      </div>
      {otherCanal && (
        <Field
          htmlFor="create-autre-canal"
          label="Précisez le canal (Autre)"
          error={errors.autreCanalPrincipal?.message}
        >
          <input
            id="create-autre-canal"
            className={`input w-full ${errors.autreCanalPrincipal ? 'input-error' : ''}`}
            {...errorProps('create-autre-canal', errors.autreCanalPrincipal?.message)}
            {...form.register('autreCanalPrincipal')}
          />
        </Field>
      )}
      <div className="modal-action">
        <button type="button" className="btn btn-ghost" onClick={onClose} disabled={create.isPending}>
          Annuler
        </button>
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          Initialiser
        </button>
      </div>
    </form>
  );
}
