import { describe, expect, it } from 'vitest';
import { displayDay, typedDay } from './date-input';

describe('date input text', () => {
  it('shows a day as dd/MM/yyyy', () => {
    expect(displayDay('2024-03-05')).toBe('05/03/2024');
    expect(displayDay('')).toBe('');
    expect(displayDay(null)).toBe('');
    expect(displayDay('05/03')).toBe('05/03');
  });

  it('reads a typed day, with or without leading zeros, and refuses impossible ones', () => {
    expect(typedDay('05/03/2024')).toBe('2024-03-05');
    expect(typedDay('5/3/2024')).toBe('2024-03-05');
    expect(typedDay(' 29/02/2024 ')).toBe('2024-02-29');
    expect(typedDay('29/02/2025')).toBeNull();
    expect(typedDay('31/04/2024')).toBeNull();
    expect(typedDay('2024-03-05')).toBeNull();
    expect(typedDay('05/03/24')).toBeNull();
    expect(typedDay('')).toBeNull();
  });
});
