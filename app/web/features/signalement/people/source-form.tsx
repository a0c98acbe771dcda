import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { OTHERS_CODE } from '#shared/constants';
import type { SourceDto } from '#shared/dto/signalements';
import { sourceSchema } from '#shared/schemas/signalements';
import { toOptions, useCanals } from '../use-references';
import { personDialog, personFields, type PersonDialogProps } from './person-dialog';

export type SourceValues = z.output<typeof sourceSchema>;
type Input = z.input<typeof sourceSchema>;

export type SourceDialogProps = PersonDialogProps<SourceDto, SourceValues>;

const field = personFields<SourceDto, Input, SourceValues>();

function useCanalOptions() {
  const canals = useCanals();
  return { options: toOptions(canals.data), loading: canals.isPending };
}

export const SourceDialog = personDialog({
  label: 'Source',
  addTitle: 'Ajouter une source',
  editTitle: 'Modifier la source',
  testId: 'source-dialog',
  resolver: zodResolver(sourceSchema),
  fields: [
    field.text('nomPrenom', {
      id: 'source-nom',
      label: 'Nom et prénom (facultatif)',
      from: (s) => s.nomPrenom,
      autoFocus: true,
    }),
    field.text('contact', { id: 'source-contact', label: 'Contact (facultatif)', from: (s) => s.contact }),
    field.multiSelect('canaux', {
      id: 'source-canaux',
      label: 'Canaux (facultatif)',
      controlLabel: 'Canaux de la source',
      placeholder: 'Sélectionner des canaux',
      useOptions: useCanalOptions,
      from: (s) => s.canaux.map((c) => c.code),
    }),
    field.text('autreCanal', {
      id: 'source-autre-canal',
      label: 'Précisez le canal (Autre)',
      from: (s) => s.autreCanal,
      visible: (values) => values.canaux?.includes(OTHERS_CODE) ?? false,
    }),
    field.textarea('description', {
      id: 'source-description',
      label: 'Description (facultatif)',
      from: (s) => s.description,
    }),
  ],
  // The OTHERS description is sent only while OTHERS is chosen.
  submitted: (values) => ({
    ...values,
    autreCanal: values.canaux.includes(OTHERS_CODE) ? values.autreCanal : null,
  }),
});
