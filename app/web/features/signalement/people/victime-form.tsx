import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import type { VictimeDto } from '#shared/dto/signalements';
import { victimeSchema } from '#shared/schemas/signalements';
import { personDialog, personFields, type PersonDialogProps } from './person-dialog';

export type VictimeValues = z.output<typeof victimeSchema>;
type Input = z.input<typeof victimeSchema>;

export type VictimeDialogProps = PersonDialogProps<VictimeDto, VictimeValues>;

const field = personFields<VictimeDto, Input, VictimeValues>();

export const VictimeDialog = personDialog({
  label: 'Victime',
  addTitle: 'Ajouter une victime',
  editTitle: 'Modifier la victime',
  testId: 'victime-dialog',
  resolver: zodResolver(victimeSchema),
  fields: [
    field.text('nomPrenom', {
      id: 'victime-nom',
      label: 'Nom et prénom',
      from: (v) => v.nomPrenom,
      autoFocus: true,
    }),
    field.text('fonction', {
      id: 'victime-fonction',
      label: 'Fonction (facultatif)',
      from: (v) => v.fonction,
    }),
    field.text('contact', { id: 'victime-contact', label: 'Contact (facultatif)', from: (v) => v.contact }),
  ],
});
