// Answers built on threads of their own (docs/decisions/0024-answers-off-the-main-thread.md).
// On SQLite every read runs in this process: the statements on reader threads, but building the answer
// (the statements' own building, mapping the rows, the DTOs, their JSON) on the thread that serves every
// request. The heaviest answers that only read — the report list and a report — run on a few threads of
// their own instead, each with its own connections (read-task-worker.ts), and come back ready to send.
// Without threads (PostgreSQL, DATABASE_READ_WORKERS=0, tests) a task runs here, the same code.
import type { z } from 'zod';
import type { signalementListSchema } from '../../shared/schemas/signalements';
import type { Database } from '../db/client';
import type { SessionUser } from '../domains/auth/session';
import { getSignalement, listSignalements } from '../domains/signalements/service';
import { collection } from '../http/jsonld';
import type { ReadTaskPool } from './read-task-pool';
import type { ThreadPoolHealth } from './thread-pool';

type ListQuery = z.output<typeof signalementListSchema>;

/**
 * What may run off the main thread: reads only (a thread has no writer of its own to use), with the
 * actor the main thread authenticated; every rule of the service applies there as here.
 */
export const READ_TASKS = {
  /** GET /api/signalements: the JSON-LD collection, serialised. */
  'signalements.list.jsonld': async (
    db: Database,
    actor: SessionUser,
    args: { query: ListQuery; url: string },
  ) => {
    const { items, total, totalExact } = await listSignalements(db, actor, args.query);
    return JSON.stringify(collection('Signalement', args.url, items, total, { ...args.query, totalExact }));
  },
  /** tRPC signalements.list. */
  'signalements.list': (db: Database, actor: SessionUser, query: ListQuery) =>
    listSignalements(db, actor, query),
  /** GET /api/signalements/:code, serialised. */
  'signalements.get.json': async (db: Database, actor: SessionUser, code: string) =>
    JSON.stringify(await getSignalement(db, actor, code)),
  /** tRPC signalements.get. */
  'signalements.get': (db: Database, actor: SessionUser, code: string) => getSignalement(db, actor, code),
};

export type ReadTaskName = keyof typeof READ_TASKS;
export type ReadTaskArgs<K extends ReadTaskName> = Parameters<(typeof READ_TASKS)[K]>[2];
export type ReadTaskResult<K extends ReadTaskName> = Awaited<ReturnType<(typeof READ_TASKS)[K]>>;

const pools = new WeakMap<Database, ReadTaskPool>();

/** From now on, tasks on `db` run on `pool`'s threads (server/start.ts). */
export function attachReadTasks(db: Database, pool: ReadTaskPool): void {
  pools.set(db, pool);
}

/** Stops the threads of `db`'s tasks, if it has any; its tasks run on this thread again. */
export async function closeReadTasks(db: Database): Promise<void> {
  const pool = pools.get(db);
  pools.delete(db);
  await pool?.close();
}

/** The state of `db`'s task threads (health check); null when its tasks run on this thread. */
export function readTaskHealth(db: Database): ThreadPoolHealth | null {
  return pools.get(db)?.health() ?? null;
}

/** Runs a task on a thread of `db`'s pool, or here when it has none. */
export function runReadTask<K extends ReadTaskName>(
  db: Database,
  name: K,
  actor: SessionUser,
  args: ReadTaskArgs<K>,
): Promise<ReadTaskResult<K>> {
  const pool = pools.get(db);
  if (pool) return pool.run(name, actor, args);
  const task = READ_TASKS[name] as (
    db: Database,
    actor: SessionUser,
    args: ReadTaskArgs<K>,
  ) => Promise<ReadTaskResult<K>>;
  return task(db, actor, args);
}
