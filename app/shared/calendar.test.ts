import { describe, expect, it } from 'vitest';
import {
  addDays,
  businessDay,
  businessDayNumber,
  businessDayStart,
  businessDaysRange,
  businessCalendar,
  isTimeZone,
  offsetChanges,
  parseDay,
  wallClock,
  wallClockReader,
  zoneOffsetMs,
} from './calendar';

const MG = 'Indian/Antananarivo';

describe('business calendar', () => {
  it('puts 23:30 and 00:30 in Madagascar on two days, though they share a UTC day', () => {
    expect(businessDay(new Date('2025-11-20T20:30:00Z'), MG)).toBe('2025-11-20');
    expect(businessDay(new Date('2025-11-20T21:30:00Z'), MG)).toBe('2025-11-21');
    expect(businessDayNumber(new Date('2025-11-20T21:30:00Z'), MG)).toBe(Date.UTC(2025, 10, 21) / 86_400_000);
    expect(wallClock(new Date('2025-11-20T21:30:00Z'), MG).toISOString()).toBe('2025-11-21T00:30:00.000Z');
  });

  it('starts a Madagascar day at 21:00 UTC the evening before', () => {
    expect(businessDayStart('2025-11-21', MG).toISOString()).toBe('2025-11-20T21:00:00.000Z');
    expect(businessDaysRange('2025-11-20', '2025-11-20', MG)).toEqual({
      start: new Date('2025-11-19T21:00:00Z'),
      end: new Date('2025-11-20T21:00:00Z'),
    });
  });

  it('follows daylight saving in a zone that has it', () => {
    expect(zoneOffsetMs(new Date('2025-01-15T12:00:00Z'), 'Europe/Paris')).toBe(3_600_000);
    expect(zoneOffsetMs(new Date('2025-07-15T12:00:00Z'), 'Europe/Paris')).toBe(7_200_000);
    expect(businessDayStart('2025-03-30', 'Europe/Paris').toISOString()).toBe('2025-03-29T23:00:00.000Z');
    expect(businessDayStart('2025-03-31', 'Europe/Paris').toISOString()).toBe('2025-03-30T22:00:00.000Z');
    // Where a change of offset skips midnight, the day starts at its first instant that exists.
    const start = businessDayStart('2011-08-21', 'America/Santiago');
    expect(businessDay(start, 'America/Santiago')).toBe('2011-08-21');
    expect(businessDay(new Date(start.getTime() - 1), 'America/Santiago')).toBe('2011-08-20');
  });

  it('lists offset changes that agree with the zone on every instant (what the database triggers read)', () => {
    for (const zone of ['Indian/Antananarivo', 'Europe/Paris', 'America/Santiago']) {
      const changes = offsetChanges(zone);
      const offsetFromTable = (ms: number) => changes.filter((c) => c.startsAt <= ms).at(-1)!.offsetMs;
      for (let ms = Date.UTC(1900, 0, 1); ms < Date.UTC(2060, 0, 1); ms += 7_919_999_937) {
        expect(offsetFromTable(ms), `${zone} at ${new Date(ms).toISOString()}`).toBe(zoneOffsetMs(ms, zone));
      }
      for (const c of changes.slice(1)) {
        expect(zoneOffsetMs(c.startsAt, zone)).toBe(c.offsetMs);
        expect(zoneOffsetMs(c.startsAt - 1000, zone)).not.toBe(c.offsetMs);
      }
    }
    expect(offsetChanges('Indian/Antananarivo').at(-1)).toEqual({
      startsAt: Date.parse('1942-07-31T21:15:00Z'),
      offsetMs: 3 * 3_600_000,
    });
  });

  it('reads the same wall clock from the table of changes as from Intl (for the date cells of an export)', () => {
    for (const zone of ['Indian/Antananarivo', 'Europe/Paris', 'America/Santiago']) {
      const read = wallClockReader(zone);
      const instants = [Date.UTC(1900, 0, 1, 0, 0, 0, 1)];
      for (let ms = Date.UTC(1900, 0, 1); ms < Date.UTC(2060, 0, 1); ms += 3_999_999_937) instants.push(ms);
      for (const c of offsetChanges(zone).slice(1))
        instants.push(c.startsAt, c.startsAt - 1, c.startsAt + 999);
      for (const ms of instants) {
        expect(read(new Date(ms)).toISOString(), `${zone} at ${new Date(ms).toISOString()}`).toBe(
          wallClock(new Date(ms), zone).toISOString(),
        );
      }
    }
  });

  it('binds the functions to one zone, and resolves a given day in it', () => {
    const utc = businessCalendar('UTC');
    const mg = businessCalendar(MG);
    const late = new Date('2025-11-20T21:30:00Z');
    expect([utc.day(late), mg.day(late)]).toEqual(['2025-11-20', '2025-11-21']);
    expect(utc.instant({ day: '2025-11-21' }).toISOString()).toBe('2025-11-21T00:00:00.000Z');
    expect(mg.instant({ day: '2025-11-21' }).toISOString()).toBe('2025-11-20T21:00:00.000Z');
    expect(mg.instant(late)).toBe(late);
    expect([mg.label, utc.label]).toEqual(['heure de Madagascar', 'fuseau UTC']);
    expect(() => businessCalendar('Mars/Olympus')).toThrow(RangeError);
  });

  it('knows real zones and real days only', () => {
    expect(isTimeZone('Indian/Antananarivo')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone(' UTC')).toBe(false);
    expect(parseDay('2024-02-29')).toEqual(new Date('2024-02-29T00:00:00Z'));
    expect(parseDay('2025-02-29')).toBeNull();
    expect(parseDay('29/02/2024')).toBeNull();
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
  });
});
