import { z } from 'zod';
import { PAGE_SIZE_UTILISATEURS } from '../constants';

export const listUtilisateursInputSchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  itemsPerPage: z.coerce.number().int().min(1).max(300).default(PAGE_SIZE_UTILISATEURS),
  nomPrenom: z.string().trim().max(200).optional(),
});
export type ListUtilisateursInput = z.infer<typeof listUtilisateursInputSchema>;
