import { describe, expect, it } from 'vitest';
import { memoryBackend, OfflineStore } from './store';

const KEY_A = Buffer.alloc(32, 1).toString('base64url');
const KEY_B = Buffer.alloc(32, 2).toString('base64url');
const LATER = new Date(Date.now() + 3_600_000).toISOString();

describe('offline store', () => {
  it('keeps values encrypted: a round trip opens, the stored bytes hold no plaintext', async () => {
    const backend = memoryBackend();
    const store = new OfflineStore(backend);
    await store.adopt(KEY_A, LATER);
    await store.put('cache', 'detail', { description: 'Pot-de-vin au guichet de Toamasina' });
    expect(await store.get('cache', 'detail')).toEqual({ description: 'Pot-de-vin au guichet de Toamasina' });
    const sealed = backend.areas.get('cache')!.get('detail')!;
    expect(Buffer.from(sealed.data).toString('latin1')).not.toContain('Toamasina');
  });

  it('reopens with the kept key, and does not open an entry moved to another place', async () => {
    const backend = memoryBackend();
    const first = new OfflineStore(backend);
    await first.adopt(KEY_A, LATER);
    await first.put('outbox', '1', { a: 1 });
    const reopened = new OfflineStore(backend);
    expect(await reopened.open()).toBe(true);
    expect(await reopened.get('outbox', '1')).toEqual({ a: 1 });
    backend.areas.get('outbox')!.set('2', backend.areas.get('outbox')!.get('1')!);
    expect(await reopened.get('outbox', '2')).toBeUndefined();
  });

  it("wipes another session's store when a new key is adopted", async () => {
    const backend = memoryBackend();
    const store = new OfflineStore(backend);
    await store.adopt(KEY_A, LATER);
    await store.put('cache', 'x', 1);
    await store.adopt(KEY_A, LATER);
    expect(await store.get('cache', 'x')).toBe(1);
    await store.adopt(KEY_B, LATER);
    expect(await store.ids('cache')).toEqual([]);
  });

  it('expires with the session: after expiresAt nothing reads and the next start wipes it', async () => {
    let now = Date.now();
    const backend = memoryBackend();
    const store = new OfflineStore(backend, () => now);
    await store.adopt(KEY_A, new Date(now + 1000).toISOString());
    await store.put('cache', 'x', 1);
    now += 1000;
    expect(store.ready).toBe(false);
    expect(await store.get('cache', 'x')).toBeUndefined();
    expect(await store.put('cache', 'y', 2)).toBe(false);
    const next = new OfflineStore(backend, () => now);
    expect(await next.open()).toBe(false);
    expect(await backend.getMeta()).toBeUndefined();
    expect(backend.areas.size).toBe(0);
  });

  it('wipe deletes data and key', async () => {
    const backend = memoryBackend();
    const store = new OfflineStore(backend);
    await store.adopt(KEY_A, LATER);
    await store.put('outbox', '1', 'x');
    await store.wipe();
    expect(store.ready).toBe(false);
    expect(await backend.getMeta()).toBeUndefined();
    expect(await store.ids('outbox')).toEqual([]);
  });
});
