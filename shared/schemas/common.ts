import { z } from 'zod';
import { MIN_SIGNALEMENT_DATE } from '../constants';

/**
 * A reference to another resource, as the REST facade writes it ('/api/partenaires/IVY') or as the
 * tRPC client sends it ('IVY'); both parse to the bare code.
 */
export const ref = (collection: string, requiredMessage = 'Valeur obligatoire.') =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { message: requiredMessage })
    .transform((value) => {
      const prefix = `/api/${collection}/`;
      return value.startsWith(prefix) ? decodeURIComponent(value.slice(prefix.length)) : value;
    })
    .pipe(z.string().min(1, { message: requiredMessage }).max(64, { message: 'Référence invalide.' }));

/** Optional text: trimmed, blank becomes null. */
export const optionalText = (max = 10_000) =>
  z
    .string()
    .trim()
    .max(max, { message: `Au plus ${max} caractères.` })
    .nullish()
    .transform((v) => (v ? v : null));

/** A list of free-text entries (actions provisoires, preuves): blank entries are dropped. */
export const textList = z
  .array(z.string().max(2000, { message: 'Au plus 2000 caractères par entrée.' }))
  .max(200, { message: 'Au plus 200 entrées.' })
  .transform((items) => items.map((s) => s.trim()).filter((s) => s !== ''));

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** yyyy-MM-dd or a full ISO date-time, parsed to a Date (a bare date is midnight UTC). */
export const isoDate = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { message: requiredMessage })
    .refine((v) => !Number.isNaN(Date.parse(ISO_DATE.test(v) ? `${v}T00:00:00Z` : v)), {
      message: 'Date invalide.',
    })
    .transform((v) => new Date(ISO_DATE.test(v) ? `${v}T00:00:00Z` : v));

export const MIN_DATE = new Date(`${MIN_SIGNALEMENT_DATE}T00:00:00Z`);
export const DATE_IN_FUTURE = 'La date ne peut pas être dans le futur.';
export const DATE_TOO_OLD = 'La date ne peut pas être antérieure au 01/01/1900.';

/** A report date: not in the future (today allowed, in any time zone), not before 1900-01-01. */
export const pastDate = (requiredMessage: string) =>
  isoDate(requiredMessage)
    .refine((d) => d.getTime() >= MIN_DATE.getTime(), { message: DATE_TOO_OLD })
    // 14 h of tolerance: the user's "today" may already be tomorrow in UTC (Madagascar is UTC+3).
    .refine((d) => d.getTime() <= Date.now() + 14 * 3600 * 1000, { message: DATE_IN_FUTURE });
