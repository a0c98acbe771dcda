// The `err` serializer of the server's logger (pino). A failed query reaches the logs as Drizzle's
// DrizzleQueryError, whose message and stack end with "params: <values>", wrapping the driver's error,
// whose `detail` repeats values ("Key (email)=(x@y) already exists."). Those values are the personal data
// of the report (names, e-mails, phone numbers): for a database error only the error's type, the SQL text,
// the driver's code and its message (values masked) are logged, never `params`, `detail`, `where`…
// Every other error is logged as pino's standard serializer would (type, message, stack, own fields).
import Sqlite from 'better-sqlite3';
import { DrizzleQueryError } from 'drizzle-orm';
import type { FastifyError } from 'fastify';
import pg from 'pg';

const MAX_CAUSES = 8;
const MASK = '***';
/** The words after which PostgreSQL quotes an identifier, not a value. */
const IDENTIFIER_NOUNS =
  /(?:relation|constraint|column|table|type|index|schema|database|role|function|sequence|key|extension|operator|collation|trigger|view)\s*$/i;

type Serialized = Record<string, unknown>;

function isErrorLike(value: unknown): value is Error {
  return (
    value instanceof Error ||
    (typeof value === 'object' &&
      value !== null &&
      typeof (value as Error).message === 'string' &&
      'stack' in value)
  );
}

const isDriverError = (value: unknown): value is Error & { code?: unknown; detail?: unknown } =>
  value instanceof pg.DatabaseError || value instanceof Sqlite.SqliteError;

const isDatabaseError = (value: unknown) => value instanceof DrizzleQueryError || isDriverError(value);

function causes(err: Error): Error[] {
  const chain: Error[] = [];
  let current: unknown = err;
  while (isErrorLike(current) && chain.length < MAX_CAUSES && !chain.includes(current)) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/** The "    at …" lines of a stack, without its first lines (they repeat the message and its values). */
function frames(err: Error): string | undefined {
  const lines = err.stack?.split('\n').filter((line) => /^\s+at /.test(line));
  return lines?.length ? lines.join('\n') : undefined;
}

/**
 * The values a PostgreSQL `detail` gives between parentheses: x@y in "Key (email)=(x@y) already exists.",
 * the row in "Failing row contains (…)." A group followed by '=' lists columns, not values.
 */
function detailValues(detail: unknown): string[] {
  if (typeof detail !== 'string') return [];
  const values: string[] = [];
  for (const [, inside, next] of detail.matchAll(/\((.*?)\)(=|[\s.,]|$)/gs)) {
    if (next !== '=') values.push(inside!, ...inside!.split(/,\s*/));
  }
  return values.filter((value) => value.trim().length >= 3).sort((a, b) => b.length - a.length);
}

/** A driver message without values: those of `detail`, and every quoted literal that is not an identifier. */
export function maskDriverMessage(message: string, detail?: unknown): string {
  let masked = message;
  for (const value of detailValues(detail)) masked = masked.split(value).join(MASK);
  return masked.replace(/"(?:[^"]|"")*"/g, (quoted, offset: number) =>
    IDENTIFIER_NOUNS.test(masked.slice(0, offset)) ? quoted : `"${MASK}"`,
  );
}

function driverFields(err: Error & { code?: unknown; detail?: unknown }): Serialized {
  return {
    type: err.constructor?.name ?? err.name,
    code: typeof err.code === 'string' || typeof err.code === 'number' ? err.code : undefined,
    message: maskDriverMessage(err.message, err.detail),
  };
}

function serializeDatabaseError(err: Error): Serialized {
  if (err instanceof DrizzleQueryError) {
    const driver = causes(err).slice(1).find(isDriverError);
    return {
      type: 'DrizzleQueryError',
      message: `Failed query: ${err.query}`,
      sql: err.query,
      stack: frames(err),
      ...(driver ? { driver: driverFields(driver) } : {}),
    };
  }
  return { ...driverFields(err), stack: frames(err) };
}

/** Wrappers of a database error (a TRPCError made from it copies its message): no text, only where. */
function serializeWrapper(err: Error, inner: Error): Serialized {
  const cause = causes(err)[1];
  return {
    type: err.constructor?.name ?? err.name,
    ...('code' in err && typeof err.code === 'string' ? { code: err.code } : {}),
    stack: frames(err),
    cause:
      cause === undefined
        ? undefined
        : cause === inner || isDatabaseError(cause)
          ? serializeDatabaseError(cause)
          : serializeError(cause),
  };
}

/** pino's standard shape: type, message and stack with their causes, and the error's own fields. */
function serializeOther(err: Error): Serialized {
  const chain = causes(err);
  const out: Serialized = {
    type: err.constructor?.name ?? err.name,
    message: chain
      .map((e) => e.message)
      .filter(Boolean)
      .join(': '),
    stack: chain.map((e, i) => (i === 0 ? e.stack : `caused by: ${e.stack}`)).join('\n'),
  };
  const { errors } = err as { errors?: unknown };
  if (Array.isArray(errors)) out.aggregateErrors = errors.map(serializeError);
  for (const key of Object.keys(err)) {
    if (key === 'cause' || key in out) continue;
    const value = (err as unknown as Record<string, unknown>)[key];
    out[key] = isErrorLike(value) ? serializeError(value) : value;
  }
  return out;
}

/** The `err` serializer: database errors without their values, any other error as pino logs it. */
export function serializeError(err: unknown): unknown {
  if (!isErrorLike(err)) return err;
  const chain = causes(err);
  const inner = chain.find(isDatabaseError);
  if (!inner) return serializeOther(err);
  return inner === err ? serializeDatabaseError(err) : serializeWrapper(err, inner);
}

type SerializedError = { type: string; message: string; stack: string; [key: string]: unknown };

/** For Fastify's `logger.serializers` (whose type expects pino's shape). */
export const logSerializers = { err: (err: FastifyError) => serializeError(err) as SerializedError };
