import {
  businessCalendar,
  DEFAULT_BUSINESS_TIME_ZONE,
  isTimeZone,
  type BusinessCalendar,
} from '#shared/calendar';

// One user per tab: the zone the server announced is held here, and passed from here to the shared
// calendar functions (shared/calendar.ts holds none). Madagascar until the server says otherwise.
let calendar = businessCalendar(DEFAULT_BUSINESS_TIME_ZONE);

/**
 * Takes the business time zone the server announced (who-am-i, the public summary) so that every date
 * formatted afterwards reads in it (docs/decisions/0018-business-calendar.md). Called while rendering,
 * before the dates below it render; idempotent. An unknown zone (an older browser's time-zone data) keeps
 * the default rather than breaking the screen.
 */
export function adoptBusinessTimeZone(zone: string): void {
  if (zone !== calendar.zone && isTimeZone(zone)) calendar = businessCalendar(zone);
}

/** The business calendar of this tab (web/lib/format.ts formats every date with it). */
export function tabCalendar(): BusinessCalendar {
  return calendar;
}
