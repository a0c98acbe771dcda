// The one format of an error that crosses a thread boundary (errors.ts decodes it): reader, task and export
// threads all post what encodeError returns. Plain JavaScript so that the reader thread (reader-thread.mjs,
// no TypeScript loader) posts it too; errors are told apart by their name, which DomainError and HttpError
// set (server/errors.ts), not by their class, which a thread does not share with the main thread.

/** The error a thread posts for `thrown`: a DomainError found in its causes wins (Drizzle wraps them). */
export function encodeError(thrown) {
  for (let e = thrown, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e.name === 'DomainError')
      return { name: e.name, message: e.message, kind: e.kind, details: e.details };
  }
  const error = thrown instanceof Error ? thrown : new Error(String(thrown));
  const posted = { name: error.name, message: error.message, stack: error.stack };
  if (error.name === 'HttpError') posted.statusCode = error.statusCode;
  if (typeof error.code === 'string') posted.code = error.code;
  return posted;
}
