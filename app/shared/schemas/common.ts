import { z } from 'zod';
import { parseDay, type GivenDate } from '../calendar';
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
const HOUR_MS = 3_600_000;
/** The widest offsets of a zone (UTC−12 to UTC+14): what a bare day can become once a zone resolves it. */
const WIDEST_OFFSET_MS = 14 * HOUR_MS;
// A bare day stays a day: only the business calendar's zone turns it into an instant, and the schema does
// not know it (the server's context does; docs/decisions/0018-business-calendar.md).
const parseDate = (v: string): GivenDate | null => {
  if (ISO_DATE.test(v)) return parseDay(v) ? { day: v } : null;
  const at = new Date(v);
  return Number.isNaN(at.getTime()) ? null : at;
};
// Years 1 to 9999, in every zone for a bare day (its first instant is at most 14 h away from its UTC
// midnight).
const inYearRange = (d: GivenDate | null) => {
  if (d === null) return false;
  if (!(d instanceof Date)) return d.day >= '0001-01-02' && d.day <= '9999-12-30';
  const year = d.getUTCFullYear();
  return year >= 1 && year <= 9999;
};

/**
 * yyyy-MM-dd or a full ISO date-time: a full date-time parses to a Date, a bare date to `{ day }`, which
 * the service resolves in the business calendar (BusinessCalendar.instant: its first instant in the zone,
 * Madagascar by default). Years 1 to 9999
 * only: JavaScript dates reach ±275760, PostgreSQL refuses year 0 and anything written with more than
 * four digits, and SQLite would store it; one range keeps the engines alike.
 */
export const isoDate = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { message: requiredMessage })
    .max(64, { message: 'Date invalide.' })
    .refine((v) => inYearRange(parseDate(v)), { message: 'Date invalide.' })
    .transform((v) => parseDate(v)!);

export const DATE_IN_FUTURE = 'La date ne peut pas être dans le futur.';
export const DATE_TOO_OLD = 'La date ne peut pas être antérieure au 01/01/1900.';

// Checked without the zone: a bare day against the day itself, an instant against the widest offsets. The
// service checks an instant against the business day it falls on (signalements/service.ts).
const notTooOld = (d: GivenDate) =>
  d instanceof Date
    ? d.getTime() >= Date.parse(MIN_SIGNALEMENT_DATE) - WIDEST_OFFSET_MS
    : d.day >= MIN_SIGNALEMENT_DATE;
// Today allowed in any time zone: the user's "today" may already be tomorrow in UTC (Madagascar is UTC+3),
// and UTC+14 is the furthest ahead.
const notInFuture = (d: GivenDate) => {
  const latest = Date.now() + WIDEST_OFFSET_MS;
  return d instanceof Date ? d.getTime() <= latest : Date.parse(d.day) <= latest;
};

/** A report date: not in the future (today allowed, in any time zone), not before 1900-01-01. */
export const pastDate = (requiredMessage: string) =>
  isoDate(requiredMessage)
    .refine(notTooOld, { message: DATE_TOO_OLD })
    .refine(notInFuture, { message: DATE_IN_FUTURE });
