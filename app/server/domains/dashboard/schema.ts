// Inputs of the dashboard calls (spec §7): an optional, inclusive range of calendar days on
// signalementAt, days of the business calendar (docs/decisions/0018-business-calendar.md).
import { z } from 'zod';

export const DASHBOARD_MESSAGES = {
  dateStart: 'La date de début est invalide : format attendu aaaa-MM-jj (par exemple 2025-03-31).',
  dateEnd: 'La date de fin est invalide : format attendu aaaa-MM-jj (par exemple 2025-03-31).',
  order: 'La date de début doit être antérieure ou égale à la date de fin.',
  tooLong: 'La période demandée est trop longue pour le graphique journalier (3 660 jours au plus).',
  type: 'Le type de localisation doit valoir Region, District ou Commune.',
  period: 'La période doit valoir day, week, month ou year.',
  dimension: 'Répartition inconnue.',
} as const;

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The calendar date of a 'yyyy-MM-dd' string held as its UTC midnight, or null when it is not a real
 * calendar day. The dashboard holds business days this way; their day number keys signalement_day_counts.
 */
export function parseIsoDay(value: string): Date | null {
  const match = ISO_DAY.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real ? date : null;
}

const isoDay = (message: string) =>
  z.preprocess(
    // An empty query-string value (dateStart=) means no bound, as when the parameter is absent.
    (value) => (value === '' || value === null ? undefined : value),
    z
      .string({ error: message })
      .refine((value) => parseIsoDay(value) !== null, { message })
      .optional(),
  );

const rangeFields = {
  dateStart: isoDay(DASHBOARD_MESSAGES.dateStart),
  dateEnd: isoDay(DASHBOARD_MESSAGES.dateEnd),
};
const ordered = (r: { dateStart?: string; dateEnd?: string }) =>
  !r.dateStart || !r.dateEnd || r.dateStart <= r.dateEnd;

export const dateRangeSchema = z
  .object(rangeFields)
  .refine(ordered, { message: DASHBOARD_MESSAGES.order, path: ['dateEnd'] });
export type DateRangeInput = z.infer<typeof dateRangeSchema>;

export const LOCALISATION_TYPES = ['Region', 'District', 'Commune'] as const;
export type LocalisationType = (typeof LOCALISATION_TYPES)[number];

export const localisationInputSchema = z
  .object({
    ...rangeFields,
    type: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.enum(LOCALISATION_TYPES, { error: DASHBOARD_MESSAGES.type }).default('Region'),
    ),
  })
  .refine(ordered, { message: DASHBOARD_MESSAGES.order, path: ['dateEnd'] });

export const PERIODS = ['day', 'week', 'month', 'year'] as const;
export type Period = (typeof PERIODS)[number];
export const periodInputSchema = z.object({
  period: z.enum(PERIODS, { error: DASHBOARD_MESSAGES.period }).default('month'),
});

export const DIMENSIONS = ['region', 'district', 'commune', 'subject', 'canal', 'project'] as const;
export type Dimension = (typeof DIMENSIONS)[number];
export const distributionInputSchema = periodInputSchema.extend({
  dimension: z.enum(DIMENSIONS, { error: DASHBOARD_MESSAGES.dimension }),
});

/** A half-open instant range [start, end) on signalementAt; an absent bound is open. */
export interface InstantRange {
  start?: Date;
  end?: Date;
}

const DAY_MS = 86_400_000;

/** The inclusive day range of the input as instants: dateEnd's whole day is included. */
export function toInstantRange(input: DateRangeInput | undefined): InstantRange {
  const start = input?.dateStart ? parseIsoDay(input.dateStart)! : undefined;
  const last = input?.dateEnd ? parseIsoDay(input.dateEnd)! : undefined;
  return { start, end: last ? new Date(last.getTime() + DAY_MS) : undefined };
}
