import type { DomainErrorKind } from '#server/errors';

/** An error as a thread posts it (encode-error.mjs). */
export interface PostedError {
  /** 'DomainError', 'HttpError', or the error's own ('SqliteError', 'Error'…). */
  name: string;
  /** French for the user when it is a DomainError or an HttpError. */
  message: string;
  stack?: string;
  /** A DomainError's kind and details: the same HTTP status and answer as on the main thread. */
  kind?: DomainErrorKind;
  details?: Record<string, unknown>;
  /** An HttpError's status. */
  statusCode?: number;
  /** The engine's code (SQLITE_BUSY, SQLITE_CORRUPT…). */
  code?: string;
}

export function encodeError(thrown: unknown): PostedError;
