import { isTimeZone, setBusinessTimeZone } from '#shared/calendar';

/**
 * Takes the business time zone the server announced (who-am-i, the public summary) so that every date
 * formatted afterwards reads in it (docs/decisions/0018-business-calendar.md). Called while rendering,
 * before the dates below it render; idempotent. An unknown zone (an older browser's time-zone data) keeps
 * the default rather than breaking the screen.
 */
export function adoptBusinessTimeZone(zone: string): void {
  if (isTimeZone(zone)) setBusinessTimeZone(zone);
}
