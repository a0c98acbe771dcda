// The encrypted offline store (docs/decisions/0048-offline-store.md): the session's key (a non-extractable
// CryptoKey), and two areas of encrypted entries, the read cache and the outbox. The whole store expires with
// the session that gave its key, and is deleted (data and key) at log-out and when the session ends.
import { importSessionKey, keyFingerprint, seal, unseal, type Sealed } from './crypto';

export type Area = 'cache' | 'outbox';

/** What is kept beside the entries: the key itself (unreadable by script) and until when it may be used. */
export interface StoreMeta {
  key: CryptoKey;
  fingerprint: string;
  expiresAt: number;
}

/** Where the store lives: IndexedDB in the browser (idb-backend.ts), a Map in the unit tests. */
export interface Backend {
  getMeta(): Promise<StoreMeta | undefined>;
  setMeta(meta: StoreMeta): Promise<void>;
  get(area: Area, id: string): Promise<Sealed | undefined>;
  put(area: Area, id: string, sealed: Sealed): Promise<void>;
  remove(area: Area, id: string): Promise<void>;
  /** The ids of an area, in ascending order. */
  ids(area: Area): Promise<string[]>;
  /** Deletes everything, the key included. */
  destroy(): Promise<void>;
}

export class OfflineStore {
  private meta: StoreMeta | null = null;

  constructor(
    private readonly backend: Backend,
    private readonly now: () => number = Date.now,
    /** The store wiped itself for a session that ended (expired, or another one's): its waiting changes. */
    private readonly onSessionLost: (waitingChanges: number) => void = () => undefined,
  ) {}

  /** Whether a key of a live session is loaded (entries can be read and written). */
  get ready(): boolean {
    return this.meta !== null && this.now() < this.meta.expiresAt;
  }

  /**
   * Loads the key kept on the device (a reopen, offline). A key past its session's expiry wipes the
   * store. True when the store can be used.
   */
  async open(): Promise<boolean> {
    const meta = await this.backend.getMeta();
    if (!meta) return false;
    if (this.now() >= meta.expiresAt) {
      this.onSessionLost(await this.wipe());
      return false;
    }
    this.meta = meta;
    return true;
  }

  /**
   * Adopts the key auth.offlineKey gave this session. Another session's store (another user, a log-in
   * again) is wiped first: its entries could not be read anyway.
   */
  async adopt(sessionKey: string, expiresAt: string): Promise<void> {
    const fingerprint = await keyFingerprint(sessionKey);
    const expiry = new Date(expiresAt).getTime();
    const known = this.meta ?? (await this.backend.getMeta());
    if (known && known.fingerprint === fingerprint) {
      this.meta = { ...known, expiresAt: expiry };
    } else {
      if (known) this.onSessionLost(await this.wipe());
      this.meta = { key: await importSessionKey(sessionKey), fingerprint, expiresAt: expiry };
    }
    await this.backend.setMeta(this.meta);
  }

  private key(): CryptoKey | null {
    if (!this.ready) return null;
    return this.meta!.key;
  }

  async put(area: Area, id: string, value: unknown): Promise<boolean> {
    const key = this.key();
    if (!key) return false;
    await this.backend.put(area, id, await seal(key, `${area}/${id}`, value));
    return true;
  }

  async get(area: Area, id: string): Promise<unknown> {
    const key = this.key();
    const sealed = key ? await this.backend.get(area, id) : undefined;
    return sealed && key ? unseal(key, `${area}/${id}`, sealed) : undefined;
  }

  /** Every entry of an area that opens with this key, in id order. */
  async all(area: Area): Promise<{ id: string; value: unknown }[]> {
    const key = this.key();
    if (!key) return [];
    const entries: { id: string; value: unknown }[] = [];
    for (const id of await this.backend.ids(area)) {
      const sealed = await this.backend.get(area, id);
      const value = sealed ? await unseal(key, `${area}/${id}`, sealed) : undefined;
      if (value !== undefined) entries.push({ id, value });
    }
    return entries;
  }

  async remove(area: Area, id: string): Promise<void> {
    await this.backend.remove(area, id);
  }

  async ids(area: Area): Promise<string[]> {
    return this.backend.ids(area);
  }

  /**
   * Deletes data and key; nothing of this session stays on the device. Returns how many outbox entries went
   * with them (their ids are counted, nothing is decrypted).
   */
  async wipe(): Promise<number> {
    this.meta = null;
    const waiting = (await this.backend.ids('outbox').catch(() => [])).length;
    await this.backend.destroy();
    return waiting;
  }
}

/** A Backend in memory: the unit tests', and the fallback where IndexedDB is missing (nothing persists). */
export function memoryBackend(): Backend & { areas: Map<string, Map<string, Sealed>> } {
  let meta: StoreMeta | undefined;
  const areas = new Map<string, Map<string, Sealed>>();
  const area = (name: Area) => {
    let map = areas.get(name);
    if (!map) areas.set(name, (map = new Map()));
    return map;
  };
  return {
    areas,
    getMeta: () => Promise.resolve(meta),
    setMeta: (m) => Promise.resolve(void (meta = m)),
    get: (name, id) => Promise.resolve(area(name).get(id)),
    put: (name, id, sealed) => Promise.resolve(void area(name).set(id, sealed)),
    remove: (name, id) => Promise.resolve(void area(name).delete(id)),
    ids: (name) => Promise.resolve([...area(name).keys()].sort()),
    destroy: () => {
      meta = undefined;
      areas.clear();
      return Promise.resolve();
    },
  };
}
