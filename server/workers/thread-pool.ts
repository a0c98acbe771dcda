// A few worker threads that take jobs from one FIFO queue, the first free thread first (issue #13): the
// SQLite readers (server/db/read-pool.ts) and the threads that build read answers (read-tasks.ts). A
// thread answers each job with { id, result } or { id, error }; one that dies fails only the job it held
// and is replaced. Threads start at the first job and keep the process alive only while they work.
import { Worker } from 'node:worker_threads';

interface Job {
  id: number;
  message: object;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  job: Job | null;
}

export interface ThreadPoolOptions {
  /** The thread's module. */
  entry: URL;
  workerData: unknown;
  size: number;
  /** The error a job's caller gets from the error a thread posted. */
  errorOf(posted: unknown): Error;
  /** The French message of a job whose thread stopped. */
  stoppedMessage: string;
}

export class ThreadPool {
  private readers: Thread[] = [];
  private queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** Threads that died since one last answered: past a few, the cause is not transient. */
  private deaths = 0;

  constructor(private readonly options: ThreadPoolOptions) {}

  /** Threads, threads at work, jobs waiting for a free thread (metrics). */
  stats() {
    return { readers: this.readers.length, busy: this.readers.filter((r) => r.job).length, waiting: this.queue.length };
  }

  protected post(message: object): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('Base de données fermée.'));
    if (this.readers.length === 0) this.start();
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, message, resolve, reject });
      this.dispatch();
    });
  }

  private start() {
    for (let i = 0; i < this.options.size; i++) this.spawn();
  }

  private spawn() {
    const worker = new Worker(this.options.entry, { workerData: this.options.workerData });
    const thread: Thread = { worker, job: null };
    worker.unref();
    worker.on('message', (message: { id: number; result?: unknown; error?: unknown }) => {
      const job = thread.job;
      thread.job = null;
      this.deaths = 0;
      worker.unref();
      if (job && job.id === message.id) {
        if (message.error !== undefined) job.reject(this.options.errorOf(message.error));
        else job.resolve(message.result);
      }
      this.dispatch();
    });
    let failure: Error | undefined;
    worker.on('error', (error) => {
      failure = error;
    });
    worker.on('exit', () => {
      if (this.closed) return;
      // A thread that dies (an error, or an exit nobody asked for) fails its job; a new one takes its place.
      const error = failure ?? new Error(this.options.stoppedMessage);
      thread.job?.reject(error);
      thread.job = null;
      this.readers = this.readers.filter((r) => r !== thread);
      this.deaths++;
      if (this.deaths > 2 * this.options.size) {
        // Threads die as they start (the file is gone, unreadable…): fail the waiting jobs rather than
        // respawn forever; the next job starts them again.
        for (const waiting of this.queue.splice(0)) waiting.reject(error);
        if (this.readers.length === 0) this.deaths = 0;
        return;
      }
      this.spawn();
      this.dispatch();
    });
    this.readers.push(thread);
  }

  private dispatch() {
    for (const thread of this.readers) {
      if (this.queue.length === 0) return;
      if (thread.job) continue;
      const job = this.queue.shift()!;
      thread.job = job;
      // While it works, the thread keeps the process alive (a script awaiting a read must not exit).
      thread.worker.ref();
      thread.worker.postMessage({ ...job.message, id: job.id });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('Base de données fermée.'));
    await Promise.all(
      this.readers.map(
        (thread) =>
          new Promise<void>((done) => {
            thread.worker.ref();
            thread.worker.once('exit', () => done());
            thread.worker.postMessage({ close: true });
          }),
      ),
    );
    this.readers = [];
  }
}
