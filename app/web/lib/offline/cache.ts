// The read cache (docs/decisions/0048-offline-store.md): the answers of an allow-list of queries are kept
// encrypted in the offline store, and put back into TanStack Query at start, so the screens the user read
// recently open without a network. Hand-written (no persister package is installed): a few lines over the
// query cache's events. Nothing about people is kept (authors, victims, sources, notes, history, journal).
import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import { OPTION_LIST_SIZE } from '#shared/constants';
import type { OfflineStore } from './store';

/** Procedure → how many answers of it are kept (the most recent ones). */
export const PERSISTED_QUERIES: Readonly<Record<string, number>> = {
  'auth.session': 1,
  'signalements.list': 10,
  'signalements.get': 20,
  // The detail's location card, for the same reports as their detail.
  'signalements.localisation': 20,
  'referentiels.subjects': 1,
  'referentiels.canals': 1,
  'referentiels.niveaux': 1,
  'referentiels.statuts': 1,
  'referentiels.resultats': 1,
  'referentiels.regions': 1,
  // The report form's partner picker (its first page, without a search), for a report created offline after
  // a reopen; kept without the partners' e-mail and phone (projected below).
  'partenaires.list': 1,
};

/** The part of an answer that is kept, or undefined when this answer is not kept at all. */
const PROJECTIONS: Readonly<Record<string, (queryKey: QueryKey, data: unknown) => unknown>> = {
  'partenaires.list': (queryKey, data) => {
    const input = (queryKey[1] as { input?: Record<string, unknown> } | undefined)?.input;
    if (!input || input.search !== undefined || input.page !== 1 || input.itemsPerPage !== OPTION_LIST_SIZE) {
      return undefined;
    }
    const answer = data as { items: Array<Record<string, unknown>>; total: number };
    return {
      ...answer,
      items: answer.items.map((partner) => ({ ...partner, email: null, phoneNumber: null })),
    };
  },
};

interface CachedAnswer {
  queryKey: QueryKey;
  data: unknown;
  dataUpdatedAt: number;
}

/** `signalements.get` for a tRPC query key ([['signalements', 'get'], { input, type }]). */
export function procedureOf(queryKey: QueryKey): string | null {
  const path = queryKey[0];
  return Array.isArray(path) && path.every((p) => typeof p === 'string') ? path.join('.') : null;
}

export const isPersisted = (queryKey: QueryKey): boolean => {
  const procedure = procedureOf(queryKey);
  return procedure !== null && Object.hasOwn(PERSISTED_QUERIES, procedure);
};

/** The entry's id shows the procedure only; the input (a report code, a search) is hashed. */
async function entryId(procedure: string, queryKey: QueryKey): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(queryKey)));
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  return `${procedure}|${hex}`;
}

/** What is kept of an answer of `procedure` (undefined: nothing). */
export function keptData(procedure: string, queryKey: QueryKey, data: unknown): unknown {
  if (!Object.hasOwn(PERSISTED_QUERIES, procedure)) return undefined;
  const project = PROJECTIONS[procedure];
  return project ? project(queryKey, data) : data;
}

async function save(store: OfflineStore, query: Query): Promise<void> {
  const procedure = procedureOf(query.queryKey);
  if (!procedure || query.state.data === undefined) return;
  const data = keptData(procedure, query.queryKey, query.state.data);
  if (data === undefined) return;
  const id = await entryId(procedure, query.queryKey);
  const answer: CachedAnswer = {
    queryKey: query.queryKey,
    data,
    dataUpdatedAt: query.state.dataUpdatedAt,
  };
  if (!(await store.put('cache', id, answer))) return;
  const limit = PERSISTED_QUERIES[procedure] ?? 0;
  const ids = (await store.ids('cache')).filter((other) => other.startsWith(`${procedure}|`));
  if (ids.length <= limit) return;
  const dated = await Promise.all(
    ids.map(async (other) => ({
      id: other,
      at: ((await store.get('cache', other)) as CachedAnswer | undefined)?.dataUpdatedAt ?? 0,
    })),
  );
  dated.sort((a, b) => b.at - a.at);
  for (const { id: old } of dated.slice(limit)) await store.remove('cache', old);
}

/**
 * Keeps the allow-listed answers already in the query cache when the store becomes usable (opened at start,
 * or given this session's key): an answer that arrived before (the session, fetched while the store was
 * still opening) would otherwise wait for its next fetch to be kept. Answers put back from the store are not
 * written again.
 */
export async function persistCurrent(queryClient: QueryClient, store: OfflineStore): Promise<void> {
  if (!store.ready) return;
  for (const query of queryClient.getQueryCache().getAll()) {
    if (query.state.status !== 'success' || !isPersisted(query.queryKey)) continue;
    if (isRestoredAnswer(query.state.dataUpdatedAt)) continue;
    await save(store, query).catch(() => undefined);
  }
}

/** Keeps every successful answer of the allow-list; returns the unsubscribe function. */
export function persistQueries(queryClient: QueryClient, store: OfflineStore): () => void {
  return queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    if (!isPersisted(event.query.queryKey) || !store.ready) return;
    void save(store, event.query).catch(() => undefined);
  });
}

/** When the kept answers were put back: an answer dated before is one of them, not a fresh read. */
let restoredAt = 0;

/**
 * Whether an answer dated `dataUpdatedAt` came from the device's store at start rather than from the server
 * in this page's life. A screen that edits (the report's detail) waits for the server's answer while it is
 * on its way, and shows the kept one only when the server cannot be reached.
 */
export function isRestoredAnswer(dataUpdatedAt: number): boolean {
  return dataUpdatedAt > 0 && dataUpdatedAt <= restoredAt;
}

/** Puts the kept answers back, dated as when they were fetched (the banner shows that date). */
export async function restoreQueries(queryClient: QueryClient, store: OfflineStore): Promise<void> {
  restoredAt = Date.now();
  for (const { value } of await store.all('cache')) {
    const answer = value as CachedAnswer;
    if (!isPersisted(answer.queryKey)) continue;
    if (queryClient.getQueryData(answer.queryKey) !== undefined) continue;
    queryClient.setQueryData(answer.queryKey, answer.data, { updatedAt: answer.dataUpdatedAt });
  }
}
