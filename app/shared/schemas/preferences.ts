// A staff member's own preferences (docs/decisions/0036-daily-reminders.md): the daily reminder e-mail on or
// off. The same schema for the Configuration switch, tRPC and REST (merge-patch), with the same French message.
import { z } from 'zod';
import './zod-french';

export const PREFERENCES_MESSAGES = {
  recapitulatifQuotidien: 'Veuillez indiquer vrai ou faux pour le récapitulatif quotidien.',
} as const;

/** REST: PATCH /api/utilisateur/preferences; tRPC: preferences.update. */
export const preferencesPatchSchema = z.object({
  recapitulatifQuotidien: z.boolean({ error: PREFERENCES_MESSAGES.recapitulatifQuotidien }),
});
export type PreferencesPatch = z.output<typeof preferencesPatchSchema>;
