import { afterEach, describe, expect, it, vi } from 'vitest';
import { addDays, businessCalendar } from '../calendar';
import { DATE_IN_FUTURE, DATE_TOO_OLD, isoDate, pastDate } from './common';

const messages = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.success ? [] : result.error!.issues.map((i) => i.message);

describe('dates given to the shared schemas (docs/decisions/0018-business-calendar.md)', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps a bare day a day, which each zone resolves to its own first instant', () => {
    const given = isoDate('Date obligatoire.').parse('2025-11-21');
    expect(given).toEqual({ day: '2025-11-21' });
    expect(businessCalendar('Indian/Antananarivo').instant(given).toISOString()).toBe(
      '2025-11-20T21:00:00.000Z',
    );
    expect(businessCalendar('Pacific/Kiritimati').instant(given).toISOString()).toBe(
      '2025-11-20T10:00:00.000Z',
    );
    expect(isoDate('Date obligatoire.').parse('2025-11-21T08:30:00Z')).toEqual(
      new Date('2025-11-21T08:30:00Z'),
    );
  });

  it('refuses what no zone could store: year 0 or 10000, a day that does not exist', () => {
    for (const value of ['0001-01-01', '9999-12-31', '2025-02-29', '0000-06-01T00:00:00Z'])
      expect(messages(isoDate('Date obligatoire.').safeParse(value)), value).toEqual(['Date invalide.']);
    expect(isoDate('Date obligatoire.').safeParse('0001-01-02').success).toBe(true);
  });

  it('allows a report dated today in any zone, not the day after, nor before 1900', () => {
    vi.useFakeTimers({ now: new Date('2025-11-20T10:00:00Z'), toFake: ['Date'] });
    const schema = pastDate('Date obligatoire.');
    // 10:00 UTC is already 00:00 on the 21st in UTC+14.
    expect(schema.safeParse('2025-11-21').success).toBe(true);
    expect(messages(schema.safeParse(addDays('2025-11-21', 1)))).toEqual([DATE_IN_FUTURE]);
    expect(messages(schema.safeParse('1899-12-31'))).toEqual([DATE_TOO_OLD]);
    expect(schema.safeParse('1900-01-01').success).toBe(true);
  });
});
