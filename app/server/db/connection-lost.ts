// Recognises an error that says "the database cannot be reached right now" rather than "this request is
// wrong": a PostgreSQL backend terminated (pg_terminate_backend, a restart), a server shutting down or
// starting up, a refused or reset TCP connection, a pool that cannot get a connection in time. Such a
// request is answered 503 and can be retried; the pool opens new connections once PostgreSQL is back
// (docs/decisions/0019-durability.md). SQLite is a file of this process: it has no connection to lose.
// Drizzle wraps the driver's error (DrizzleQueryError), and a connect to several addresses fails with an
// AggregateError: the cause is looked for down both.

/** PostgreSQL SQLSTATEs (admin shutdown, crash shutdown, cannot connect now, connection exceptions). */
const PG_CODES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006']);
/** Node's socket errors. */
const SOCKET_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTCONN',
]);
/**
 * node-postgres and pg-pool name these in the message only: the socket closed ("Connection terminated
 * unexpectedly", "… due to connection timeout"), a client used after its connection failed ("Client has
 * encountered a connection error and is not queryable"), no connection within connectionTimeoutMillis.
 */
const MESSAGES = [/^Connection terminated/, /is not queryable/, /timeout exceeded when trying to connect/];

export function isConnectionLost(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0 && seen.size < 16) {
    const current = pending.shift();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const { code, message, cause, errors } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && (PG_CODES.has(code) || SOCKET_CODES.has(code))) return true;
    if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
    pending.push(cause);
    if (Array.isArray(errors)) pending.push(...(errors as unknown[]));
  }
  return false;
}
