// Password hashing is the costliest thing a request can ask for; this gate shares it fairly between
// client addresses (docs/decisions/0015-security-model.md, "Hashing is bounded").
import { availableParallelism } from 'node:os';
import { DomainError } from '#server/errors';

export const BUSY_MESSAGE = 'Le serveur est très sollicité. Veuillez réessayer dans un instant.';
/** An address already has its share of log-ins in progress: refused before any work. */
export const SHARE_MESSAGE = 'Trop de tentatives de connexion simultanées. Réessayez dans un instant.';

export const isBusy = (error: unknown) => error instanceof DomainError && error.message === BUSY_MESSAGE;

/** One of an address's places, held for a whole log-in; `release` is idempotent. */
export interface HashPlace {
  readonly key: string;
  release(): void;
}

interface KeyState {
  /** Log-ins of this address in progress (admitted, not yet released). */
  places: number;
  /** Hashes of this address running now. */
  running: number;
  /** Hashes of this address waiting for a slot, in arrival order. */
  queue: Array<() => void>;
  /** When this address last got a slot (a sequence number), for round-robin between addresses. */
  lastServed: number;
}

/**
 * At most `running` hashes run at once (one per core) and at most `waiting` wait. One address holds
 * at most `perKey` log-ins in progress: `admit` refuses the next one at once, before it counts an
 * attempt or touches the database, so a flood from one address costs nothing but the refusal. When a
 * slot frees, it goes to the waiting address with the fewest hashes running, then the one served
 * longest ago: another person's log-in waits for at most one hash per busy address, never behind a
 * queue of one address's work.
 */
export class HashGate {
  private active = 0;
  private waitingCount = 0;
  private sequence = 0;
  private readonly keys = new Map<string, KeyState>();
  /** How many hashes or verifications were started, for tests and the security model's figures. */
  started = 0;
  /** Test hook: awaited inside a slot, before the work, so a test can hold slots deterministically. */
  beforeWork: ((key: string) => Promise<void>) | undefined;

  constructor(
    /** Mutable so that a test can narrow the gate to one slot. */
    public running = Math.max(1, availableParallelism()),
    readonly waiting = 32,
    readonly perKey = 2,
  ) {}

  private state(key: string): KeyState {
    let state = this.keys.get(key);
    if (!state) {
      state = { places: 0, running: 0, queue: [], lastServed: -1 };
      this.keys.set(key, state);
    }
    return state;
  }

  private forget(key: string, state: KeyState) {
    if (state.places === 0 && state.running === 0 && state.queue.length === 0) this.keys.delete(key);
  }

  /** Log-ins of `key` in progress (tests). */
  placesOf(key: string): number {
    return this.keys.get(key)?.places ?? 0;
  }

  /** Hashes waiting for a slot, all addresses together (tests). */
  get queued(): number {
    return this.waitingCount;
  }

  /** Takes one of the address's places for a whole log-in, or refuses at once with 429. */
  admit(key: string): HashPlace {
    const state = this.state(key);
    if (state.places >= this.perKey) {
      throw new DomainError('too_many_requests', SHARE_MESSAGE, { retryAfterSeconds: 1 });
    }
    state.places += 1;
    let released = false;
    return {
      key,
      release: () => {
        if (released) return;
        released = true;
        state.places -= 1;
        this.forget(key, state);
      },
    };
  }

  /** Runs `work` in a slot, waiting its turn (fairly between addresses); `key` is the client address. */
  async run<T>(work: () => Promise<T>, key = ''): Promise<T> {
    const state = this.state(key);
    if (this.active < this.running && this.waitingCount === 0) {
      this.active += 1;
      this.take(state);
    } else {
      if (this.waitingCount >= this.waiting) {
        this.forget(key, state);
        throw new DomainError('too_many_requests', BUSY_MESSAGE, { retryAfterSeconds: 1 });
      }
      this.waitingCount += 1;
      // The slot is handed over by `next` (active stays counted), which also counts it as taken.
      await new Promise<void>((resolve) => state.queue.push(resolve));
    }
    try {
      await this.beforeWork?.(key);
      return await work();
    } finally {
      state.running -= 1;
      this.forget(key, state);
      this.next();
    }
  }

  private take(state: KeyState) {
    state.running += 1;
    state.lastServed = ++this.sequence;
    this.started += 1;
  }

  private next() {
    let chosen: KeyState | undefined;
    for (const state of this.keys.values()) {
      if (state.queue.length === 0) continue;
      if (
        !chosen ||
        state.running < chosen.running ||
        (state.running === chosen.running && state.lastServed < chosen.lastServed)
      ) {
        chosen = state;
      }
    }
    if (!chosen) {
      this.active -= 1;
      return;
    }
    this.waitingCount -= 1;
    this.take(chosen);
    chosen.queue.shift()!();
  }
}

export const hashGate = new HashGate();
