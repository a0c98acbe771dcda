// A staff member's own preferences (docs/decisions/0036-daily-reminders.md), as both doors answer them.
export interface PreferencesDto {
  '@id': '/api/utilisateur/preferences';
  '@type': 'Preferences';
  /** The daily reminder e-mail (« Recevoir le récapitulatif quotidien »). */
  recapitulatifQuotidien: boolean;
  /** The hour it is sent (DIGEST_HOUR, 0–23), in the business time zone. */
  heureRecapitulatif: number;
  /** The business time zone's label: 'heure de Madagascar'. */
  fuseau: string;
}
