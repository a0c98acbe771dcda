import { describe, expect, it } from 'vitest';
import { EXPORT_URL, exportUrl, fileNameFrom, formatBytes } from './export';
import { parseListSearch } from './list-url';

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

describe('exportUrl', () => {
  const filters = { ...parseListSearch(''), search: 'eau' };
  it('leaves the internal notes out unless the box is ticked', () => {
    const plain = exportUrl(filters);
    expect(plain.startsWith(`${EXPORT_URL}?`)).toBe(true);
    expect(plain).toContain('search=eau');
    expect(plain).not.toContain('notesInternes');
    expect(exportUrl(filters, { notesInternes: false })).toBe(plain);
    expect(exportUrl(filters, { notesInternes: true })).toBe(`${plain}&notesInternes=true`);
  });
});
