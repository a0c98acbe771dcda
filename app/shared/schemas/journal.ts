// The access log ('Journal des accès', decision 0015): filters shared by the administrator screen, the
// tRPC list, and the xlsx export's query string.
import { z } from 'zod';
import { ACCESS_LOG_KINDS, PAGE_SIZE_ACCESS_LOG } from '../constants';

export const JOURNAL_MESSAGES = {
  dayInvalid: 'Date invalide.',
  periodInverted: 'La date de fin doit être postérieure ou égale à la date de début.',
  kindInvalid: "Type d'accès inconnu.",
} as const;

/** A calendar day 'yyyy-MM-dd', a day in Madagascar time (UTC+3, no daylight saving). */
const day = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, JOURNAL_MESSAGES.dayInvalid)
  .refine(
    (v) =>
      !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    {
      message: JOURNAL_MESSAGES.dayInvalid,
    },
  );

/** Filters of the log: every one optional; an empty string means "no filter" (the screen's cleared field). */
export const journalFiltersSchema = z
  .object({
    /** A user's code (USR…). */
    utilisateur: z.string().trim().max(64).optional(),
    /** A report's code (exact). */
    signalement: z.string().trim().max(64).optional(),
    kind: z.enum(ACCESS_LOG_KINDS, { error: JOURNAL_MESSAGES.kindInvalid }).optional(),
    /** First day, included. */
    du: day.optional(),
    /** Last day, included. */
    au: day.optional(),
  })
  .refine((f) => !f.du || !f.au || f.du <= f.au, { message: JOURNAL_MESSAGES.periodInverted, path: ['au'] });
export type JournalFilters = z.infer<typeof journalFiltersSchema>;

export const journalListInputSchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  filters: journalFiltersSchema.default({}),
});
export type JournalListInput = z.infer<typeof journalListInputSchema>;
export const JOURNAL_PAGE_SIZE = PAGE_SIZE_ACCESS_LOG;

export const alertIdSchema = z.object({ id: z.coerce.number().int().min(1) });
