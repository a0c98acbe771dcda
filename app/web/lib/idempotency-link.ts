// Idempotent creates (decision 0020): each submission of a creation form carries an Idempotency-Key, and a
// submission sent again unchanged (after a failure: no answer, a cut connection, a 500) carries the same
// key, so the server answers with what it created the first time instead of creating it twice. The key
// is forgotten once the server has answered with success: the same form filled the same way later is a
// new submission.
import type { TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { AppRouter } from '#server/trpc/router';

/** Random, without crypto.randomUUID (absent on plain-http pages, which are not a "secure context"). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Submission (procedure and input) → its key, until it succeeds. */
const pending = new Map<string, string>();

export function idempotencyKeyFor(path: string, input: unknown): string {
  const id = `${path}\n${JSON.stringify(input)}`;
  let key = pending.get(id);
  if (!key) {
    key = newIdempotencyKey();
    pending.set(id, key);
  }
  return key;
}

/** The submission is done with its key (succeeded, or kept by the outbox with it). */
export function forgetIdempotencyKey(path: string, input: unknown): void {
  pending.delete(`${path}\n${JSON.stringify(input)}`);
}

/** Puts the submission's key in the operation's context, for the link that sends it as a header. */
export const idempotencyLink: TRPCLink<AppRouter> =
  () =>
  ({ op, next }) =>
    observable((observer) => {
      const idempotencyKey = idempotencyKeyFor(op.path, op.input);
      return next({ ...op, context: { ...op.context, idempotencyKey } }).subscribe({
        next(value) {
          forgetIdempotencyKey(op.path, op.input);
          observer.next(value);
        },
        error(error) {
          observer.error(error);
        },
        complete() {
          observer.complete();
        },
      });
    });
