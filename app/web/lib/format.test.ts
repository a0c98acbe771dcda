import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_BUSINESS_TIME_ZONE } from '#shared/calendar';
import { adoptBusinessTimeZone } from './business-time-zone';
import {
  formatDate,
  formatDateTime,
  formatDateTimeSeconds,
  formatDays,
  formatNumber,
  formatPercent,
  initials,
  parseDate,
  toIsoDate,
} from './format';

// Node re-reads process.env.TZ on assignment, so each test can pin the browser's time zone.
const originalTz = process.env.TZ;
function inTimeZone(tz: string): void {
  process.env.TZ = tz;
}
afterEach(() => {
  // Unset again when it was: assigning undefined would set the text « undefined » (read as UTC).
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

const NBSP = '\u00a0';

describe('formatDate', () => {
  beforeEach(() => inTimeZone('Indian/Antananarivo'));

  it('writes dd/MM/yyyy with leading zeros', () => {
    expect(formatDate('2024-03-05T08:00:00Z')).toBe('05/03/2024');
    expect(formatDate(new Date(2024, 11, 31, 12))).toBe('31/12/2024');
  });

  it('shows the fallback for a missing or invalid date, and an empty string by default', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined, 'Jamais')).toBe('Jamais');
    expect(formatDate('', 'Jamais')).toBe('Jamais');
    expect(formatDate('pas une date', 'Jamais')).toBe('Jamais');
  });

  it('uses the business day, whatever the browser zone: 22:30 UTC on 31 March is 1 April in Madagascar (UTC+3)', () => {
    for (const tz of ['Indian/Antananarivo', 'UTC', 'America/Los_Angeles', 'Pacific/Kiritimati']) {
      inTimeZone(tz);
      expect(formatDate('2024-03-31T22:30:00Z')).toBe('01/04/2024');
      // 23:30 and 00:30 in Madagascar, on either side of midnight.
      expect(formatDate('2024-03-31T20:30:00Z')).toBe('31/03/2024');
      expect(formatDate('2024-03-31T21:30:00Z')).toBe('01/04/2024');
    }
  });

  it('follows the zone the server announces', () => {
    adoptBusinessTimeZone('America/Los_Angeles');
    try {
      expect(formatDate('2024-03-31T22:30:00Z')).toBe('31/03/2024');
      expect(formatDateTime('2024-07-01T06:30:00Z')).toBe('30/06/2024 23:30');
    } finally {
      adoptBusinessTimeZone(DEFAULT_BUSINESS_TIME_ZONE);
    }
  });

  it('keeps a bare calendar day on that day even west of Greenwich', () => {
    inTimeZone('America/Los_Angeles');
    expect(formatDate('2024-03-01')).toBe('01/03/2024');
    inTimeZone('Pacific/Kiritimati'); // UTC+14
    expect(formatDate('2024-03-01')).toBe('01/03/2024');
  });
});

describe('formatDateTime', () => {
  it('writes dd/MM/yyyy HH:mm in the business time zone, 24-hour clock, whatever the browser zone', () => {
    for (const tz of ['Indian/Antananarivo', 'America/Los_Angeles']) {
      inTimeZone(tz);
      expect(formatDateTime('2024-01-09T13:07:00Z')).toBe('09/01/2024 16:07');
      expect(formatDateTime('2024-03-31T22:30:00Z')).toBe('01/04/2024 01:30');
    }
  });

  it('shows the fallback for a missing date', () => {
    expect(formatDateTime(null, 'Jamais')).toBe('Jamais');
    expect(formatDateTime(null)).toBe('');
  });
});

describe('toIsoDate', () => {
  it('gives the local calendar day, not the UTC one', () => {
    inTimeZone('Indian/Antananarivo');
    // Local midnight of 1 April is 31 March 21:00 UTC: toISOString() would say 2024-03-31.
    const localMidnight = new Date(2024, 3, 1, 0, 0);
    expect(localMidnight.toISOString().slice(0, 10)).toBe('2024-03-31');
    expect(toIsoDate(localMidnight)).toBe('2024-04-01');
  });

  it('gives the local day late in the evening west of Greenwich', () => {
    inTimeZone('America/Los_Angeles');
    const lateEvening = new Date(2024, 11, 31, 23, 30);
    expect(lateEvening.toISOString().slice(0, 10)).toBe('2025-01-01');
    expect(toIsoDate(lateEvening)).toBe('2024-12-31');
  });

  it('round-trips with parseDate for a calendar day', () => {
    inTimeZone('America/Los_Angeles');
    expect(toIsoDate(parseDate('2024-02-29')!)).toBe('2024-02-29');
  });
});

describe('formatPercent', () => {
  it('writes a ratio as a French percentage with one decimal', () => {
    expect(formatPercent(0.123)).toBe(`12,3${NBSP}%`);
    expect(formatPercent(0.12345)).toBe(`12,3${NBSP}%`);
    expect(formatPercent(1)).toBe(`100,0${NBSP}%`);
    expect(formatPercent(0)).toBe(`0,0${NBSP}%`);
    expect(formatPercent(2 / 3)).toBe(`66,7${NBSP}%`);
    expect(formatPercent(0.0005)).toBe(`0,1${NBSP}%`);
  });

  it('shows 0 when the ratio cannot be computed (no reports at all)', () => {
    expect(formatPercent(0 / 0)).toBe(`0,0${NBSP}%`);
    expect(formatPercent(1 / 0)).toBe(`0,0${NBSP}%`);
  });
});

describe('formatDays', () => {
  it("writes a duration as 'X j'", () => {
    expect(formatDays(3)).toBe('3 j');
    expect(formatDays(2.5)).toBe('2,5 j');
  });
});

describe('initials', () => {
  it('takes the first letters of the first two words, uppercase', () => {
    expect(initials('Jean Rakoto')).toBe('JR');
    expect(initials('rasoa nirina andrianina')).toBe('RN');
    expect(initials('Admin')).toBe('A');
  });

  it('copes with extra spaces, accents, hyphens and an empty name', () => {
    expect(initials('  élodie   rabe ')).toBe('ÉR');
    expect(initials('Jean-Pierre Rakoto')).toBe('JR');
    expect(initials('(Mme) Hanta')).toBe('MH');
    expect(initials('')).toBe('');
    expect(initials(null)).toBe('');
  });
});

describe('formatDateTimeSeconds', () => {
  it('writes dd/MM/yyyy HH:mm:ss in Madagascar time, whatever the browser time zone', () => {
    for (const tz of ['UTC', 'America/Los_Angeles', 'Asia/Tokyo', 'Indian/Antananarivo']) {
      inTimeZone(tz);
      expect(formatDateTimeSeconds('2025-03-10T21:05:09Z')).toBe('11/03/2025 00:05:09');
    }
  });

  it('gives the fallback for an empty or invalid date', () => {
    expect(formatDateTimeSeconds(null, '-')).toBe('-');
    expect(formatDateTimeSeconds('pas une date', '-')).toBe('-');
  });
});

describe('formatNumber', () => {
  const NNBSP = '\u202f';
  it('groups thousands with the narrow no-break space Intl gives fr-FR', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(1234)).toBe(`1${NNBSP}234`);
    expect(formatNumber(1_234_567)).toBe(`1${NNBSP}234${NNBSP}567`);
    expect(formatNumber(-12_000)).toBe(`-12${NNBSP}000`);
  });
  it('writes decimals with a comma', () => {
    expect(formatNumber(1234.5)).toBe(`1${NNBSP}234,5`);
  });
});
