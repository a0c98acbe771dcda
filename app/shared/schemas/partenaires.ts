// Input schemas of the partners (spec §5 "Partner form", §7 Partners), shared by the server and the form.
import { z } from 'zod';
import './zod-french';
import { codeSchema } from './common';
import {
  DESIGNATION_MIN_LENGTH,
  OPTION_LIST_SIZE,
  PAGE_SIZE_PARTENAIRES,
  PHONE_DIGITS,
  PHONE_PREFIX,
} from '../constants';

export const PARTENAIRE_MESSAGES = {
  designationMin: 'La désignation doit contenir au moins 2 caractères.',
  emailInvalid: "L'adresse email n'est pas valide.",
  phoneDigits: 'Le numéro de téléphone doit contenir exactement 9 chiffres.',
} as const;

const PREFIX_DIGITS = PHONE_PREFIX.replace(/\D/g, '');
/** Separators people write in a number: spaces, dots, dashes, parentheses. */
const SEPARATORS = /[\s.()-]/g;

/**
 * The nine digits of a number written with or without its '+261' prefix or a leading 0 ('+261 34 12
 * 345 67', '034 12 345 67', '(34) 12-345-67'), or null when it is not exactly such a number: nothing is
 * ever truncated or guessed.
 */
export function phoneDigits(raw: string): string | null {
  const compact = raw.replace(SEPARATORS, '');
  const match = new RegExp(`^(?:\\+${PREFIX_DIGITS}|0)?(\\d{${PHONE_DIGITS}})$`).exec(compact);
  return match?.[1] ?? null;
}

/** The phone number: empty (none) or a number phoneDigits accepts. Stored as '+261XXXXXXXXX'. */
export const phoneNumberField = z
  .string({ error: PARTENAIRE_MESSAGES.phoneDigits })
  .nullish()
  .transform((value, ctx) => {
    if ((value ?? '').replace(SEPARATORS, '') === '') return null;
    const digits = phoneDigits(value!);
    if (!digits) {
      ctx.addIssue({ code: 'custom', message: PARTENAIRE_MESSAGES.phoneDigits });
      return z.NEVER;
    }
    return `${PHONE_PREFIX}${digits}`;
  });

/** The nine digits the form shows behind the fixed prefix. */
export function phoneDigitsOf(stored: string | null | undefined): string {
  if (!stored) return '';
  return stored.startsWith(PHONE_PREFIX) ? stored.slice(PHONE_PREFIX.length) : stored.replace(/\D/g, '');
}

/**
 * What the phone input shows of a keystroke or a paste. A whole number, prefixed or not, becomes its
 * nine digits. Anything else keeps all its digits, without its '+261' prefix: a number too short or
 * too long stays so and the form refuses it with the spec's message, rather than the input cutting
 * it to nine digits and accepting a wrong number.
 */
export function sanitizePhoneInput(raw: string): string {
  const whole = phoneDigits(raw);
  if (whole) return whole;
  const trimmed = raw.trim();
  const digits = trimmed.replace(/\D/g, '');
  return trimmed.startsWith(PHONE_PREFIX) ? digits.slice(PREFIX_DIGITS.length) : digits;
}

/** POST /api/partenaires, PUT /api/partenaires/{code}, `partenaires.create`, and the form. */
export const partenaireInputSchema = z.object({
  designation: z
    .string({ error: PARTENAIRE_MESSAGES.designationMin })
    .trim()
    .min(DESIGNATION_MIN_LENGTH, PARTENAIRE_MESSAGES.designationMin)
    .max(200, 'Au plus 200 caractères.')
    .transform((v) => v.replace(/\s+/g, ' ')),
  email: z
    .string({ error: PARTENAIRE_MESSAGES.emailInvalid })
    .trim()
    .pipe(z.email(PARTENAIRE_MESSAGES.emailInvalid).max(254, PARTENAIRE_MESSAGES.emailInvalid)),
  phoneNumber: phoneNumberField,
});
export type PartenaireInput = z.output<typeof partenaireInputSchema>;
export type PartenaireFormValues = z.input<typeof partenaireInputSchema>;

export const partenaireCodeSchema = codeSchema;

export const partenaireUpdateInputSchema = partenaireInputSchema.extend({ code: partenaireCodeSchema });

/** GET /api/partenaires and `partenaires.list`: page size 10 on the screen, 500 for pickers. */
export const listPartenairesInputSchema = z.object({
  page: z.coerce.number().int().min(1, 'La page doit être un entier positif.').default(1),
  itemsPerPage: z.coerce
    .number()
    .int()
    .min(1, "Le nombre d'éléments par page doit être un entier positif.")
    .max(OPTION_LIST_SIZE, `Au plus ${OPTION_LIST_SIZE} éléments par page.`)
    .default(PAGE_SIZE_PARTENAIRES),
  search: z.string().trim().max(200).optional(),
});
export type ListPartenairesInput = z.output<typeof listPartenairesInputSchema>;
