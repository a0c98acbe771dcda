// Recognises an error that says "the database cannot be reached right now" rather than "this request is
// wrong": a PostgreSQL backend terminated (pg_terminate_backend, a restart), a server shutting down or
// starting up, a refused or reset TCP connection, a pool that cannot get a connection in time. Such a
// request is answered 503 and can be retried; the pool opens new connections once PostgreSQL is back
// (docs/decisions/0019-durability.md). SQLite is a file of this process: it has no connection to lose.
// Drizzle wraps the driver's error (DrizzleQueryError), and a connect to several addresses fails with an
// AggregateError: the cause is looked for down both. `retryableFault` gives both doors the same answer.
import { readTimeout, unavailable, type DomainError } from '../errors';

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

/** Each error of `error`'s chain (Drizzle's cause, an AggregateError's errors), the first first. */
function* chain(error: unknown): Generator<{ code?: unknown; message?: unknown }> {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0 && seen.size < 16) {
    const current = pending.shift();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const { cause, errors } = current as { cause?: unknown; errors?: unknown };
    yield current as { code?: unknown; message?: unknown };
    pending.push(cause);
    if (Array.isArray(errors)) pending.push(...(errors as unknown[]));
  }
}

export function isConnectionLost(error: unknown): boolean {
  for (const { code, message } of chain(error)) {
    if (typeof code === 'string' && (PG_CODES.has(code) || SOCKET_CODES.has(code))) return true;
    if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
  }
  return false;
}

/**
 * A PostgreSQL statement that the request did not get wrong and that may succeed if sent again: 'timeout'
 * when cancelled past DATABASE_STATEMENT_TIMEOUT_SECONDS (57014, or by an administrator's
 * pg_cancel_backend), 'stale' when the connection's prepared statement is gone (26000: a pooler in front
 * of PostgreSQL gave another server connection) or was planned before another server's migration changed
 * its result (0A000 « cached plan must not change result type »). pg-pool drops a connection whose query
 * failed, so the next request prepares its statement again. Every other error stays the request's own.
 */
export function interruptedStatement(error: unknown): 'timeout' | 'stale' | null {
  for (const { code, message } of chain(error)) {
    if (code === '57014') return 'timeout';
    if (code === '26000') return 'stale';
    if (
      code === '0A000' &&
      typeof message === 'string' &&
      /^cached plan must not change result type/.test(message)
    )
      return 'stale';
  }
  return null;
}

/**
 * The 503 (Retry-After) both doors answer for a database fault that is not the request's own, and the line
 * they log it under (never the statement's parameters: log-serializers.ts); null for any other error.
 */
export function retryableFault(error: unknown): { answer: DomainError; log: string } | null {
  if (isConnectionLost(error)) return { answer: unavailable(), log: 'database unreachable: 503' };
  const cut = interruptedStatement(error);
  if (cut === 'timeout') return { answer: readTimeout(), log: 'statement timed out: 503' };
  if (cut === 'stale') return { answer: unavailable(), log: 'prepared statement outdated: 503' };
  return null;
}
