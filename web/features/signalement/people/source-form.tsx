import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { OTHERS_CODE } from '../../../../shared/constants';
import type { SourceDto } from '../../../../shared/dto/signalements';
import { sourceSchema } from '../../../../shared/schemas/signalements';
import { Field } from '../../../components/ui/field';
import { MultiSelect } from '../../../components/ui/multi-select';
import { toOptions, useCanals } from '../use-references';
import {
  CheckedInput,
  personDialog,
  PersonForm,
  type PersonDialogProps,
  type PersonFormProps,
} from './person-dialog';

export type SourceValues = z.output<typeof sourceSchema>;
type Input = z.input<typeof sourceSchema>;

export type SourceDialogProps = PersonDialogProps<SourceDto, SourceValues>;

export const SourceDialog = personDialog<SourceDto, SourceValues>({
  addTitle: 'Ajouter une source',
  editTitle: 'Modifier la source',
  form: SourceForm,
  testId: 'source-dialog',
});

function SourceForm({ initial, pending, onClose, onSubmit }: PersonFormProps<SourceDto, SourceValues>) {
  const canals = useCanals();
  const form = useForm<Input, unknown, SourceValues>({
    resolver: zodResolver(sourceSchema),
    defaultValues: {
      nomPrenom: initial?.nomPrenom ?? '',
      contact: initial?.contact ?? '',
      description: initial?.description ?? '',
      autreCanal: initial?.autreCanal ?? '',
      canaux: initial?.canaux.map((c) => c.code) ?? [],
    },
  });
  const { errors } = form.formState;
  const canaux = useWatch({ control: form.control, name: 'canaux' }) ?? [];
  const other = canaux.includes(OTHERS_CODE);

  return (
    <PersonForm
      label="Source"
      pending={pending}
      onCancel={onClose}
      onSubmit={form.handleSubmit((values) =>
        onSubmit({ ...values, autreCanal: other ? values.autreCanal : null }),
      )}
    >
      <Field htmlFor="source-nom" label="Nom et prénom (facultatif)">
        <input id="source-nom" autoFocus className="input w-full" {...form.register('nomPrenom')} />
      </Field>
      <Field htmlFor="source-contact" label="Contact (facultatif)">
        <input id="source-contact" className="input w-full" {...form.register('contact')} />
      </Field>
      <Field htmlFor="source-canaux" label="Canaux (facultatif)">
        <Controller
          control={form.control}
          name="canaux"
          render={({ field }) => (
            <MultiSelect
              id="source-canaux"
              label="Canaux de la source"
              placeholder="Sélectionner des canaux"
              options={toOptions(canals.data)}
              loading={canals.isPending}
              value={field.value ?? []}
              onChange={field.onChange}
              data-testid="source-canaux"
            />
          )}
        />
      </Field>
      {other && (
        <CheckedInput
          id="source-autre-canal"
          label="Précisez le canal (Autre)"
          error={errors.autreCanal}
          registration={form.register('autreCanal')}
        />
      )}
      <Field htmlFor="source-description" label="Description (facultatif)">
        <textarea
          id="source-description"
          rows={3}
          className="textarea w-full"
          {...form.register('description')}
        />
      </Field>
    </PersonForm>
  );
}
