// Helpers of the offline store's browser tests (docs/decisions/0048-offline-store.md): the store's raw
// IndexedDB records, every string the page's storage holds, and reads or changes through tRPC from the test
// (the page's own requests may be offline).
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export const OFFLINE_DB = 'signalements-hors-ligne';
export const QUEUED = "Modification enregistrée sur cet appareil, en attente d'envoi.";
/** What Chromium logs of the requests that fail offline or on an aborted route. */
export const NETWORK_ERRORS =
  /ERR_INTERNET_DISCONNECTED|ERR_FAILED|Failed to fetch|Failed to load resource|net::/;

/** Waits until this session's key is kept on the device (auth.offlineKey answered, store created). */
export async function storeReady(page: Page): Promise<void> {
  // expect.poll, not page.waitForFunction: an async predicate's promise counts as truthy there at once.
  await expect
    .poll(() =>
      page.evaluate(async (name) => (await indexedDB.databases()).some((db) => db.name === name), OFFLINE_DB),
    )
    .toBe(true);
}

/** The keys of one object store of the offline store ('cache' or 'outbox'), as IndexedDB holds them. */
export function rawKeys(page: Page, area: 'cache' | 'outbox'): Promise<string[]> {
  return page.evaluate(
    async ({ name, area }) => {
      if (!(await indexedDB.databases()).some((db) => db.name === name)) return [];
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(name);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(new Error(name));
      });
      try {
        return await new Promise<string[]>((resolve, reject) => {
          const req = db.transaction(area, 'readonly').objectStore(area).getAllKeys();
          req.onsuccess = () => resolve(req.result.map(String));
          req.onerror = () => reject(new Error(area));
        });
      } finally {
        db.close();
      }
    },
    { name: OFFLINE_DB, area },
  );
}

/** Every string the page's storage holds: IndexedDB (all databases, all stores), Web Storage, Cache Storage. */
export function readAllStorage(page: Page): Promise<{ text: string; databases: string[] }> {
  return page.evaluate(async () => {
    const parts: string[] = [];
    const decoder = new TextDecoder();
    const dump = (value: unknown): void => {
      if (value instanceof ArrayBuffer) parts.push(decoder.decode(value));
      else if (ArrayBuffer.isView(value)) parts.push(decoder.decode(value));
      else if (value && typeof value === 'object') for (const v of Object.values(value)) dump(v);
      else parts.push(String(value));
    };
    const databases = (await indexedDB.databases()).map((d) => d.name ?? '');
    for (const name of databases) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(name);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(new Error(name));
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const [keys, values] = await Promise.all(
          ['getAllKeys', 'getAll'].map(
            (method) =>
              new Promise<unknown[]>((resolve) => {
                const req = db.transaction(store).objectStore(store)[method as 'getAll']();
                req.onsuccess = () => resolve(req.result as unknown[]);
              }),
          ),
        );
        keys!.forEach(dump);
        values!.forEach(dump);
      }
      db.close();
    }
    for (const storage of [localStorage, sessionStorage])
      for (let i = 0; i < storage.length; i++)
        parts.push(storage.key(i) ?? '', storage.getItem(storage.key(i)!) ?? '');
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        parts.push(request.url, await (await cache.match(request))!.text());
      }
    }
    return { text: parts.join('\n'), databases };
  });
}

/** A tRPC query with the page's session, from the test; its answer's data. */
export async function trpcQuery(page: Page, path: string, input: unknown): Promise<unknown> {
  const url = `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`;
  let res = await page.request.get(url);
  // A 503 is the server's read time bound on this shared machine: asked again, not a failure of the test.
  for (let tries = 0; res.status() === 503 && tries < 5; tries++) res = await page.request.get(url);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { result: { data: unknown } }).result.data;
}

/** A tRPC mutation with the page's session, from the test (same-origin, as the client sends it). */
export async function trpcMutation(page: Page, path: string, input: unknown): Promise<unknown> {
  const res = await page.request.post(`/trpc/${path}`, {
    headers: { 'sec-fetch-site': 'same-origin' },
    data: input,
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { result: { data: unknown } }).result.data;
}

/** How many times `text` occurs in the JSON of a value (a person or a note reached the server once). */
export const occurrences = (value: unknown, text: string): number =>
  JSON.stringify(value).split(text).length - 1;
