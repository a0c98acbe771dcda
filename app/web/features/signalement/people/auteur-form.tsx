import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import type { AuteurDto } from '#shared/dto/signalements';
import { auteurSchema } from '#shared/schemas/signalements';
import { personDialog, personFields, type PersonDialogProps } from './person-dialog';

export type AuteurValues = z.output<typeof auteurSchema>;
type Input = z.input<typeof auteurSchema>;

export type AuteurDialogProps = PersonDialogProps<AuteurDto, AuteurValues>;

const field = personFields<AuteurDto, Input, AuteurValues>();

export const AuteurDialog = personDialog({
  label: 'Auteur présumé',
  addTitle: 'Ajouter un auteur présumé',
  editTitle: "Modifier l'auteur présumé",
  testId: 'auteur-dialog',
  resolver: zodResolver(auteurSchema),
  fields: [
    field.text('nomPrenom', {
      id: 'auteur-nom',
      label: 'Nom et prénom',
      from: (a) => a.nomPrenom,
      autoFocus: true,
    }),
    field.text('fonction', {
      id: 'auteur-fonction',
      label: 'Fonction (facultatif)',
      from: (a) => a.fonction,
    }),
    field.textarea('description', {
      id: 'auteur-description',
      label: 'Description (facultatif)',
      from: (a) => a.description,
    }),
  ],
});
