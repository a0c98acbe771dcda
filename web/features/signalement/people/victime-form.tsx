import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { VictimeDto } from '../../../../shared/dto/signalements';
import { victimeSchema } from '../../../../shared/schemas/signalements';
import { Dialog } from '../../../components/ui/dialog';
import { errorProps, Field } from '../../../components/ui/field';
import { FormButtons } from './form-buttons';

export type VictimeValues = z.output<typeof victimeSchema>;
type Input = z.input<typeof victimeSchema>;

export interface VictimeDialogProps {
  target: VictimeDto | 'new' | null;
  pending: boolean;
  onClose: () => void;
  onSubmit: (values: VictimeValues) => void;
}

export function VictimeDialog({ target, pending, onClose, onSubmit }: VictimeDialogProps) {
  return (
    <Dialog
      open={target !== null}
      onClose={onClose}
      dismissible={!pending}
      title={target === 'new' ? 'Ajouter une victime' : 'Modifier la victime'}
      data-testid="victime-dialog"
    >
      {target !== null && (
        <VictimeForm
          initial={target === 'new' ? null : target}
          pending={pending}
          onClose={onClose}
          onSubmit={onSubmit}
        />
      )}
    </Dialog>
  );
}

function VictimeForm({
  initial,
  pending,
  onClose,
  onSubmit,
}: {
  initial: VictimeDto | null;
  pending: boolean;
  onClose: () => void;
  onSubmit: (values: VictimeValues) => void;
}) {
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
    <form
      onSubmit={form.handleSubmit(onSubmit)}
      noValidate
      className="flex flex-col gap-3"
      aria-label="Victime"
    >
      <Field htmlFor="victime-nom" label="Nom et prénom" error={errors.nomPrenom?.message}>
        <input
          id="victime-nom"
          autoFocus
          className={`input w-full ${errors.nomPrenom ? 'input-error' : ''}`}
          {...errorProps('victime-nom', errors.nomPrenom?.message)}
          {...form.register('nomPrenom')}
        />
      </Field>
      <Field htmlFor="victime-fonction" label="Fonction (facultatif)">
        <input id="victime-fonction" className="input w-full" {...form.register('fonction')} />
      </Field>
      <Field htmlFor="victime-contact" label="Contact (facultatif)">
        <input id="victime-contact" className="input w-full" {...form.register('contact')} />
      </Field>
      <FormButtons pending={pending} onCancel={onClose} />
    </form>
  );
}
