/** The engine codes down an error's `cause` chain (Drizzle wraps the driver's error), outermost first. */
export function errorCodes(error: unknown): string[] {
  const found: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') found.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return found;
}
