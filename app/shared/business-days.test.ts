import { describe, expect, it } from 'vitest';
import {
  addBusinessDays,
  addDays,
  businessDayOrdinals,
  dayNumber,
  dayOfNumber,
  easterSunday,
  isBusinessDay,
  madagascarHolidays,
} from './calendar';

describe('Madagascar business days', () => {
  it('computes Easter Sunday (known years, including the extremes of its range)', () => {
    expect(easterSunday(2024)).toBe('2024-03-31');
    expect(easterSunday(2025)).toBe('2025-04-20');
    expect(easterSunday(2026)).toBe('2026-04-05');
    expect(easterSunday(2027)).toBe('2027-03-28');
    expect(easterSunday(2285)).toBe('2285-03-22');
    expect(easterSunday(2038)).toBe('2038-04-25');
    expect(easterSunday(1900)).toBe('1900-04-15');
  });

  it('lists the eleven public holidays, the movable ones after Easter', () => {
    expect(madagascarHolidays(2026)).toEqual([
      '2026-01-01',
      '2026-03-08',
      '2026-03-29',
      '2026-04-06', // Easter Monday
      '2026-05-01',
      '2026-05-14', // Ascension Thursday
      '2026-05-25', // Whit Monday
      '2026-06-26',
      '2026-08-15',
      '2026-11-01',
      '2026-12-25',
    ]);
  });

  it('tells weekends and holidays from business days', () => {
    expect(isBusinessDay('2026-11-27')).toBe(true); // Friday
    expect(isBusinessDay('2026-11-28')).toBe(false); // Saturday
    expect(isBusinessDay('2026-11-29')).toBe(false); // Sunday
    expect(isBusinessDay('2026-06-26')).toBe(false); // Friday, Independence Day
    expect(isBusinessDay('2026-04-06')).toBe(false); // Easter Monday
    expect(isBusinessDay('2026-04-07')).toBe(true);
    expect(() => isBusinessDay('2026-02-30')).toThrow(RangeError);
  });

  it('counts a deadline from the next business day, whatever day the report was filed', () => {
    // Thursday 26 Nov 2026 + 7 business days: Fri 27, Mon 30, Tue 1, Wed 2, Thu 3, Fri 4, Mon 7.
    expect(addBusinessDays('2026-11-26', 7)).toBe('2026-12-07');
    // Filed on Saturday or Sunday: Monday is day 1.
    expect(addBusinessDays('2026-11-28', 1)).toBe('2026-11-30');
    expect(addBusinessDays('2026-11-29', 1)).toBe('2026-11-30');
    // Friday 27 Nov counts the same way as the weekend after it.
    expect(addBusinessDays('2026-11-27', 1)).toBe('2026-11-30');
    // Across Christmas (Friday 25 Dec 2026) and New Year (Friday 1 Jan 2027).
    expect(addBusinessDays('2026-12-24', 1)).toBe('2026-12-28');
    expect(addBusinessDays('2026-12-31', 1)).toBe('2027-01-04');
    // Across Easter Monday 2026 (6 April): Thursday 2 April + 2 = Friday 3, Tuesday 7.
    expect(addBusinessDays('2026-04-02', 2)).toBe('2026-04-07');
    expect(addBusinessDays('2026-04-02', 0)).toBe('2026-04-02');
  });

  it('converts days to epoch-day numbers and back', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber('2026-11-26')).toBe(Date.UTC(2026, 10, 26) / 86_400_000);
    expect(dayOfNumber(dayNumber('1900-03-01'))).toBe('1900-03-01');
  });

  it('gives ordinals whose next value falls on the n-th business day (the database table)', () => {
    const first = dayNumber('2026-01-01');
    const rows = businessDayOrdinals(first, dayNumber('2027-12-31'));
    const ordinalOf = new Map(rows.map((r) => [r.day, r.ordinal]));
    const firstOfOrdinal = new Map<number, number>();
    for (const r of rows) if (!firstOfOrdinal.has(r.ordinal)) firstOfOrdinal.set(r.ordinal, r.day);
    for (let day = '2026-01-01'; day <= '2027-06-30'; day = addDays(day, 1)) {
      for (const n of [1, 7, 15, 30, 60]) {
        const viaTable = firstOfOrdinal.get(ordinalOf.get(dayNumber(day))! + n)!;
        expect(dayOfNumber(viaTable)).toBe(addBusinessDays(day, n));
      }
    }
  });
});
