// What the runtime keeps of a resend's answer (docs/decisions/0048-offline-store.md): a stale edit's 409
// keeps its fields and both values with the entry, in the encrypted store; a 401 (the session ended) wipes
// the store, the waiting changes with it, and keeps only their number for the log-in page.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EDIT_CONFLICT_MESSAGE } from '#shared/dto/edit-conflict';
import { offlineStore, outbox, send, wipeOffline } from './runtime';
import { clearUnsent, unsentCount } from './unsent-notice';

const KEY = Buffer.alloc(32, 9).toString('base64url');
const champs = [
  { champ: 'description', valeurActuelle: 'Valeur du serveur', votreValeur: 'Valeur hors ligne' },
];

/** A tRPC error answer as the server's error formatter writes it (server/trpc/init.ts). */
function answer(status: number, code: string, message: string, details?: unknown): Response {
  const body = { error: { message, code: -32000, data: { code, httpStatus: status, details } } };
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function sessionStorageStub(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    key: (i) => [...items.keys()][i] ?? null,
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, String(v)),
    removeItem: (k) => void items.delete(k),
    clear: () => items.clear(),
  };
}

const update = (text: string) => ({ code: 'SIG-1', patch: { description: text }, expectedVersion: 3 });

describe('offline runtime', () => {
  beforeEach(async () => {
    vi.stubGlobal('sessionStorage', sessionStorageStub());
    await wipeOffline('logout');
    await offlineStore.adopt(KEY, new Date(Date.now() + 86_400_000).toISOString());
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('keeps a stale edit’s conflict with the entry, encrypted in the store', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(answer(409, 'CONFLICT', EDIT_CONFLICT_MESSAGE, { version: 4, champs }))),
    );
    await outbox.enqueue('signalements.update', update('Valeur hors ligne'), 'k1');
    await outbox.flush(true);

    const expected = { refused: EDIT_CONFLICT_MESSAGE, conflict: { version: 4, champs } };
    expect(outbox.list()[0]).toMatchObject(expected);
    // Read back from the store, as a reopened tab would.
    const stored = await offlineStore.all('outbox');
    expect(stored[0]!.value).toMatchObject(expected);
    expect(outbox.size).toBe(1);
  });

  it('keeps only the message of a refusal that is not a conflict', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(answer(400, 'BAD_REQUEST', 'Au moins un sujet est obligatoire.'))),
    );
    const outcome = await send({
      id: '1',
      procedure: 'signalements.update',
      input: update('x'),
      idempotencyKey: 'k',
      createdAt: 0,
      attempt: 0,
      nextAt: 0,
    });
    expect(outcome).toEqual({ kind: 'refused', message: 'Au moins un sujet est obligatoire.' });
  });

  it('wipes the store when the session ended, and keeps only how many changes were lost', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(answer(401, 'UNAUTHORIZED', 'Vous devez vous connecter.'))),
    );
    await outbox.enqueue('signalements.update', update('Texte perdu avec la session'), 'k1');
    await outbox.enqueue('notes.create', { signalement: 'SIG-1', contenu: 'Note' }, 'k2');
    await outbox.flush(true);

    await vi.waitFor(() => expect(unsentCount()).toBe(2));
    expect(outbox.size).toBe(0);
    expect(offlineStore.ready).toBe(false);
    expect(await offlineStore.ids('outbox')).toEqual([]);
    // Only the number is kept, never the content.
    expect(
      JSON.stringify(
        [...Array(sessionStorage.length).keys()].map((i) => sessionStorage.getItem(sessionStorage.key(i)!)),
      ),
    ).not.toContain('Texte');

    // A second wipe of the same ended session (the guard's) does not count them twice; a log-out tells nothing.
    await wipeOffline('session-ended');
    expect(unsentCount()).toBe(2);
    clearUnsent();
    await offlineStore.adopt(KEY, new Date(Date.now() + 86_400_000).toISOString());
    await outbox.enqueue('notes.create', { signalement: 'SIG-1', contenu: 'Note' }, 'k3');
    await wipeOffline('logout');
    expect(unsentCount()).toBe(0);
  });

  it('tells the changes of a kept key past its session’s expiry, wiped at start', async () => {
    await outbox.enqueue('notes.create', { signalement: 'SIG-1', contenu: 'Note' }, 'k1');
    // The key expires: the next start finds it past its date.
    await offlineStore.adopt(KEY, new Date(Date.now() - 1).toISOString());
    expect(await offlineStore.open()).toBe(false);
    expect(unsentCount()).toBe(1);
  });
});
