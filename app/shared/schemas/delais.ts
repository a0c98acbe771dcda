// Handling deadlines per niveau (docs/decisions/0032-deadlines.md): the inputs of the Configuration
// screen's « Délais de traitement » form, of tRPC and of REST, with the same French messages.
import { z } from 'zod';
import './zod-french';
import { codeSchema } from './common';

export const DELAI_MIN_JOURS = 1;
export const DELAI_MAX_JOURS = 365;

export const DELAI_MESSAGES = {
  jours: `Le délai doit être un nombre entier de jours ouvrés, de ${DELAI_MIN_JOURS} à ${DELAI_MAX_JOURS}, ou vide pour aucun délai.`,
  niveau: 'Veuillez choisir un niveau.',
} as const;

/**
 * A deadline in business days: a whole number from 1 to 365 (a number, or its digits as the form's field
 * gives them), or empty (null, '') for « aucun délai ».
 */
export const joursField = z
  .union([z.number(), z.string(), z.null()], { error: DELAI_MESSAGES.jours })
  .transform(toJours);

function toJours(value: number | string | null, ctx: z.RefinementCtx): number | null {
  if (value === null) return null;
  const text = typeof value === 'string' ? value.trim() : null;
  if (text === '') return null;
  const n = text === null ? value : /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < DELAI_MIN_JOURS || n > DELAI_MAX_JOURS) {
    ctx.addIssue({ code: 'custom', message: DELAI_MESSAGES.jours });
    return z.NEVER;
  }
  return n;
}

/** One niveau's deadline (REST: PATCH /api/delais_traitement/{niveau}, merge-patch). */
export const delaiPatchSchema = z.object({ jours: joursField });

/** Several niveaux at once (the form, tRPC `delais.update`): one transaction. */
export const delaisUpdateSchema = z.object({
  delais: z
    .array(z.object({ niveau: codeSchema, jours: joursField }))
    .min(1, { message: DELAI_MESSAGES.niveau })
    .max(20),
});
export type DelaisUpdateInput = z.input<typeof delaisUpdateSchema>;
export type DelaisUpdate = z.output<typeof delaisUpdateSchema>;
/** The form's schema: each niveau's field as typed (digits, or empty for none), the same rules. */
export const delaisFormSchema = z.object({
  delais: z.array(
    z.object({ niveau: codeSchema, jours: z.string({ error: DELAI_MESSAGES.jours }).transform(toJours) }),
  ),
});
export type DelaisFormValues = z.input<typeof delaisFormSchema>;
