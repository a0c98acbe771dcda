import { parseDay } from '#shared/calendar';
import { INITIALS_MAX } from '#shared/constants';
import { tabCalendar } from './business-time-zone';

type DateInput = string | Date | null | undefined;

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Parses an API date. A bare `yyyy-MM-dd` is a calendar day, read as local midnight: `new Date('2024-03-01')`
 * would be UTC midnight, i.e. the day before anywhere west of Greenwich.
 */
export function parseDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  const dateOnly = DATE_ONLY.exec(value);
  const date = dateOnly
    ? new Date(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3]))
    : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/**
 * The business calendar's wall clock of an API date (docs/decisions/0018-business-calendar.md): an instant
 * is read in the business time zone (Madagascar unless the server says otherwise), whatever the browser's
 * zone; a bare `yyyy-MM-dd` is that calendar day. The result's UTC fields hold the wall clock.
 */
function businessWallClock(value: DateInput): Date | null {
  if (typeof value === 'string' && DATE_ONLY.test(value)) {
    const date = parseDay(value);
    return date;
  }
  const date = parseDate(value);
  return date ? tabCalendar().wallClock(date) : null;
}

/** `dd/MM/yyyy` in the business time zone; `fallback` (e.g. 'Jamais') for an empty or invalid date. */
export function formatDate(value: DateInput, fallback = ''): string {
  const wall = businessWallClock(value);
  if (!wall) return fallback;
  return `${pad(wall.getUTCDate())}/${pad(wall.getUTCMonth() + 1)}/${wall.getUTCFullYear()}`;
}

/** `dd/MM/yyyy HH:mm` in the business time zone; `fallback` for an empty or invalid date. */
export function formatDateTime(value: DateInput, fallback = ''): string {
  const wall = businessWallClock(value);
  if (!wall) return fallback;
  return `${formatDate(value)} ${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}`;
}

/**
 * `yyyy-MM-dd` of a calendar date held in a local Date (the pickers' days: their fields are the day,
 * whatever the zone), never shifted to UTC.
 */
export function toIsoDate(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** `yyyy-MM-dd` of today in the business calendar (a form's default date, the picker's today). */
export function businessToday(now = new Date()): string {
  return tabCalendar().day(now);
}

const percentNumber = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/**
 * A ratio (0.123) as a French percentage with one decimal: '12,3 %', with a no-break space (U+00A0) before
 * '%' (Intl's percent style uses U+00A0 or U+202F depending on the ICU version). A ratio that cannot be
 * computed (0/0) is shown as 0.
 */
export function formatPercent(ratio: number): string {
  const percent = Number.isFinite(ratio) ? ratio * 100 : 0;
  return `${percentNumber.format(percent)}\u00a0%`;
}

/** A number with French separators (shared/number.ts: the server's journal sentences use the same one). */
export { formatNumber } from '#shared/number';

/** A duration in days as the dashboard shows it: '3 j', '2,5 j'. */
export function formatDays(days: number): string {
  return `${new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 }).format(days)} j`;
}

/** Up to INITIALS_MAX uppercase first letters of the words of a name: 'Jean Rakoto' → 'JR'. */
export function initials(name: string | null | undefined, max = INITIALS_MAX): string {
  if (!name) return '';
  const letters: string[] = [];
  for (const word of name.trim().split(/\s+/)) {
    const first = /[\p{L}\p{N}]/u.exec(word);
    if (first) letters.push(first[0].toLocaleUpperCase('fr-FR'));
    if (letters.length >= max) break;
  }
  return letters.join('');
}

/**
 * `dd/MM/yyyy HH:mm:ss` in the business time zone, whatever the browser's: a log entry is read the same
 * way by every administrator. `fallback` for an empty or invalid date.
 */
export function formatDateTimeSeconds(value: DateInput, fallback = ''): string {
  const wall = businessWallClock(value);
  if (!wall) return fallback;
  return `${formatDateTime(value)}:${pad(wall.getUTCSeconds())}`;
}
