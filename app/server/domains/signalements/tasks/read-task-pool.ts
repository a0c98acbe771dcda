// The threads that run read tasks (read-tasks.ts) for the main thread: a task's result, or its error as
// the service threw it (a DomainError keeps its kind, message and details: the same HTTP status and French
// message as when it runs here; server/db/threads/errors.ts).
import type { Config } from '#server/config';
import { threadEntry } from '#server/db/threads/entry';
import { ThreadPool } from '#server/db/threads/pool';
import type { SessionUser } from '#server/domains/auth/session';
import { readTimeout } from '#server/errors';
import type { ReadTaskArgs, ReadTaskName, ReadTaskResult } from './read-tasks';

/** What a task thread needs to open the database and build its context as the server did. */
export interface ReadTaskThreadData {
  url: string;
  /** The data key's settings: the thread reads the key and checks it as the server's start did. */
  key: Pick<Config, 'DATABASE_URL' | 'DATA_KEY' | 'DATA_KEY_FILE'>;
  /** The server's configuration: the thread's context is built from it (time zone, journal settings). */
  config: Config;
  statementTimeoutMs?: number;
  /** Tests only: also registers the tasks of read-tasks.test-hooks.ts (never set by the server). */
  testTasks?: boolean;
}

export class ReadTaskPool extends ThreadPool {
  /** `timeoutMs`: each task's deadline (server/db/threads/pool.ts); unset, none. */
  constructor(data: ReadTaskThreadData, size: number, timeoutMs?: number) {
    super({
      entry: threadEntry(new URL('./read-task-thread.ts', import.meta.url)),
      workerData: data,
      size,
      stoppedMessage: 'Fil de lecture arrêté.',
      timeoutMs,
      timeoutError: readTimeout,
    });
  }

  /**
   * `now`: the time by the main thread's clock (the context's), which the task reads as its own clock: a
   * thread never reads the system's, so a server whose clock is moved (tests) answers the same on a thread.
   */
  run<K extends ReadTaskName>(
    task: K,
    actor: SessionUser,
    args: ReadTaskArgs<K>,
    now: Date,
  ): Promise<ReadTaskResult<K>> {
    return this.post({ task, actor, args, now: now.getTime() }) as Promise<ReadTaskResult<K>>;
  }
}
