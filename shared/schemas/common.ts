import { z } from 'zod';
import { businessDayStart, parseDay } from '../calendar';
import { MIN_SIGNALEMENT_DATE } from '../constants';
import './zod-french';

const INVALID_REF = 'Référence invalide.';

/** A resource's code, as a path names it (/api/partenaires/{code}) or a tRPC input carries it. */
export const codeSchema = z.string().trim().min(1, 'Code manquant.').max(64);
/** The `:code` path parameter of the REST facade's routes. */
export const codeParamsSchema = z.object({ code: codeSchema });
// A code never holds control characters; '%00' in an IRI would otherwise decode to a NUL that
// PostgreSQL refuses (a 500) and SQLite stores.
const hasControlCharacter = (code: string) => [...code].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f');

/**
 * A reference to another resource, as the REST facade writes it ('/api/partenaires/IVY') or as the
 * tRPC client sends it ('IVY'); both parse to the bare code.
 */
export const ref = (collection: string, requiredMessage = 'Valeur obligatoire.') =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { message: requiredMessage })
    .transform((value, ctx) => {
      const prefix = `/api/${collection}/`;
      if (!value.startsWith(prefix)) return value;
      try {
        return decodeURIComponent(value.slice(prefix.length));
      } catch {
        // A malformed escape ('%', '%zz', a truncated UTF-8 sequence) names no resource.
        ctx.addIssue({ code: 'custom', message: INVALID_REF });
        return z.NEVER;
      }
    })
    .pipe(
      z
        .string()
        .min(1, { message: requiredMessage })
        .max(64, { message: INVALID_REF })
        .refine((code) => !hasControlCharacter(code), { message: INVALID_REF }),
    );

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
// A bare day is the first instant of that day in the business calendar (shared/calendar.ts).
const parseDate = (v: string) => {
  if (!ISO_DATE.test(v)) return new Date(v);
  return parseDay(v) ? businessDayStart(v) : new Date(Number.NaN);
};

/**
 * yyyy-MM-dd or a full ISO date-time, parsed to a Date (a bare date is its first instant in the business
 * time zone, Madagascar by default). Years 1 to 9999
 * only: JavaScript dates reach ±275760, PostgreSQL refuses year 0 and anything written with more than
 * four digits, and SQLite would store it; one range keeps the engines alike.
 */
export const isoDate = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { message: requiredMessage })
    .max(64, { message: 'Date invalide.' })
    .refine(
      (v) => {
        const year = parseDate(v).getUTCFullYear();
        return year >= 1 && year <= 9999;
      },
      { message: 'Date invalide.' },
    )
    .transform(parseDate);

/** The first instant of MIN_SIGNALEMENT_DATE in the business calendar. */
export const minDate = () => businessDayStart(MIN_SIGNALEMENT_DATE);
export const DATE_IN_FUTURE = 'La date ne peut pas être dans le futur.';
export const DATE_TOO_OLD = 'La date ne peut pas être antérieure au 01/01/1900.';

/** A report date: not in the future (today allowed, in any time zone), not before 1900-01-01. */
export const pastDate = (requiredMessage: string) =>
  isoDate(requiredMessage)
    .refine((d) => d.getTime() >= minDate().getTime(), { message: DATE_TOO_OLD })
    // 14 h of tolerance: the user's "today" may already be tomorrow in UTC (Madagascar is UTC+3).
    .refine((d) => d.getTime() <= Date.now() + 14 * 3600 * 1000, { message: DATE_IN_FUTURE });
