// Decoding of raw rows (db.rows), shared by both dialects: each value form either engine returns is read.

export const decodeCount = (value: unknown): number =>
  value === null || value === undefined ? 0 : Number(value);

export const decodeNumber = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

export function decodeDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(typeof value === 'string' ? value : Number(value));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A boolean: SQLite's integer 0 or 1, PostgreSQL's boolean. */
export const decodeFlag = (value: unknown): boolean => value === true || value === 1 || value === 1n;
