// A pg pool whose connections go to the writers' lane first (server/db/lanes.ts, decision 0054). Every
// checkout — a query's or a transaction's — takes a permit first: a request that may write takes any of
// the `max` permits and is served before every waiting reader; readers share `max - reservedForWriters`,
// so a write never waits for a read to finish while the pool is full of reads. Without a free permit the
// checkout waits, up to `connectionTimeoutMillis`, then fails as pg-pool's own wait does (the request is
// answered 503, server/db/connection-lost.ts). pg-pool's `query` checks out through `connect`, so both
// doors pass the gate.
import pg from 'pg';
import { isWritersLane } from '../lanes';

interface Waiter {
  grant(): void;
  timer: NodeJS.Timeout | undefined;
}

type ConnectCallback = (error: Error | undefined, client?: pg.PoolClient, release?: () => void) => void;

export class PriorityPool extends pg.Pool {
  readonly #max: number;
  readonly #readersMax: number;
  readonly #timeoutMs: number;
  #inUse = 0;
  #readersInUse = 0;
  readonly #writers: Waiter[] = [];
  readonly #readers: Waiter[] = [];

  constructor(config: pg.PoolConfig & { max: number }, reservedForWriters: number) {
    super(config);
    this.#max = config.max;
    this.#readersMax = Math.max(1, config.max - reservedForWriters);
    this.#timeoutMs = config.connectionTimeoutMillis ?? 0;
  }

  /** Checkouts waiting for a permit, and those pg-pool itself keeps waiting. */
  waiting(): number {
    return this.#writers.length + this.#readers.length + this.waitingCount;
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const writer = isWritersLane();
    const checkout = this.#permit(writer).then(async () => {
      let client: pg.PoolClient;
      try {
        client = await super.connect();
      } catch (error) {
        this.#free(writer);
        throw error;
      }
      const release = client.release;
      let freed = false;
      client.release = (error?: Error | boolean) => {
        if (!freed) {
          freed = true;
          this.#free(writer);
        }
        return release.call(client, error);
      };
      return client;
    });
    if (!callback) return checkout;
    checkout.then(
      (client) => callback(undefined, client, () => client.release()),
      (error: Error) => callback(error),
    );
  }

  #permit(writer: boolean): Promise<void> {
    if (this.#available(writer) && (writer ? this.#writers : this.#readers).length === 0) {
      this.#take(writer);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const queue = writer ? this.#writers : this.#readers;
      const waiter: Waiter = {
        grant: () => {
          if (waiter.timer) clearTimeout(waiter.timer);
          this.#take(writer);
          resolve();
        },
        timer: undefined,
      };
      if (this.#timeoutMs > 0) {
        waiter.timer = setTimeout(() => {
          queue.splice(queue.indexOf(waiter), 1);
          // pg-pool's words for the same wait, which connection-lost.ts recognises.
          reject(new Error('timeout exceeded when trying to connect'));
        }, this.#timeoutMs);
        waiter.timer.unref();
      }
      queue.push(waiter);
    });
  }

  #available(writer: boolean): boolean {
    return (
      this.#inUse < this.#max &&
      (writer || (this.#readersInUse < this.#readersMax && this.#writers.length === 0))
    );
  }

  #take(writer: boolean): void {
    this.#inUse += 1;
    if (!writer) this.#readersInUse += 1;
  }

  #free(writer: boolean): void {
    this.#inUse -= 1;
    if (!writer) this.#readersInUse -= 1;
    while (this.#writers.length > 0 && this.#available(true)) this.#writers.shift()!.grant();
    while (this.#readers.length > 0 && this.#available(false)) this.#readers.shift()!.grant();
  }
}
