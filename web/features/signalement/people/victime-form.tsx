import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { VictimeDto } from '../../../../shared/dto/signalements';
import { victimeSchema } from '../../../../shared/schemas/signalements';
import { Field } from '../../../components/ui/field';
import {
  CheckedInput,
  personDialog,
  PersonForm,
  type PersonDialogProps,
  type PersonFormProps,
} from './person-dialog';

export type VictimeValues = z.output<typeof victimeSchema>;
type Input = z.input<typeof victimeSchema>;

export type VictimeDialogProps = PersonDialogProps<VictimeDto, VictimeValues>;

export const VictimeDialog = personDialog<VictimeDto, VictimeValues>({
  addTitle: 'Ajouter une victime',
  editTitle: 'Modifier la victime',
  form: VictimeForm,
  testId: 'victime-dialog',
});

function VictimeForm({ initial, pending, onClose, onSubmit }: PersonFormProps<VictimeDto, VictimeValues>) {
  const form = useForm<Input, unknown, VictimeValues>({
    resolver: zodResolver(victimeSchema),
    defaultValues: {
      nomPrenom: initial?.nomPrenom ?? '',
      fonction: initial?.fonction ?? '',
      contact: initial?.contact ?? '',
    },
  });
  const { errors } = form.formState;
  return (
    <PersonForm label="Victime" pending={pending} onCancel={onClose} onSubmit={form.handleSubmit(onSubmit)}>
      <CheckedInput
        id="victime-nom"
        label="Nom et prénom"
        autoFocus
        error={errors.nomPrenom}
        registration={form.register('nomPrenom')}
      />
      <Field htmlFor="victime-fonction" label="Fonction (facultatif)">
        <input id="victime-fonction" className="input w-full" {...form.register('fonction')} />
      </Field>
      <Field htmlFor="victime-contact" label="Contact (facultatif)">
        <input id="victime-contact" className="input w-full" {...form.register('contact')} />
      </Field>
    </PersonForm>
  );
}
