// The offline store of this tab (docs/decisions/0048-offline-store.md): opened at start, given the session's
// key once the session is known, wiped at log-out and when the session ends (the changes still waiting go
// with it: at log-out after the confirmation said how many, at the session's end told on the log-in page);
// the outbox that uses it, sent at start, when the link comes back, and on its backoff timer.
import type { QueryClient } from '@tanstack/react-query';
import { createTRPCUntypedClient, httpLink, TRPCClientError } from '@trpc/client';
import { IDEMPOTENT_CREATES } from '#shared/constants';
import { editConflictOf } from '#web/features/signalement/detail/edit-conflict';
import { persistCurrent, persistQueries, restoreQueries } from './cache';
import { indexedDbBackend } from './idb-backend';
import { Outbox, type OutboxEntry, type SendOutcome } from './outbox';
import { memoryBackend, OfflineStore } from './store';
import { noteUnsent } from './unsent-notice';

export const offlineStore = new OfflineStore(
  typeof indexedDB === 'undefined' ? memoryBackend() : indexedDbBackend(),
  Date.now,
  // A kept key past its session's expiry, or another session's store: its waiting changes are told.
  noteUnsent,
);

const withCookie = (url: URL | RequestInfo, options?: RequestInit) =>
  fetch(url, { ...options, credentials: 'include' });
const idempotent = new Set(IDEMPOTENT_CREATES);

/** Replays outside the app's links (which would queue them again), one request per entry. */
const replayClient = createTRPCUntypedClient({
  links: [
    httpLink({
      url: '/trpc',
      fetch: withCookie,
      headers: ({ op }) => {
        const key = op.context.idempotencyKey;
        return typeof key === 'string' ? { 'idempotency-key': key } : {};
      },
    }),
  ],
});

const REFUSED_FALLBACK = 'Le serveur a refusé cette modification.';

/** A thrown error of a tRPC call: no answer at all (the network), or the answer's HTTP status. */
export function httpStatusOf(error: unknown): number | null {
  if (!(error instanceof TRPCClientError)) return null;
  const data = (error as TRPCClientError<never>).data as { httpStatus?: unknown } | undefined;
  if (data && typeof data.httpStatus === 'number') return data.httpStatus;
  const response = (error.meta as { response?: { status?: unknown } } | undefined)?.response;
  return response && typeof response.status === 'number' ? response.status : null;
}

export const isNetworkFailure = (error: unknown): boolean =>
  error instanceof TRPCClientError && httpStatusOf(error) === null;

let onSent: (entry: OutboxEntry) => void = () => undefined;

/** Sends one entry again (exported for its unit test): what the outbox keeps of the answer. */
export async function send(entry: OutboxEntry): Promise<SendOutcome> {
  try {
    await replayClient.mutation(entry.procedure, entry.input, {
      context: idempotent.has(entry.procedure) ? { idempotencyKey: entry.idempotencyKey } : {},
    });
    onSent(entry);
    return { kind: 'sent' };
  } catch (error) {
    const status = httpStatusOf(error);
    if (status === 401) return { kind: 'unauthenticated' };
    if (status !== null && status >= 400 && status < 500) {
      const message = error instanceof Error && error.message.trim() ? error.message : REFUSED_FALLBACK;
      // A stale edit (409): its fields and both values stay with the entry, for the panel to show.
      const conflict = status === 409 ? editConflictOf(error) : null;
      return {
        kind: 'refused',
        message: status === 413 ? REFUSED_FALLBACK : message,
        ...(conflict ? { conflict } : {}),
      };
    }
    return { kind: 'retry' };
  }
}

export const outbox = new Outbox({
  store: offlineStore,
  send,
  onSessionEnded: () => {
    // The guard then asks for the session again, finds none and shows the log-in page with the notice.
    void wipeOffline('session-ended').then(() =>
      client?.invalidateQueries({ queryKey: [['auth', 'session']] }),
    );
  },
});

let started: Promise<void> | null = null;
let adoptedFor: string | null = null;
let client: QueryClient | null = null;

/** At start, before the first render: the kept key, outbox and answers of this device, then a first send. */
export function startOffline(queryClient: QueryClient): Promise<void> {
  started ??= (async () => {
    client = queryClient;
    onSent = () => {
      void queryClient.invalidateQueries({ queryKey: [['signalements']] });
      void queryClient.invalidateQueries({ queryKey: [['notes']] });
    };
    persistQueries(queryClient, offlineStore);
    window.addEventListener('online', () => void outbox.flush(true));
    try {
      if (await offlineStore.open()) {
        await outbox.load();
        await restoreQueries(queryClient, offlineStore);
        await persistCurrent(queryClient, offlineStore);
      }
    } catch {
      // No IndexedDB (private mode, quota): the app works online, without its offline store.
    }
    if (navigator.onLine) void outbox.flush(true);
  })();
  return started;
}

/** How long the app waits for the device's store at start (a first render, a log-out's question). */
const OFFLINE_START_LIMIT_MS = 1500;

/** Settles once the start has loaded the kept outbox (at once if it never started), or after the limit. */
export function offlineStarted(): Promise<void> {
  const limit = new Promise<void>((resolve) => setTimeout(resolve, OFFLINE_START_LIMIT_MS));
  return Promise.race([started ?? Promise.resolve(), limit]);
}

/** Once per session (of this user): fetch the session's key, keep it, send what waits. */
export async function adoptSessionKey(userId: string): Promise<void> {
  if (adoptedFor === userId) return;
  adoptedFor = userId;
  try {
    await started;
    const answer = (await replayClient.query('auth.offlineKey', undefined)) as {
      key: string;
      expiresAt: string;
    } | null;
    // No key: the session ended meanwhile (a log-out here or in another tab).
    if (answer === null) return await wipeOffline('session-ended');
    const hadKey = offlineStore.ready;
    await offlineStore.adopt(answer.key, answer.expiresAt);
    if (!hadKey) await outbox.load();
    if (client) await persistCurrent(client, offlineStore);
    void outbox.flush(true);
  } catch {
    adoptedFor = null;
  }
}

let wiping: Promise<void> = Promise.resolve();

/**
 * Log-out or the end of the session: data and key leave the device, the outbox with them. At the session's
 * end (not a log-out, whose confirmation already said it), the number of changes that were still waiting is
 * kept for the log-in page (unsent-notice.ts). Wipes run one after the other, so that one session's changes
 * are counted once.
 */
export function wipeOffline(reason: 'logout' | 'session-ended'): Promise<void> {
  adoptedFor = null;
  const waiting = outbox.size;
  outbox.reset();
  wiping = wiping.then(async () => {
    const stored = await offlineStore.wipe().catch(() => 0);
    if (reason === 'session-ended') noteUnsent(Math.max(waiting, stored));
  });
  return wiping;
}
