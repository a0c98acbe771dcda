import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { AuteurDto } from '../../../../shared/dto/signalements';
import { auteurSchema } from '../../../../shared/schemas/signalements';
import { Field } from '../../../components/ui/field';
import {
  CheckedInput,
  personDialog,
  PersonForm,
  type PersonDialogProps,
  type PersonFormProps,
} from './person-dialog';

export type AuteurValues = z.output<typeof auteurSchema>;
type Input = z.input<typeof auteurSchema>;

export type AuteurDialogProps = PersonDialogProps<AuteurDto, AuteurValues>;

export const AuteurDialog = personDialog<AuteurDto, AuteurValues>({
  addTitle: 'Ajouter un auteur présumé',
  editTitle: "Modifier l'auteur présumé",
  form: AuteurForm,
  testId: 'auteur-dialog',
});

function AuteurForm({ initial, pending, onClose, onSubmit }: PersonFormProps<AuteurDto, AuteurValues>) {
  const form = useForm<Input, unknown, AuteurValues>({
    resolver: zodResolver(auteurSchema),
    defaultValues: {
      nomPrenom: initial?.nomPrenom ?? '',
      fonction: initial?.fonction ?? '',
      description: initial?.description ?? '',
    },
  });
  const { errors } = form.formState;
  return (
    <PersonForm
      label="Auteur présumé"
      pending={pending}
      onCancel={onClose}
      onSubmit={form.handleSubmit(onSubmit)}
    >
      <CheckedInput
        id="auteur-nom"
        label="Nom et prénom"
        autoFocus
        error={errors.nomPrenom}
        registration={form.register('nomPrenom')}
      />
      <Field htmlFor="auteur-fonction" label="Fonction (facultatif)">
        <input id="auteur-fonction" className="input w-full" {...form.register('fonction')} />
      </Field>
      <Field htmlFor="auteur-description" label="Description (facultatif)">
        <textarea
          id="auteur-description"
          rows={3}
          className="textarea w-full"
          {...form.register('description')}
        />
      </Field>
    </PersonForm>
  );
}
