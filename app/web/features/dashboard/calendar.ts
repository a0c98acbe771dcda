// Calendar arithmetic of the date-range picker, on local calendar days (the picker's days are the
// user's days; they are sent as 'yyyy-MM-dd' and read by the server as UTC days).
import { parseDate, toIsoDate } from '#web/lib/format';

export const MONTHS_FR = [
  'janvier',
  'février',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'août',
  'septembre',
  'octobre',
  'novembre',
  'décembre',
] as const;
export const WEEKDAYS_FR = ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'] as const;
export const WEEKDAYS_SHORT_FR = ['lu', 'ma', 'me', 'je', 've', 'sa', 'di'] as const;

export interface IsoRange {
  start: string;
  end: string;
}

export const addDays = (day: Date, n: number) =>
  new Date(day.getFullYear(), day.getMonth(), day.getDate() + n);
export const addMonths = (day: Date, n: number) => new Date(day.getFullYear(), day.getMonth() + n, 1);
export const startOfMonth = (day: Date) => new Date(day.getFullYear(), day.getMonth(), 1);

/** Monday = 0 … Sunday = 6. */
export const weekdayIndex = (day: Date) => (day.getDay() + 6) % 7;

/** The weeks (Monday first) of a month; days of the neighbouring months are null. */
export function monthWeeks(month: Date): Array<Array<Date | null>> {
  const first = startOfMonth(month);
  const days = new Date(first.getFullYear(), first.getMonth() + 1, 0).getDate();
  const cells: Array<Date | null> = Array.from({ length: weekdayIndex(first) }, () => null);
  for (let d = 1; d <= days; d++) cells.push(new Date(first.getFullYear(), first.getMonth(), d));
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: Array<Array<Date | null>> = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/** 'mars 2025'. */
export const monthTitle = (month: Date) => `${MONTHS_FR[month.getMonth()]} ${month.getFullYear()}`;

/** 'samedi 1 mars 2025', the accessible name of a day. */
export const dayLabel = (day: Date) =>
  `${WEEKDAYS_FR[weekdayIndex(day)]} ${day.getDate()} ${MONTHS_FR[day.getMonth()]} ${day.getFullYear()}`;

/** The range made by a click on `day` after `anchor` (the first click); the earlier day starts it. */
export function rangeFrom(anchor: string, day: string): IsoRange {
  return anchor <= day ? { start: anchor, end: day } : { start: day, end: anchor };
}

export const iso = toIsoDate;
export const fromIso = (value: string) => parseDate(value)!;
