// The error codec of every thread (decision 0024): a thread posts encodeError(error) (encode-error.mjs),
// the main thread throws decodeError(posted). A DomainError keeps its kind, French message and details (so
// its status: the deadline's 503 included), an HttpError its status and message, any other error its
// name, message, code (SQLITE_BUSY…) and stack.
import { DomainError, HttpError } from '#server/errors';
import type { PostedError } from './encode-error.mjs';

export { encodeError, type PostedError } from './encode-error.mjs';

export function decodeError(posted: PostedError): Error {
  if (posted.name === 'DomainError' && posted.kind)
    return new DomainError(posted.kind, posted.message, posted.details);
  if (posted.name === 'HttpError' && posted.statusCode !== undefined)
    return new HttpError(posted.statusCode, posted.message);
  const error = new Error(posted.message) as Error & { code?: string };
  error.name = posted.name;
  if (posted.code !== undefined) error.code = posted.code;
  if (posted.stack) error.stack = posted.stack;
  return error;
}
