import { describe, expect, it, vi } from 'vitest';
import { backoffDelay, Outbox, type OutboxEntry, type SendOutcome } from './outbox';
import { memoryBackend, OfflineStore } from './store';

const KEY = Buffer.alloc(32, 7).toString('base64url');

async function setup(answers: (entry: OutboxEntry) => SendOutcome) {
  const store = new OfflineStore(memoryBackend());
  await store.adopt(KEY, new Date(Date.now() + 86_400_000).toISOString());
  const sent: { procedure: string; key: string }[] = [];
  const onSessionEnded = vi.fn();
  const outbox = new Outbox({
    store,
    onSessionEnded,
    send: (entry) => {
      sent.push({ procedure: entry.procedure, key: entry.idempotencyKey });
      return Promise.resolve(answers(entry));
    },
  });
  return { store, outbox, sent, onSessionEnded };
}

describe('outbox', () => {
  it('sends in order, one at a time, and empties', async () => {
    const { outbox, sent } = await setup(() => ({ kind: 'sent' }));
    await outbox.enqueue('signalements.create', { a: 1 }, 'k1');
    await outbox.enqueue('signalements.update', { code: 'X' }, 'k2');
    await outbox.enqueue('notes.create', { code: 'X' }, 'k3');
    await outbox.flush();
    expect(sent.map((s) => s.key)).toEqual(['k1', 'k2', 'k3']);
    expect(outbox.size).toBe(0);
  });

  it('survives a reopen: the entries come back from the store in order', async () => {
    const { store, outbox } = await setup(() => ({ kind: 'retry' }));
    await outbox.enqueue('signalements.create', { a: 1 }, 'k1');
    await outbox.enqueue('signalements.update', { code: 'X' }, 'k2');
    const reopened = new Outbox({ store, send: () => Promise.resolve({ kind: 'sent' }) });
    await reopened.load();
    expect(reopened.list().map((e) => e.idempotencyKey)).toEqual(['k1', 'k2']);
  });

  it('retries a network failure later with a growing delay and the same key', async () => {
    // The clock and the timer are the test's: WebCrypto resolves on its own thread, out of fake timers' reach.
    let now = Date.now();
    const timers: { ms: number; fn: () => void }[] = [];
    const store = new OfflineStore(memoryBackend());
    await store.adopt(KEY, new Date(now + 86_400_000).toISOString());
    let fail = 2;
    const keys: string[] = [];
    const outbox = new Outbox({
      store,
      now: () => now,
      setTimer: (fn, ms) => timers.push({ fn, ms }),
      clearTimer: () => undefined,
      send: (entry) => {
        keys.push(entry.idempotencyKey);
        return Promise.resolve(fail-- > 0 ? { kind: 'retry' } : { kind: 'sent' });
      },
    });
    await outbox.enqueue('signalements.create', { a: 1 }, 'k1');
    await outbox.flush();
    expect(keys).toEqual(['k1']);
    expect(outbox.list()[0]).toMatchObject({ attempt: 1, nextAt: now + backoffDelay(1) });
    expect(timers.at(-1)!.ms).toBe(backoffDelay(1));

    // Too early (another flush, e.g. app start): nothing is sent before the delay.
    now += backoffDelay(1) - 1;
    await outbox.flush();
    expect(keys).toHaveLength(1);
    now += 1;
    await outbox.flush();
    expect(keys).toEqual(['k1', 'k1']);
    expect(timers.at(-1)!.ms).toBe(backoffDelay(2));
    expect(backoffDelay(2)).toBe(2 * backoffDelay(1));

    now += backoffDelay(2);
    timers.at(-1)!.fn();
    await vi.waitFor(() => expect(outbox.size).toBe(0));
    expect(keys).toEqual(['k1', 'k1', 'k1']);
    expect(backoffDelay(50)).toBe(5 * 60_000);
  });

  it('sends at once when the link comes back, whatever the delay', async () => {
    let online = false;
    const { outbox, sent } = await setup(() => (online ? { kind: 'sent' } : { kind: 'retry' }));
    await outbox.enqueue('signalements.create', {}, 'k1');
    await outbox.flush();
    online = true;
    await outbox.flush(true);
    expect(sent).toHaveLength(2);
    expect(outbox.size).toBe(0);
  });

  it('stops at a refused entry with its message; the next ones wait until it is retried or discarded', async () => {
    let refuse = true;
    const { outbox, sent } = await setup((entry) =>
      entry.idempotencyKey === 'k1' && refuse
        ? { kind: 'refused', message: 'Le partenaire est obligatoire.' }
        : { kind: 'sent' },
    );
    await outbox.enqueue('signalements.create', {}, 'k1');
    await outbox.enqueue('signalements.update', { code: 'X' }, 'k2');
    await outbox.flush();
    await outbox.flush(true);
    expect(sent.map((s) => s.key)).toEqual(['k1']);
    expect(outbox.list()[0]).toMatchObject({ refused: 'Le partenaire est obligatoire.' });
    expect(outbox.size).toBe(2);

    refuse = false;
    await outbox.retry(outbox.list()[0]!.id);
    expect(sent.map((s) => s.key)).toEqual(['k1', 'k1', 'k2']);
    expect(outbox.size).toBe(0);
  });

  it('discarding a refused entry lets the next go', async () => {
    const { outbox, sent } = await setup((entry) =>
      entry.idempotencyKey === 'k1' ? { kind: 'refused', message: 'Refusé.' } : { kind: 'sent' },
    );
    await outbox.enqueue('signalements.create', {}, 'k1');
    await outbox.enqueue('notes.create', {}, 'k2');
    await outbox.flush();
    await outbox.discard(outbox.list()[0]!.id);
    expect(sent.map((s) => s.key)).toEqual(['k1', 'k2']);
    expect(outbox.size).toBe(0);
  });

  it('tells when the session ended and sends nothing more (the runtime then wipes the store)', async () => {
    const { outbox, sent, onSessionEnded } = await setup(() => ({ kind: 'unauthenticated' }));
    await outbox.enqueue('signalements.create', {}, 'k1');
    await outbox.enqueue('notes.create', {}, 'k2');
    await outbox.flush();
    expect(onSessionEnded).toHaveBeenCalledOnce();
    // The first 401 stops the queue: the next entry is not sent into an ended session. Whether the entries
    // stay is the runtime's choice: it wipes them with the store and tells how many (runtime.test.ts).
    expect(sent.map((s) => s.key)).toEqual(['k1']);
  });

  it('keeps a stale edit’s conflict with the refused entry, in the store, until it is discarded', async () => {
    const conflict = {
      version: 5,
      champs: [{ champ: 'description', valeurActuelle: 'Serveur', votreValeur: 'Hors ligne' }],
    };
    const { store, outbox } = await setup(() => ({ kind: 'refused', message: 'Conflit.', conflict }));
    await outbox.enqueue('signalements.update', { code: 'X', patch: { description: 'Hors ligne' } }, 'k1');
    await outbox.flush();
    expect(outbox.list()[0]).toMatchObject({ refused: 'Conflit.', conflict });
    const reopened = new Outbox({ store, send: () => Promise.resolve({ kind: 'sent' }) });
    await reopened.load();
    expect(reopened.list()[0]).toMatchObject({ refused: 'Conflit.', conflict });
    await reopened.discard(reopened.list()[0]!.id);
    expect(await store.ids('outbox')).toEqual([]);
  });

  it('waits the first delay for a change whose request just failed on the network', async () => {
    const { outbox, sent } = await setup(() => ({ kind: 'sent' }));
    await outbox.enqueue('signalements.create', {}, 'k1', true);
    expect(outbox.list()[0]).toMatchObject({ attempt: 1 });
    expect(outbox.list()[0]!.nextAt).toBeGreaterThan(Date.now());
    await outbox.flush();
    expect(sent).toHaveLength(0);
    await outbox.flush(true);
    expect(sent).toHaveLength(1);
  });
});
