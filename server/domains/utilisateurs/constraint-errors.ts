// Recognises constraint violations on both engines, for the rare race that a service's own check
// cannot see (two transactions inserting the same e-mail or code at the same moment on PostgreSQL).
// Drizzle wraps the driver's error; the engine's code is somewhere down the `cause` chain.

function codes(error: unknown): string[] {
  const found: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') found.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return found;
}

/** PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY. */
export function isUniqueViolation(error: unknown): boolean {
  return codes(error).some(
    (c) => c === '23505' || c === 'SQLITE_CONSTRAINT_UNIQUE' || c === 'SQLITE_CONSTRAINT_PRIMARYKEY',
  );
}

/** PostgreSQL 23503, SQLite SQLITE_CONSTRAINT_FOREIGNKEY. */
export function isForeignKeyViolation(error: unknown): boolean {
  return codes(error).some((c) => c === '23503' || c === 'SQLITE_CONSTRAINT_FOREIGNKEY');
}
