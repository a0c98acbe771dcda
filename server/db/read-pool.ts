// A few reader threads for SQLite (issue #13, docs/decisions/0021-read-workers.md): every read outside a
// transaction runs on one of them (read-worker.mjs), each with its own connection, so a slow read holds a
// worker, not the event loop. Jobs wait in one FIFO queue and go to the first free worker. Threads start at
// the first read and keep the process alive only while they have work.
import { Worker } from 'node:worker_threads';

export type ReadMode = 'all' | 'values' | 'get' | 'objects' | 'run';

interface Job {
  id: number;
  sql: string;
  params: unknown[];
  mode: ReadMode;
  resolve(rows: unknown): void;
  reject(error: Error): void;
}

interface Reader {
  worker: Worker;
  job: Job | null;
}

/** A reader's error as the engine's: same message and code (SQLITE_BUSY, SQLITE_CORRUPT…). */
class ReadError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'SqliteError';
  }
}

export class ReadPool {
  private readers: Reader[] = [];
  private queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** Readers that died since a reader last answered: past a few, the cause is not transient. */
  private deaths = 0;

  constructor(
    private readonly path: string,
    private readonly size: number,
  ) {}

  /** Jobs waiting for a free reader, and readers at work (metrics). */
  stats() {
    return { readers: this.readers.length, busy: this.readers.filter((r) => r.job).length, waiting: this.queue.length };
  }

  run(sql: string, params: unknown[], mode: ReadMode): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('Base de données fermée.'));
    if (this.readers.length === 0) this.start();
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, sql, params, mode, resolve, reject });
      this.dispatch();
    });
  }

  private start() {
    for (let i = 0; i < this.size; i++) this.spawn();
  }

  private spawn() {
    const worker = new Worker(new URL('./read-worker.mjs', import.meta.url), { workerData: { path: this.path } });
    const reader: Reader = { worker, job: null };
    worker.unref();
    worker.on('message', (message: { id: number; rows?: unknown; error?: { message: string; code?: string } }) => {
      const job = reader.job;
      reader.job = null;
      this.deaths = 0;
      worker.unref();
      if (job && job.id === message.id) {
        if (message.error) job.reject(new ReadError(message.error.message, message.error.code));
        else job.resolve(message.rows);
      }
      this.dispatch();
    });
    let failure: Error | undefined;
    worker.on('error', (error) => {
      failure = error;
    });
    worker.on('exit', () => {
      if (this.closed) return;
      // A reader that dies (an error, or an exit nobody asked for) fails its job; a new one takes its place.
      const error = failure ?? new Error('Lecteur de la base arrêté.');
      reader.job?.reject(error);
      reader.job = null;
      this.readers = this.readers.filter((r) => r !== reader);
      this.deaths++;
      if (this.deaths > 2 * this.size) {
        // Readers die as they start (the file is gone, unreadable…): fail the waiting reads rather than
        // respawn forever; the next read starts them again.
        for (const waiting of this.queue.splice(0)) waiting.reject(error);
        if (this.readers.length === 0) this.deaths = 0;
        return;
      }
      this.spawn();
      this.dispatch();
    });
    this.readers.push(reader);
  }

  private dispatch() {
    for (const reader of this.readers) {
      if (this.queue.length === 0) return;
      if (reader.job) continue;
      const job = this.queue.shift()!;
      reader.job = job;
      // While it works, the thread keeps the process alive (a script awaiting a read must not exit).
      reader.worker.ref();
      reader.worker.postMessage({ id: job.id, sql: job.sql, params: job.params, mode: job.mode });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('Base de données fermée.'));
    await Promise.all(
      this.readers.map(
        (reader) =>
          new Promise<void>((done) => {
            reader.worker.ref();
            reader.worker.once('exit', () => done());
            reader.worker.postMessage({ close: true });
          }),
      ),
    );
    this.readers = [];
  }
}
