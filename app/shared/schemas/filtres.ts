// Saved filters « Mes filtres » (docs/decisions/0046-saved-filters.md): the same schemas for the save and
// manage dialogs and for tRPC, with the same French messages. The query string itself is checked against the
// list's filters by the server (server/domains/filtres/requete.ts), which reads it as the list does.
import { z } from 'zod';
import { FILTRE_NOM_MAX, FILTRE_REQUETE_MAX } from '../constants';
import './zod-french';

export const FILTRE_MESSAGES = {
  nomRequis: 'Veuillez donner un nom au filtre.',
  nomTropLong: `Le nom du filtre ne doit pas dépasser ${FILTRE_NOM_MAX} caractères.`,
  requete: 'Les filtres de la liste sont invalides.',
  requeteTropLongue: 'Les filtres de la liste sont trop longs pour être enregistrés.',
  partage: 'Veuillez indiquer vrai ou faux pour le partage.',
  id: 'Filtre introuvable.',
} as const;

export const filtreNomSchema = z
  .string({ error: FILTRE_MESSAGES.nomRequis })
  .trim()
  .min(1, { message: FILTRE_MESSAGES.nomRequis })
  .max(FILTRE_NOM_MAX, { message: FILTRE_MESSAGES.nomTropLong });

/** An id of the table: a positive integer that both engines' integer column holds (PostgreSQL's is 32-bit). */
export const filtreIdSchema = z.object({
  id: z
    .number({ error: FILTRE_MESSAGES.id })
    .int({ message: FILTRE_MESSAGES.id })
    .positive({ message: FILTRE_MESSAGES.id })
    .max(2_147_483_647, { message: FILTRE_MESSAGES.id }),
});

/** « Enregistrer ce filtre »: the name, the list's query string (without '?'), shared with the team or not. */
export const filtreCreateSchema = z.object({
  nom: filtreNomSchema,
  requete: z
    .string({ error: FILTRE_MESSAGES.requete })
    .max(FILTRE_REQUETE_MAX, { message: FILTRE_MESSAGES.requeteTropLongue }),
  partage: z.boolean({ error: FILTRE_MESSAGES.partage }).default(false),
});
export type FiltreCreateInput = z.input<typeof filtreCreateSchema>;

/** The form of the save dialog: name and switch (the query string is the page's own). */
export const filtreFormSchema = filtreCreateSchema.pick({ nom: true, partage: true });
export type FiltreFormValues = z.input<typeof filtreFormSchema>;

export const filtreRenameSchema = filtreIdSchema.extend({ nom: filtreNomSchema });
export type FiltreRenameInput = z.input<typeof filtreRenameSchema>;
