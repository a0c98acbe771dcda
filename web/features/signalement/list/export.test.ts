import { describe, expect, it } from 'vitest';
import { fileNameFrom, formatBytes } from './export';

describe('fileNameFrom', () => {
  const today = new Date(2025, 2, 7);
  it("reads the server's file name", () => {
    expect(fileNameFrom('attachment; filename="signalements_2025-03-07.xlsx"', today)).toBe(
      'signalements_2025-03-07.xlsx',
    );
    expect(fileNameFrom("attachment; filename*=UTF-8''signalements%20%C3%A9t%C3%A9.xlsx", today)).toBe(
      'signalements été.xlsx',
    );
  });
  it('falls back to signalements_{yyyy-MM-dd}.xlsx', () => {
    expect(fileNameFrom(null, today)).toBe('signalements_2025-03-07.xlsx');
    expect(fileNameFrom('attachment', today)).toBe('signalements_2025-03-07.xlsx');
  });
});

describe('formatBytes', () => {
  it('writes French units', () => {
    expect(formatBytes(850)).toBe('850 o');
    expect(formatBytes(12_700)).toBe('12,4 Ko');
    expect(formatBytes(3_250_000)).toBe('3,1 Mo');
  });
});
