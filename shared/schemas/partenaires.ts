// Input schemas of the partners (spec §5 "Partner form", §7 Partners), shared by the server and the form.
import { z } from 'zod';
import './zod-french';
import { DESIGNATION_MIN_LENGTH, OPTION_LIST_SIZE, PAGE_SIZE_PARTENAIRES, PHONE_DIGITS, PHONE_PREFIX } from '../constants';

export const PARTENAIRE_MESSAGES = {
  designationMin: 'La désignation doit contenir au moins 2 caractères.',
  emailInvalid: "L'adresse email n'est pas valide.",
  phoneDigits: 'Le numéro de téléphone doit contenir exactement 9 chiffres.',
} as const;

const PHONE = new RegExp(`^(?:\\${PHONE_PREFIX})?(\\d{${PHONE_DIGITS}})$`);

/**
 * The phone number: empty (none), nine digits, or the same behind '+261'; spaces, dots and dashes are
 * ignored. Stored as '+261XXXXXXXXX'.
 */
export const phoneNumberField = z
  .string({ error: PARTENAIRE_MESSAGES.phoneDigits })
  .nullish()
  .transform((value, ctx) => {
    const compact = (value ?? '').replace(/[\s.-]/g, '');
    if (compact === '') return null;
    const digits = PHONE.exec(compact)?.[1];
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
 * What the phone input keeps of a keystroke or a paste: digits only, at most nine. A pasted number
 * written with its '+261' prefix loses the prefix rather than its last digits.
 */
export function sanitizePhoneInput(raw: string): string {
  const digits = raw.replace(/\D/g, '');
  const prefix = PHONE_PREFIX.replace(/\D/g, '');
  const local = raw.trim().startsWith(PHONE_PREFIX) && digits.length > PHONE_DIGITS ? digits.slice(prefix.length) : digits;
  return local.slice(0, PHONE_DIGITS);
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

export const partenaireCodeSchema = z.string().trim().min(1, 'Code manquant.').max(64);

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
