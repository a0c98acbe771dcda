// The outbox of changes made offline (docs/decisions/0048-offline-store.md). Entries are kept encrypted in
// the offline store and sent in order, one at a time, each with the same idempotency key on every try, so a
// create reaches the server once. A network failure (or a 5xx) retries later with a growing delay; an answer
// refusing the change (4xx) stops that entry with the server's French message until the user retries or
// discards it, and the entries after it wait: a later change may depend on it (a person added to a report
// whose change was refused), so none jumps the queue.
import type { EditConflictDto } from '#shared/dto/edit-conflict';
import type { OfflineStore } from './store';

/** An edit refused as stale (409): the report's version now and, per field sent, both values. */
export type OutboxConflict = Pick<EditConflictDto, 'version' | 'champs'>;

export interface OutboxEntry {
  id: string;
  procedure: string;
  /** Given to the server exactly as the caller wrote it (opaque: an update's expectedVersion included). */
  input: unknown;
  idempotencyKey: string;
  createdAt: number;
  attempt: number;
  /** Not sent before this time (backoff after a network failure). */
  nextAt: number;
  /** The server refused it: its French message. The entry waits for Réessayer or Abandonner. */
  refused?: string;
  /** The refusal was an edit conflict: its fields, kept (encrypted) with the entry for the panel. */
  conflict?: OutboxConflict;
}

export type SendOutcome =
  | { kind: 'sent' }
  /** No answer (offline, cut connection) or a server failure (5xx): try again later. */
  | { kind: 'retry' }
  /** The server answered no (4xx) with this French message (and, for a stale edit, the conflict). */
  | { kind: 'refused'; message: string; conflict?: OutboxConflict }
  /** The session ended (401): nothing can be sent; the runtime wipes the store, entries included. */
  | { kind: 'unauthenticated' };

export type Send = (entry: OutboxEntry) => Promise<SendOutcome>;

export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_MAX_MS = 5 * 60_000;

/** Delay before the next try after `attempt` failed tries: 2 s, 4 s, 8 s… up to 5 min. */
export const backoffDelay = (attempt: number): number =>
  Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));

export interface OutboxOptions {
  store: OfflineStore;
  send: Send;
  now?: () => number;
  /** The session ended while sending: nothing more is sent; the runtime wipes the store (and says so). */
  onSessionEnded?: () => void;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export class Outbox {
  private entries: OutboxEntry[] = [];
  private listeners = new Set<() => void>();
  private flushing: Promise<void> | null = null;
  private timer: unknown = null;
  private lastId = 0;
  private readonly now: () => number;

  constructor(private readonly options: OutboxOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The entries in sending order (a copy, for the panel). */
  list(): readonly OutboxEntry[] {
    return this.entries;
  }

  get size(): number {
    return this.entries.length;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.entries = [...this.entries];
    for (const listener of this.listeners) listener();
  }

  /** Reads the entries kept on the device (a reopened tab). */
  async load(): Promise<void> {
    const stored = await this.options.store.all('outbox');
    this.entries = stored.map(({ value }) => value as OutboxEntry).sort((a, b) => a.id.localeCompare(b.id));
    this.changed();
  }

  /** Forgets the entries in memory (the store was wiped). */
  reset(): void {
    this.entries = [];
    this.cancelTimer();
    this.changed();
  }

  /** Ids sort in creation order, even for two entries of the same millisecond. */
  private nextId(): string {
    const id = Math.max(this.now(), this.lastId + 1);
    this.lastId = id;
    return String(id).padStart(15, '0');
  }

  /**
   * Queues a change; false when the store cannot keep it (no session key on this device). `failedOnce`: its
   * first request just failed on the network, so it waits the first backoff delay.
   */
  async enqueue(
    procedure: string,
    input: unknown,
    idempotencyKey: string,
    failedOnce = false,
  ): Promise<boolean> {
    const now = this.now();
    const entry: OutboxEntry = {
      id: this.nextId(),
      procedure,
      input,
      idempotencyKey,
      createdAt: now,
      attempt: failedOnce ? 1 : 0,
      nextAt: failedOnce ? now + backoffDelay(1) : now,
    };
    if (!(await this.options.store.put('outbox', entry.id, entry))) return false;
    this.entries.push(entry);
    this.changed();
    return true;
  }

  private async save(entry: OutboxEntry): Promise<void> {
    const index = this.entries.findIndex((e) => e.id === entry.id);
    if (index >= 0) this.entries[index] = entry;
    await this.options.store.put('outbox', entry.id, entry);
    this.changed();
  }

  private async drop(id: string): Promise<void> {
    this.entries = this.entries.filter((e) => e.id !== id);
    await this.options.store.remove('outbox', id);
    this.changed();
  }

  /** Sends what is due, in order, one at a time. `force` ignores the backoff (the link came back). */
  flush(force = false): Promise<void> {
    this.flushing ??= this.run(force).finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async run(force: boolean): Promise<void> {
    this.cancelTimer();
    for (;;) {
      const head = this.entries[0];
      if (!head || head.refused !== undefined) return;
      if (!force && head.nextAt > this.now()) {
        this.schedule(head.nextAt - this.now());
        return;
      }
      const outcome = await this.options.send(head);
      if (outcome.kind === 'sent') {
        await this.drop(head.id);
        continue;
      }
      if (outcome.kind === 'unauthenticated') {
        this.options.onSessionEnded?.();
        return;
      }
      const attempt = head.attempt + 1;
      if (outcome.kind === 'refused') {
        const conflict = outcome.conflict ? { conflict: outcome.conflict } : {};
        await this.save({ ...head, attempt, refused: outcome.message, ...conflict });
        return;
      }
      const delay = backoffDelay(attempt);
      await this.save({ ...head, attempt, nextAt: this.now() + delay });
      this.schedule(delay);
      return;
    }
  }

  private schedule(ms: number): void {
    this.cancelTimer();
    const set = this.options.setTimer ?? ((fn, delay) => setTimeout(fn, delay));
    this.timer = set(() => {
      this.timer = null;
      void this.flush();
    }, ms);
  }

  private cancelTimer(): void {
    if (this.timer === null) return;
    (this.options.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>)))(this.timer);
    this.timer = null;
  }

  /** « Réessayer »: the refused entry is sent again, with its same key. */
  async retry(id: string): Promise<void> {
    const entry = this.entries.find((e) => e.id === id);
    if (!entry) return;
    const { refused: _refused, conflict: _conflict, ...rest } = entry;
    await this.save({ ...rest, nextAt: this.now() });
    await this.flush(true);
  }

  /** « Abandonner » (after confirmation): the change is forgotten; the next ones go. */
  async discard(id: string): Promise<void> {
    await this.drop(id);
    await this.flush(true);
  }
}
