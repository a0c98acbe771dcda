// Partner API tokens (docs/decisions/0038-partner-api-tokens.md): the inputs of the « Accès API » screen and of
// its tRPC procedures, with the same French messages.
import { z } from 'zod';
import './zod-french';
import { codeSchema } from './common';
import { API_TOKEN_MAX_DAYS, API_TOKEN_SCOPES } from '../constants';

export const JETON_MESSAGES = {
  partenaire: 'Veuillez choisir un partenaire.',
  nom: 'Le nom du jeton doit contenir de 2 à 80 caractères.',
  scopes: 'Choisissez au moins une autorisation.',
  duree: `La durée de validité doit être un nombre entier de jours, de 1 à ${API_TOKEN_MAX_DAYS}.`,
} as const;

/** The lifetimes the form proposes, in days. */
export const JETON_DUREES = [30, 90, 180, 365] as const;

const days = z
  .number({ error: JETON_MESSAGES.duree })
  .int(JETON_MESSAGES.duree)
  .min(1, JETON_MESSAGES.duree)
  .max(API_TOKEN_MAX_DAYS, JETON_MESSAGES.duree);
/** A number of days, or its digits (as a select gives them). */
const dureeField = z
  .union([z.number(), z.string().regex(/^\d{1,4}$/, JETON_MESSAGES.duree)], { error: JETON_MESSAGES.duree })
  .transform((value) => Number(value))
  .pipe(days);

export const jetonCreateSchema = z.object({
  partenaire: z.string({ error: JETON_MESSAGES.partenaire }).trim().min(1, JETON_MESSAGES.partenaire).max(64),
  nom: z
    .string({ error: JETON_MESSAGES.nom })
    .trim()
    .min(2, JETON_MESSAGES.nom)
    .max(80, JETON_MESSAGES.nom)
    // A control character in a name shown on screens and in the access log is never meant.
    .refine((nom) => ![...nom].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f'), JETON_MESSAGES.nom),
  scopes: z
    .array(z.enum(API_TOKEN_SCOPES, { error: JETON_MESSAGES.scopes }), { error: JETON_MESSAGES.scopes })
    .min(1, JETON_MESSAGES.scopes)
    .max(API_TOKEN_SCOPES.length)
    .transform((scopes) => [...new Set(scopes)].sort()),
  dureeJours: dureeField,
});
export type JetonCreateInput = z.input<typeof jetonCreateSchema>;
export type JetonCreate = z.output<typeof jetonCreateSchema>;
/** The form's schema: the lifetime as its select gives it (digits), the same rules. */
export const jetonFormSchema = jetonCreateSchema.extend({
  dureeJours: z
    .string({ error: JETON_MESSAGES.duree })
    .regex(/^\d{1,4}$/, JETON_MESSAGES.duree)
    .transform((value) => Number(value))
    .pipe(days),
});
export type JetonFormValues = z.input<typeof jetonFormSchema>;

export const jetonListSchema = z.object({ partenaire: codeSchema.optional() });
export const jetonRevokeSchema = z.object({ id: codeSchema });
