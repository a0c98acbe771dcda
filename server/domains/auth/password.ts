import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import { DomainError } from '../../errors';

// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane).
const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const BUSY_MESSAGE = 'Le serveur est très sollicité. Veuillez réessayer dans un instant.';

export const isBusy = (error: unknown) => error instanceof DomainError && error.message === BUSY_MESSAGE;

/**
 * Password hashing is the costliest thing a request can ask for. At most `running` hashes run at
 * once (one per core), at most `waiting` wait for their turn, and one client address holds at most
 * `perKey` of those places; beyond that the request is refused at once with 429. A flood from one
 * address thus occupies two places and never queues its work in front of other people's log-ins.
 * The per-address and per-account limits (throttle.ts) are taken before anything reaches this gate.
 */
export class HashGate {
  private active = 0;
  private readonly queue: Array<() => void> = [];
  private readonly perKeyInFlight = new Map<string, number>();
  /** How many hashes or verifications were started, for tests and the security model's figures. */
  started = 0;

  constructor(
    readonly running = Math.max(1, availableParallelism()),
    readonly waiting = 32,
    readonly perKey = 2,
  ) {}

  async run<T>(work: () => Promise<T>, key?: string): Promise<T> {
    const mine = key === undefined ? 0 : (this.perKeyInFlight.get(key) ?? 0);
    const full = this.active >= this.running && this.queue.length >= this.waiting;
    if (mine >= this.perKey || full) {
      throw new DomainError('too_many_requests', BUSY_MESSAGE, { retryAfterSeconds: 1 });
    }
    if (key !== undefined) this.perKeyInFlight.set(key, mine + 1);
    try {
      if (this.active >= this.running) await new Promise<void>((resolve) => this.queue.push(resolve));
      else this.active += 1;
      this.started += 1;
      try {
        return await work();
      } finally {
        const next = this.queue.shift();
        if (next) next(); // the slot passes to the next in line
        else this.active -= 1;
      }
    } finally {
      if (key !== undefined) {
        const left = (this.perKeyInFlight.get(key) ?? 1) - 1;
        if (left > 0) this.perKeyInFlight.set(key, left);
        else this.perKeyInFlight.delete(key);
      }
    }
  }
}

export const hashGate = new HashGate();

/** `key` (the client address) bounds what one client holds of the gate. */
export function hashPassword(password: string, key?: string): Promise<string> {
  return hashGate.run(() => argon2.hash(password, OPTIONS), key);
}

export async function verifyPassword(hash: string, password: string, key?: string): Promise<boolean> {
  return hashGate.run(async () => {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }, key);
}

let dummyHash: Promise<string> | undefined;
/** Verifies against a throw-away hash so an unknown e-mail costs as much time as a wrong password. */
export async function burnPasswordCheck(password: string, key?: string): Promise<void> {
  dummyHash ??= argon2.hash('mot-de-passe-factice-pour-egaliser-le-temps', OPTIONS);
  await verifyPassword(await dummyHash, password, key);
}

/** A readable random password (for the first administrator), about 100 bits. */
export function generatePassword(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  const chars = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5, 10)}-${chars.slice(10, 15)}-${chars.slice(15, 20)}`;
}
