// The outbox's tRPC link (docs/decisions/0048-offline-store.md): an allowed change made offline, or whose
// request fails on the network (no answer: not a 4xx or 5xx), or made while earlier changes still wait, is
// kept in the outbox with its idempotency key and answered at once with QueuedOffline, instead of a spinner
// and a lost change. Its input is kept as given and replayed as is. A source or a note of an anonymous report
// is never kept (procedures.ts): offline or on a network failure it answers NeverKeptOffline, and the screen
// keeps what was typed.
import { TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { AppRouter } from '#server/trpc/router';
import { forgetIdempotencyKey, idempotencyKeyFor } from '../idempotency-link';
import { ANONYMOUS_PROTECTED, isOutboxProcedure, mayKeepOnDevice } from './procedures';
import { NeverKeptOffline, QueuedOffline } from './queued';
import { isNetworkFailure, offlineStore, outbox } from './runtime';

export const outboxLink: TRPCLink<AppRouter> =
  () =>
  ({ op, next }) =>
    observable((observer) => {
      if (op.type !== 'mutation' || !isOutboxProcedure(op.path)) return next(op).subscribe(observer);
      if (!mayKeepOnDevice(op.path, op.input, op.context, outbox.list())) {
        return sendOnly(ANONYMOUS_PROTECTED[op.path] ?? '', op, next, observer);
      }
      let cancelled = false;
      const queue = (failure?: unknown) => {
        const key = idempotencyKeyFor(op.path, op.input);
        void outbox.enqueue(op.path, op.input, key, failure !== undefined).then(
          (kept) => {
            if (cancelled) return;
            if (!kept) {
              observer.error(TRPCClientError.from(failure instanceof Error ? failure : new Error('offline')));
              return;
            }
            // Each queued submission is its own change; the outbox keeps its key.
            forgetIdempotencyKey(op.path, op.input);
            observer.error(TRPCClientError.from(new QueuedOffline()));
            // Online (a request that failed, or one behind waiting changes): the queue goes on by itself.
            if (navigator.onLine) void outbox.flush();
          },
          (error: unknown) =>
            observer.error(TRPCClientError.from(error instanceof Error ? error : new Error(String(error)))),
        );
      };
      // Offline, or behind changes that still wait (they go first, in order).
      if (offlineStore.ready && (!navigator.onLine || outbox.size > 0)) {
        queue();
        return () => {
          cancelled = true;
        };
      }
      const subscription = next(op).subscribe({
        next: (value) => observer.next(value),
        error: (error) => {
          if (offlineStore.ready && isNetworkFailure(error)) queue(error);
          else observer.error(error);
        },
        complete: () => observer.complete(),
      });
      return () => {
        cancelled = true;
        subscription.unsubscribe();
      };
    });

type LinkArgs = Parameters<ReturnType<TRPCLink<AppRouter>>>[0];
type LinkObserver = Parameters<ReturnType<LinkArgs['next']>['subscribe']>[0];

/** A change never kept on the device: sent if the link is up; offline or failing, NeverKeptOffline. */
function sendOnly(message: string, op: LinkArgs['op'], next: LinkArgs['next'], observer: LinkObserver) {
  const neverKept = () => TRPCClientError.from(new NeverKeptOffline(message));
  if (!navigator.onLine) {
    observer.error?.(neverKept());
    return () => undefined;
  }
  const subscription = next(op).subscribe({
    next: (value) => observer.next?.(value),
    error: (error) => observer.error?.(isNetworkFailure(error) ? neverKept() : error),
    complete: () => observer.complete?.(),
  });
  return () => subscription.unsubscribe();
}
