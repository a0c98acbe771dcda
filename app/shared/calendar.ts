// The business calendar (docs/decisions/0018-business-calendar.md): a day is a day in one configured
// time zone, Madagascar by default, for every screen, filter, export, count and chart. This module holds
// no zone of its own: every function that depends on it takes it, and businessCalendar(zone) binds them
// to one. The server's context builds that from APP_TIMEZONE (server/context.ts); the client keeps the
// zone who-am-i (or the public summary) announced (web/lib/business-time-zone.ts). Offsets come from the
// platform's time-zone data (Intl), so a zone with daylight saving works as well as a fixed one.

export const DEFAULT_BUSINESS_TIME_ZONE = 'Indian/Antananarivo';

const DAY_MS = 86_400_000;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** How the zone is named beside a time: 'heure de Madagascar' for the default, else 'fuseau <name>'. */
export function businessZoneLabel(zone: string): string {
  return zone === DEFAULT_BUSINESS_TIME_ZONE ? 'heure de Madagascar' : `fuseau ${zone}`;
}

/** True for an IANA zone name the platform knows ('Indian/Antananarivo', 'UTC', 'Europe/Paris'). */
export function isTimeZone(zone: string): boolean {
  if (zone.trim() === '' || zone !== zone.trim()) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function wallClockFormat(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  return format;
}

/** Milliseconds to add to a UTC instant to read the zone's wall clock at that instant (+3 h in Madagascar). */
export function zoneOffsetMs(at: Date | number, zone: string): number {
  const ms = typeof at === 'number' ? at : at.getTime();
  const whole = ms - (((ms % 1000) + 1000) % 1000);
  const parts: Record<string, string> = {};
  for (const p of wallClockFormat(zone).formatToParts(new Date(whole))) parts[p.type] = p.value;
  const year = parts.era === 'BC' || parts.era === 'B' ? 1 - Number(parts.year) : Number(parts.year);
  const wall = new Date(0);
  wall.setUTCFullYear(year, Number(parts.month) - 1, Number(parts.day));
  wall.setUTCHours(Number(parts.hour), Number(parts.minute), Number(parts.second), 0);
  return wall.getTime() - whole;
}

/**
 * The zone's wall clock at `at`, as a Date whose UTC fields read that wall clock (for calendar
 * arithmetic with getUTC…, and for spreadsheet cells, which have no time zone).
 */
export function wallClock(at: Date, zone: string): Date {
  return new Date(at.getTime() + zoneOffsetMs(at, zone));
}

/**
 * wallClock for many instants (an export's date cells): the zone's offset is read from its table of
 * changes (offsetChanges, built once per zone, the table the database uses too) by bisection, instead of
 * asking Intl for each instant, which costs microseconds a cell. The same wall clock as wallClock() from
 * 1900 to 2100.
 */
export function wallClockReader(zone: string): (at: Date) => Date {
  const changes = offsetChanges(zone);
  return (at) => {
    const ms = at.getTime();
    let lo = 0;
    let hi = changes.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (changes[mid]!.startsAt <= ms) lo = mid;
      else hi = mid - 1;
    }
    return new Date(ms + changes[lo]!.offsetMs);
  };
}

/** 'yyyy-MM-dd' of the business day containing `at`. */
export function businessDay(at: Date, zone: string): string {
  return wallClock(at, zone).toISOString().slice(0, 10);
}

/** Days since 1970-01-01 of the business day containing `at` (the key of signalement_day_counts). */
export function businessDayNumber(at: Date, zone: string): number {
  return Math.floor(wallClock(at, zone).getTime() / DAY_MS);
}

/** The calendar date of a 'yyyy-MM-dd' string as a UTC midnight, or null when it is not a real day. */
export function parseDay(day: string): Date | null {
  const match = ISO_DAY.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, date);
  const real = at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === date;
  return real ? at : null;
}

