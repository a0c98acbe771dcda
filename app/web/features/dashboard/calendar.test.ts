import { describe, expect, it } from 'vitest';
import { dayLabel, monthTitle, monthWeeks, rangeFrom } from './calendar';

describe('range calendar', () => {
  it('lays a month out in weeks starting on Monday', () => {
    // March 2025 starts on a Saturday and has 31 days: six weeks.
    const weeks = monthWeeks(new Date(2025, 2, 1));
    expect(weeks).toHaveLength(6);
    expect(weeks[0]!.slice(0, 5)).toEqual([null, null, null, null, null]);
    expect(weeks[0]![5]!.getDate()).toBe(1);
    expect(weeks[5]![0]!.getDate()).toBe(31);
    expect(weeks.flat().filter(Boolean)).toHaveLength(31);
  });

  it('names months and days in French', () => {
    expect(monthTitle(new Date(2025, 7, 1))).toBe('août 2025');
    expect(dayLabel(new Date(2025, 2, 1))).toBe('samedi 1 mars 2025');
  });

  it('orders the two clicked days', () => {
    expect(rangeFrom('2025-03-10', '2025-03-02')).toEqual({ start: '2025-03-02', end: '2025-03-10' });
    expect(rangeFrom('2025-03-02', '2025-03-02')).toEqual({ start: '2025-03-02', end: '2025-03-02' });
  });
});
