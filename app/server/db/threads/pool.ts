// The one pool of threads (decisions 0021, 0024): a few threads that take jobs from one FIFO queue, the
// first free thread first: the SQLite readers (server/db/read-pool.ts) and the threads that build read
// answers (read-task-pool.ts). A thread answers each job with { id, result } or { id, error }, the error in
// the one format of errors.ts; one that dies fails only the job it held and is replaced. Threads start at
// the first job and keep the process alive only while they work.
//
// Each job has a deadline (decision 0024, READ_JOB_TIMEOUT_SECONDS): past it, its caller gets
// `timeoutError()` (a French 503) whether the job was still waiting or running, and the thread that held it
// is stopped and replaced, so one thread that loops cannot hang requests for ever. A thread caught inside a
// SQLite statement cannot be stopped before that statement returns (better-sqlite3 has no interrupt; Node
// stops a thread only where JavaScript runs): it is left to finish, counted as stuck, and no longer served
// jobs.
import type { Worker } from 'node:worker_threads';
import { startThread, type ThreadEntry } from './entry';
import { decodeError, type PostedError } from './errors';

interface Job {
  id: number;
  message: object;
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer?: NodeJS.Timeout;
}

interface Thread {
  handle: Worker;
  job: Job | null;
}

export interface ThreadPoolOptions {
  /** The thread's module (entry.ts). */
  entry: ThreadEntry;
  workerData: unknown;
  size: number;
  /** The French message of a job whose thread stopped. */
  stoppedMessage: string;
  /** Longest wait for a job's answer, queue included; unset, none (scripts). */
  timeoutMs?: number;
  /** The error of a job past its deadline. */
  timeoutError?(): Error;
}

/** What the health check reads (server/http/health.ts). */
export interface ThreadPoolHealth {
  /** Threads that serve jobs. */
  threads: number;
  /** Threads stopped at a deadline and still running (inside a statement that has not returned). */
  stuck: number;
  /** Jobs that passed their deadline since the pool opened. */
  timeouts: number;
  /** Started, and no thread left to serve: every thread is stuck. */
  down: boolean;
}

export class ThreadPool {
  private threads: Thread[] = [];
  private stuck = new Set<Thread>();
  private queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private started = false;
  private timeouts = 0;
  /** Threads that died since one last answered: past a few, the cause is not transient. */
  private deaths = 0;

  constructor(private readonly options: ThreadPoolOptions) {}

  /** Threads, threads at work, jobs waiting for a free thread (metrics). */
  stats() {
    return {
      readers: this.threads.length,
      busy: this.threads.filter((r) => r.job).length,
      waiting: this.queue.length,
    };
  }

  health(): ThreadPoolHealth {
    return {
      threads: this.threads.length,
      stuck: this.stuck.size,
      timeouts: this.timeouts,
      down: this.started && this.threads.length === 0 && this.stuck.size > 0,
    };
  }

  protected post(message: object): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('Base de données fermée.'));
    if (this.threads.length === 0) this.fill();
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, message, resolve, reject };
      const { timeoutMs } = this.options;
      if (timeoutMs) {
        job.timer = setTimeout(() => this.expire(job), timeoutMs);
        job.resolve = (result) => {
          clearTimeout(job.timer);
          resolve(result);
        };
        job.reject = (error) => {
          clearTimeout(job.timer);
          reject(error);
        };
      }
      this.queue.push(job);
      this.dispatch();
    });
  }

  /**
   * Serving threads up to `size`, while stuck ones number fewer than `size`: threads stuck in a statement
   * each hold a core, and spawning more would only add to them. A stuck thread that ends frees its place.
   */
  private fill() {
    if (this.closed) return;
    this.started = true;
    while (
      this.threads.length < this.options.size &&
      this.threads.length + this.stuck.size < 2 * this.options.size
    ) {
      this.spawn();
    }
  }

  private expire(job: Job) {
    this.timeouts++;
    const error = this.options.timeoutError?.() ?? new Error(this.options.stoppedMessage);
    const waiting = this.queue.indexOf(job);
    if (waiting >= 0) {
      this.queue.splice(waiting, 1);
      job.reject(error);
      return;
    }
    const thread = this.threads.find((r) => r.job === job);
    job.reject(error);
    if (!thread) return;
    // Its answer is no longer awaited: the thread is stopped (now if it runs JavaScript, when its
    // statement returns otherwise) and another takes its place.
    thread.job = null;
    this.threads = this.threads.filter((r) => r !== thread);
    this.stuck.add(thread);
    thread.handle.unref();
    void thread.handle.terminate().catch(() => undefined);
    this.fill();
    this.dispatch();
  }

  private spawn() {
    const handle = startThread(this.options.entry, { workerData: this.options.workerData });
    const thread: Thread = { handle, job: null };
    handle.unref();
    handle.on('message', (message: { id: number; result?: unknown; error?: PostedError }) => {
      if (this.stuck.has(thread)) return;
      const job = thread.job;
      thread.job = null;
      this.deaths = 0;
      handle.unref();
      if (job && job.id === message.id) {
        if (message.error !== undefined) job.reject(decodeError(message.error));
        else job.resolve(message.result);
      }
      this.dispatch();
    });
    let failure: Error | undefined;
    handle.on('error', (error) => {
      failure = error;
    });
    handle.on('exit', () => {
      if (this.stuck.delete(thread)) {
        // A stuck thread ended at last: its place may be taken again.
        if (!this.closed && this.threads.length < this.options.size && this.started) this.fill();
        if (!this.closed) this.dispatch();
        return;
      }
      if (this.closed) return;
      // A thread that dies (an error, or an exit nobody asked for) fails its job; a new one takes its place.
      const error = failure ?? new Error(this.options.stoppedMessage);
      thread.job?.reject(error);
      thread.job = null;
      this.threads = this.threads.filter((r) => r !== thread);
      this.deaths++;
      if (this.deaths > 2 * this.options.size) {
        // Threads die as they start (the file is gone, unreadable…): fail the waiting jobs rather than
        // respawn forever; the next job starts them again.
        for (const waiting of this.queue.splice(0)) waiting.reject(error);
        if (this.threads.length === 0) this.deaths = 0;
        return;
      }
      this.spawn();
      this.dispatch();
    });
    this.threads.push(thread);
  }

  private dispatch() {
    for (const thread of this.threads) {
      if (this.queue.length === 0) return;
      if (thread.job) continue;
      const job = this.queue.shift()!;
      thread.job = job;
      // While it works, the thread keeps the process alive (a script awaiting a read must not exit).
      thread.handle.ref();
      thread.handle.postMessage({ ...job.message, id: job.id });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('Base de données fermée.'));
    // Stuck threads are not waited for: one inside a statement that never returns would hold the close.
    await Promise.all(
      this.threads.map(
        (thread) =>
          new Promise<void>((done) => {
            thread.handle.ref();
            thread.handle.once('exit', () => done());
            thread.handle.postMessage({ close: true });
          }),
      ),
    );
    this.threads = [];
  }
}
