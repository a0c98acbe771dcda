import { INITIALS_MAX } from '../../shared/constants';

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

/** `dd/MM/yyyy` in the browser's time zone; `fallback` (e.g. 'Jamais') for an empty or invalid date. */
export function formatDate(value: DateInput, fallback = ''): string {
  const date = parseDate(value);
  if (!date) return fallback;
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
}

/** `dd/MM/yyyy HH:mm` in the browser's time zone; `fallback` for an empty or invalid date. */
export function formatDateTime(value: DateInput, fallback = ''): string {
  const date = parseDate(value);
  if (!date) return fallback;
  return `${formatDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** `yyyy-MM-dd` of the local calendar day (what the date-range filters send), never shifted to UTC. */
export function toIsoDate(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
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

const numberFormat = new Intl.NumberFormat('fr-FR');

/** An integer or decimal number with French separators ('1 234,5'). */
export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

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

/** Madagascar's time zone (UTC+3 all year): the access log shows when things happened there. */
export const MADAGASCAR_TIME_ZONE = 'Indian/Antananarivo';

const madagascarParts = new Intl.DateTimeFormat('fr-FR', {
  timeZone: MADAGASCAR_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/**
 * `dd/MM/yyyy HH:mm:ss` in Madagascar time, whatever the browser's time zone: a log entry is read the
 * same way by every administrator. `fallback` for an empty or invalid date.
 */
export function formatDateTimeMadagascar(value: DateInput, fallback = ''): string {
  const date = parseDate(value);
  if (!date) return fallback;
  const part = Object.fromEntries(madagascarParts.formatToParts(date).map((p) => [p.type, p.value]));
  return `${part.day}/${part.month}/${part.year} ${part.hour}:${part.minute}:${part.second}`;
}
