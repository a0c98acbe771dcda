// The threads that run read tasks (read-tasks.ts) for the main thread: a task's result, or its error as
// the service threw it (a DomainError keeps its kind, message and details: the same HTTP status and French
// message as when it runs here).
import type { Config } from '../config';
import type { SessionUser } from '../domains/auth/session';
import { DomainError, domainErrorOf, HttpError, readTimeout, type DomainErrorKind } from '../errors';
import { ThreadPool } from './thread-pool';
import type { ReadTaskArgs, ReadTaskName, ReadTaskResult } from './read-tasks';

/** What a task thread needs to open the database and build its context as the server did. */
export interface ReadTaskWorkerData {
  url: string;
  /** The data key's settings: the thread reads the key and checks it as the server's start did. */
  key: Pick<Config, 'DATABASE_URL' | 'DATA_KEY' | 'DATA_KEY_FILE'>;
  /** The server's configuration: the thread's context is built from it (time zone, journal settings). */
  config: Config;
  statementTimeoutMs?: number;
  /** Tests only: also registers the tasks of read-tasks.test-hooks.ts (never set by the server). */
  testTasks?: boolean;
}

/** An error as a task thread posts it. */
export type PostedError =
  | { domain: { kind: DomainErrorKind; message: string; details?: Record<string, unknown> } }
  | { http: { statusCode: number; message: string } }
  | { other: { name: string; message: string; stack?: string } };

export function postedError(thrown: unknown): PostedError {
  const error = domainErrorOf(thrown) ?? thrown;
  if (error instanceof DomainError)
    return { domain: { kind: error.kind, message: error.message, details: error.details } };
  if (error instanceof HttpError) return { http: { statusCode: error.statusCode, message: error.message } };
  const e = error instanceof Error ? error : new Error(String(error));
  return { other: { name: e.name, message: e.message, stack: e.stack } };
}

function errorOf(posted: unknown): Error {
  const p = posted as PostedError;
  if ('domain' in p) return new DomainError(p.domain.kind, p.domain.message, p.domain.details);
  if ('http' in p) return new HttpError(p.http.statusCode, p.http.message);
  const error = new Error(p.other.message);
  error.name = p.other.name;
  if (p.other.stack) error.stack = p.other.stack;
  return error;
}

/** The thread's module: the build's, or the sources' through tsx (npm run dev, tests). */
function entry(): URL {
  return import.meta.url.endsWith('.ts')
    ? new URL('./read-task-worker.bootstrap.mjs', import.meta.url)
    : new URL('./read-task-worker.mjs', import.meta.url);
}

export class ReadTaskPool extends ThreadPool {
  /** `timeoutMs`: each task's deadline (thread-pool.ts); unset, none. */
  constructor(data: ReadTaskWorkerData, size: number, timeoutMs?: number) {
    super({
      entry: entry(),
      workerData: data,
      size,
      errorOf,
      stoppedMessage: 'Fil de lecture arrêté.',
      timeoutMs,
      timeoutError: readTimeout,
    });
  }

  run<K extends ReadTaskName>(
    task: K,
    actor: SessionUser,
    args: ReadTaskArgs<K>,
  ): Promise<ReadTaskResult<K>> {
    return this.post({ task, actor, args }) as Promise<ReadTaskResult<K>>;
  }
}
