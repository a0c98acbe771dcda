import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { AuteurDto } from '../../../../shared/dto/signalements';
import { auteurSchema } from '../../../../shared/schemas/signalements';
import { Dialog } from '../../../components/ui/dialog';
import { errorProps, Field } from '../../../components/ui/field';
import { FormButtons } from './form-buttons';

export type AuteurValues = z.output<typeof auteurSchema>;
type Input = z.input<typeof auteurSchema>;

export interface AuteurDialogProps {
  /** null: closed; 'new': adding; an author: editing it. */
  target: AuteurDto | 'new' | null;
  pending: boolean;
  onClose: () => void;
  onSubmit: (values: AuteurValues) => void;
}

export function AuteurDialog({ target, pending, onClose, onSubmit }: AuteurDialogProps) {
  return (
    <Dialog
      open={target !== null}
      onClose={onClose}
      dismissible={!pending}
      title={target === 'new' ? 'Ajouter un auteur présumé' : "Modifier l'auteur présumé"}
      data-testid="auteur-dialog"
    >
      {target !== null && (
        <AuteurForm
          initial={target === 'new' ? null : target}
          pending={pending}
          onClose={onClose}
          onSubmit={onSubmit}
        />
      )}
    </Dialog>
  );
}

function AuteurForm({
  initial,
  pending,
  onClose,
  onSubmit,
}: {
  initial: AuteurDto | null;
  pending: boolean;
  onClose: () => void;
  onSubmit: (values: AuteurValues) => void;
}) {
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
    <form
      onSubmit={form.handleSubmit(onSubmit)}
      noValidate
      className="flex flex-col gap-3"
      aria-label="Auteur présumé"
    >
      <Field htmlFor="auteur-nom" label="Nom et prénom" error={errors.nomPrenom?.message}>
        <input
          id="auteur-nom"
          autoFocus
          className={`input w-full ${errors.nomPrenom ? 'input-error' : ''}`}
          {...errorProps('auteur-nom', errors.nomPrenom?.message)}
          {...form.register('nomPrenom')}
        />
      </Field>
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
      <FormButtons pending={pending} onCancel={onClose} />
    </form>
  );
}
