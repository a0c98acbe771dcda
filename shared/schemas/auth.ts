import { z } from 'zod';
import './zod-french';

/**
 * Login form and `auth.login` input. The messages are shown under the fields as is,
 * so the server and the form must use this very schema.
 */
export const loginInputSchema = z.object({
  email: z
    .string({ error: "L'email est requis." })
    .trim()
    .min(1, "L'email est requis.")
    // pipe: an empty e-mail reports only "requis", not also "format invalide".
    .pipe(z.email("Format d'email invalide.")),
  password: z.string({ error: 'Le mot de passe est requis.' }).min(1, 'Le mot de passe est requis.'),
});

export type LoginInput = z.infer<typeof loginInputSchema>;
