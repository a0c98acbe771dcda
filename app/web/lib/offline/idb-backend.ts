// The offline store's Backend on IndexedDB, hand-written (no wrapper library is installed): one database,
// three object stores (the key, the read cache, the outbox). Values are the sealed entries of store.ts.
import type { Sealed } from './crypto';
import type { Area, Backend, StoreMeta } from './store';

export const OFFLINE_DB_NAME = 'signalements-hors-ligne';
const META = 'meta';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB'));
  });
}

export function indexedDbBackend(factory: IDBFactory = indexedDB): Backend {
  let db: Promise<IDBDatabase> | null = null;

  const open = (): Promise<IDBDatabase> => {
    db ??= new Promise((resolve, reject) => {
      const req = factory.open(OFFLINE_DB_NAME, 1);
      req.onupgradeneeded = () => {
        for (const name of [META, 'cache', 'outbox']) req.result.createObjectStore(name);
      };
      req.onsuccess = () => {
        const opened = req.result;
        // Another tab deleting the store (its log-out) must not wait for this one.
        opened.onversionchange = () => {
          opened.close();
          db = null;
        };
        resolve(opened);
      };
      req.onerror = () => {
        db = null;
        reject(req.error ?? new Error('IndexedDB'));
      };
    });
    return db;
  };

  // Reading must not create the database again after a wipe (a log-out leaves no store behind).
  const exists = async (): Promise<boolean> => {
    if (db || typeof factory.databases !== 'function') return true;
    return (await factory.databases()).some((info) => info.name === OFFLINE_DB_NAME);
  };

  const read = async <T>(
    name: string,
    action: (store: IDBObjectStore) => IDBRequest<T>,
    absent: T,
  ): Promise<T> => ((await exists()) ? run(name, 'readonly', action) : absent);

  const run = async <T>(
    name: string,
    mode: IDBTransactionMode,
    action: (store: IDBObjectStore) => IDBRequest<T>,
  ): Promise<T> => {
    const store = (await open()).transaction(name, mode).objectStore(name);
    return request(action(store));
  };

  return {
    getMeta: () => read(META, (s) => s.get('key') as IDBRequest<StoreMeta | undefined>, undefined),
    setMeta: async (meta) => void (await run(META, 'readwrite', (s) => s.put(meta, 'key'))),
    get: (area: Area, id) => read(area, (s) => s.get(id) as IDBRequest<Sealed | undefined>, undefined),
    put: async (area: Area, id, sealed) => void (await run(area, 'readwrite', (s) => s.put(sealed, id))),
    remove: async (area: Area, id) => void (await run(area, 'readwrite', (s) => s.delete(id))),
    ids: async (area: Area) => (await read(area, (s) => s.getAllKeys(), [])).map(String),
    async destroy() {
      if (db) {
        const opened = await db.catch(() => null);
        opened?.close();
        db = null;
      }
      await new Promise<void>((resolve) => {
        const req = factory.deleteDatabase(OFFLINE_DB_NAME);
        req.onsuccess = () => resolve();
        req.onerror = () => resolve();
        req.onblocked = () => resolve();
      });
    },
  };
}