/** 'yyyy-MM-dd' of `n` days after the day `day` ('yyyy-MM-dd'); `n` may be negative. */
export function addDays(day: string, n: number): string {
  const at = parseDay(day);
  if (!at) throw new RangeError(`Jour invalide : ${day}`);
  return new Date(at.getTime() + n * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The first instant of the business day 'yyyy-MM-dd'. Where the zone skips midnight (a daylight-saving
 * change at 00:00), the first instant that exists on that day.
 */
export function businessDayStart(day: string, zone: string): Date {
  const midnight = parseDay(day);
  if (!midnight) throw new RangeError(`Jour invalide : ${day}`);
  const wall = midnight.getTime();
  // Two rounds settle the offset in force at the wanted instant (it differs from the first guess only
  // across a change of offset).
  let at = wall - zoneOffsetMs(wall, zone);
  at = wall - zoneOffsetMs(at, zone);
  if (businessDay(new Date(at), zone) !== day) {
    // Midnight does not exist that day: the first instant that belongs to it is after the jump.
    at = wall - zoneOffsetMs(at + DAY_MS / 2, zone);
    while (businessDay(new Date(at), zone) !== day) at += 60_000;
  }
  return new Date(at);
}

/** The half-open range [start, end) of the business days `first` to `last` (inclusive, 'yyyy-MM-dd'). */
export function businessDaysRange(first: string, last: string, zone: string): { start: Date; end: Date } {
  return { start: businessDayStart(first, zone), end: businessDayStart(addDays(last, 1), zone) };
}

/**
 * A date as a user gives it (docs/decisions/0018): an instant, or a bare business day ('yyyy-MM-dd'),
 * which only a zone turns into an instant. The shared schemas output it; whoever knows the zone resolves
 * it (BusinessCalendar.instant).
 */
export type GivenDate = Date | { day: string };

/** The calendar functions bound to one zone: what the server's context and the client hold. */
export interface BusinessCalendar {
  readonly zone: string;
  /** 'heure de Madagascar' for the default zone, else 'fuseau <name>'. */
  readonly label: string;
  wallClock(at: Date): Date;
  day(at: Date): string;
  dayNumber(at: Date): number;
  dayStart(day: string): Date;
  daysRange(first: string, last: string): { start: Date; end: Date };
  /** The instant of a given date: itself, or the first instant of the business day. */
  instant(given: GivenDate): Date;
}

/** The calendar of `zone`; throws a RangeError for a name the platform does not know. */
export function businessCalendar(zone: string): BusinessCalendar {
  if (!isTimeZone(zone)) throw new RangeError(`Fuseau horaire inconnu : ${zone}`);
  return {
    zone,
    label: businessZoneLabel(zone),
    wallClock: (at) => wallClock(at, zone),
    day: (at) => businessDay(at, zone),
    dayNumber: (at) => businessDayNumber(at, zone),
    dayStart: (day) => businessDayStart(day, zone),
    daysRange: (first, last) => businessDaysRange(first, last, zone),
    instant: (given) => (given instanceof Date ? given : businessDayStart(given.day, zone)),
  };
}

export interface OffsetChange {
  /** First instant (ms since the epoch) at which `offsetMs` applies. */
  startsAt: number;
  offsetMs: number;
}

/** Dates before this are not accepted anywhere (MIN_SIGNALEMENT_DATE), so the table starts there. */
const TABLE_FROM = Date.UTC(1899, 11, 30);
const TABLE_TO = Date.UTC(2100, 0, 1);
/** Offsets are sampled every 3 days; two changes closer than that do not occur in the time-zone data. */
const STEP_MS = 3 * DAY_MS;
const changesByZone = new Map<string, OffsetChange[]>();

/**
 * The offsets of `zone` from 1900 to 2100, each with the instant it starts at, for the database
 * (business_calendar_offsets): the first row starts at the epoch's far past, so every instant has one.
 * Found by sampling and then bisection to the second, so the database and Intl agree on every instant.
 */
export function offsetChanges(zone: string): OffsetChange[] {
  const known = changesByZone.get(zone);
  if (known) return known;
  let offset = zoneOffsetMs(TABLE_FROM, zone);
  const changes: OffsetChange[] = [{ startsAt: FAR_PAST_MS, offsetMs: offset }];
  for (let t = TABLE_FROM + STEP_MS; t <= TABLE_TO; t += STEP_MS) {
    const next = zoneOffsetMs(t, zone);
    if (next === offset) continue;
    let lo = t - STEP_MS;
    let hi = t;
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (zoneOffsetMs(mid, zone) === offset) lo = mid;
      else hi = mid;
    }
    changes.push({ startsAt: hi, offsetMs: next });
    offset = next;
  }
  changesByZone.set(zone, changes);
  return changes;
}

/**
 * 1000-01-01T00:00:00Z: long before any date a report can carry (1900 at the earliest), and a year every
 * driver reads back as written (node-postgres reads year 0001 as 2001).
 */
export const FAR_PAST_MS = Date.UTC(1000, 0, 1);

// ---------------------------------------------------------------- business days (docs/decisions/0032)

/** Easter Sunday of a Gregorian year, 'yyyy-MM-dd' (the anonymous Gregorian algorithm). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const FIXED_HOLIDAYS = ['01-01', '03-08', '03-29', '05-01', '06-26', '08-15', '11-01', '12-25'];

/**
 * Madagascar's public holidays of `year`, sorted: New Year, Women's Day (8 March), the 1947 Martyrs
 * (29 March), Easter Monday, Labour Day, Ascension Thursday, Whit Monday, Independence Day (26 June),
 * Assumption, All Saints' and Christmas. A holiday on a weekend is not moved to another day.
 */
export function madagascarHolidays(year: number): string[] {
  const easter = easterSunday(year);
  const y = String(year).padStart(4, '0');
  const movable = [addDays(easter, 1), addDays(easter, 39), addDays(easter, 50)];
  return [...FIXED_HOLIDAYS.map((md) => `${y}-${md}`), ...movable].sort();
}

const holidaysByYear = new Map<number, Set<string>>();

/** Whether the calendar day 'yyyy-MM-dd' is a business day: Monday to Friday, not a public holiday. */
export function isBusinessDay(day: string): boolean {
  const at = parseDay(day);
  if (!at) throw new RangeError(`Jour invalide : ${day}`);
  const weekday = at.getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const year = at.getUTCFullYear();
  let holidays = holidaysByYear.get(year);
  if (!holidays) {
    holidays = new Set(madagascarHolidays(year));
    holidaysByYear.set(year, holidays);
  }
  return !holidays.has(day);
}

/**
 * The due day of a deadline of `businessDays` business days that starts on the day `start` ('yyyy-MM-dd'):
 * the day itself is not counted, so the first business day after it is day 1, whatever `start` is (a
 * report filed on a Saturday, a holiday, or a Monday at any hour all count from the next business day).
 */
export function addBusinessDays(start: string, businessDays: number): string {
  if (!Number.isInteger(businessDays) || businessDays < 0) throw new RangeError('Nombre de jours invalide');
  let day = start;
  for (let left = businessDays; left > 0;) {
    day = addDays(day, 1);
    if (isBusinessDay(day)) left -= 1;
  }
  return day;
}

/** The epoch-day number of 'yyyy-MM-dd' (days since 1970-01-01), the form the database keeps days in. */
export function dayNumber(day: string): number {
  const at = parseDay(day);
  if (!at) throw new RangeError(`Jour invalide : ${day}`);
  return Math.round(at.getTime() / DAY_MS);
}

/** 'yyyy-MM-dd' of an epoch-day number. */
export function dayOfNumber(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The business-day ordinals from `first` to `last` (epoch-day numbers, inclusive): for each calendar day,
 * how many business days there are from `first` up to and including it. The n-th business day after a day
 * of ordinal k is the first day of ordinal k + n: what the database's business_days table holds, so that a
 * due day is two index lookups (server/db/due-days.ts).
 */
export function businessDayOrdinals(first: number, last: number): Array<{ day: number; ordinal: number }> {
  const rows: Array<{ day: number; ordinal: number }> = [];
  let ordinal = 0;
  for (let n = first; n <= last; n++) {
    if (isBusinessDay(dayOfNumber(n))) ordinal += 1;
    rows.push({ day: n, ordinal });
  }
  return rows;
}
