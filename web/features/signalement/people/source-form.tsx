import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { OTHERS_CODE } from '../../../../shared/constants';
import type { SourceDto } from '../../../../shared/dto/signalements';
import { sourceSchema } from '../../../../shared/schemas/signalements';
import { Dialog } from '../../../components/ui/dialog';
import { errorProps, Field } from '../../../components/ui/field';
import { MultiSelect } from '../../../components/ui/multi-select';
import { toOptions, useCanals } from '../use-references';
import { FormButtons } from './form-buttons';

export type SourceValues = z.output<typeof sourceSchema>;
type Input = z.input<typeof sourceSchema>;

export interface SourceDialogProps {
  target: SourceDto | 'new' | null;
  pending: boolean;
  onClose: () => void;
  onSubmit: (values: SourceValues) => void;
}

export function SourceDialog({ target, pending, onClose, onSubmit }: SourceDialogProps) {
  return (
    <Dialog
      open={target !== null}
      onClose={onClose}
      dismissible={!pending}
      title={target === 'new' ? 'Ajouter une source' : 'Modifier la source'}
      data-testid="source-dialog"
    >
      {target !== null && (
        <SourceForm
          initial={target === 'new' ? null : target}
          pending={pending}
          onClose={onClose}
          onSubmit={onSubmit}
        />
      )}
    </Dialog>
  );
}

function SourceForm({
  initial,
  pending,
  onClose,
  onSubmit,
}: {
  initial: SourceDto | null;
  pending: boolean;
  onClose: () => void;
  onSubmit: (values: SourceValues) => void;
}) {
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
    <form
      onSubmit={form.handleSubmit((values) =>
        onSubmit({ ...values, autreCanal: other ? values.autreCanal : null }),
      )}
      noValidate
      className="flex flex-col gap-3"
      aria-label="Source"
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
        <Field
          htmlFor="source-autre-canal"
          label="Précisez le canal (Autre)"
          error={errors.autreCanal?.message}
        >
          <input
            id="source-autre-canal"
            className={`input w-full ${errors.autreCanal ? 'input-error' : ''}`}
            {...errorProps('source-autre-canal', errors.autreCanal?.message)}
            {...form.register('autreCanal')}
          />
        </Field>
      )}
      <Field htmlFor="source-description" label="Description (facultatif)">
        <textarea
          id="source-description"
          rows={3}
          className="textarea w-full"
          {...form.register('description')}
        />
      </Field>
      <FormButtons pending={pending} onCancel={onClose} />
    </form>
  );
}
