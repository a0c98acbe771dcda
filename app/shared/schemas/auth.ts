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

/** A code of the authenticator app (TOTP, 6 digits); spaces typed by the user are ignored. */
export const totpCodeSchema = z
  .string({ error: 'Le code est requis.' })
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(
    z
      .string()
      .min(1, 'Le code est requis.')
      .regex(/^\d{6}$/, 'Le code doit comporter 6 chiffres.'),
  );

export const twoFactorVerifyInputSchema = z.object({ code: totpCodeSchema });

export const recoveryCodeInputSchema = z.object({
  code: z
    .string({ error: 'Le code de secours est requis.' })
    .trim()
    .min(1, 'Le code de secours est requis.')
    .max(64, 'Code de secours incorrect ou déjà utilisé.'),
});

/**
 * Enrolment: the current password again and a first code of the key the server proposed and keeps.
 * No key: the client never chooses it (a key sent along is ignored).
 */
export const twoFactorEnrolInputSchema = z.object({
  password: z.string({ error: 'Le mot de passe est requis.' }).min(1, 'Le mot de passe est requis.'),
  code: totpCodeSchema,
});

/** What the session still needs before the application opens: nothing, its code, or an enrolment. */
export type TwoFactorStep = 'verify' | 'enrol' | null;
