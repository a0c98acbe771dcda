// Answers built on threads of their own (docs/decisions/0024-answers-off-the-main-thread.md).
// On SQLite every read runs in this process: the statements on reader threads, but building the answer
// (the statements' own building, mapping the rows, the DTOs, their JSON) on the thread that serves every
// request. The heaviest answers that only read — the report list and a report — run on a few threads of
// their own instead, each with its own connections (read-task-thread.ts), and come back ready to send.
// Without threads (PostgreSQL, DATABASE_READ_WORKERS=0) a task runs here, the same code. The pool is the
// context's (server/context.ts): the server and the test app attach one on SQLite.
import type { z } from 'zod';
import type { signalementListSchema } from '#shared/schemas/signalements';
import type { AppContext, ReadContext } from '#server/context';
import type { SessionUser } from '#server/domains/auth/session';
import { getSignalement, listSignalements } from '../service';
import { collection } from '#server/http/jsonld';

type ListQuery = z.output<typeof signalementListSchema>;

/**
 * What may run off the main thread: reads only (a task gets a ReadContext, whose database cannot write), with the
 * actor the main thread authenticated; every rule of the service applies there as here. Each gets the
 * context of the thread it runs on (the main thread's, or the task thread's own).
 */
export const READ_TASKS = {
  /** GET /api/signalements: the JSON-LD collection, serialised. */
  'signalements.list.jsonld': async (
    ctx: ReadContext,
    actor: SessionUser,
    args: { query: ListQuery; url: string },
  ) => {
    const { items, total, totalExact } = await listSignalements(ctx, actor, args.query);
    return JSON.stringify(collection('Signalement', args.url, items, total, { ...args.query, totalExact }));
  },
  /** tRPC signalements.list. */
  'signalements.list': (ctx: ReadContext, actor: SessionUser, query: ListQuery) =>
    listSignalements(ctx, actor, query),
  /** GET /api/signalements/:code, serialised. */
  'signalements.get.json': async (ctx: ReadContext, actor: SessionUser, code: string) =>
    JSON.stringify(await getSignalement(ctx.db, actor, code)),
  /** tRPC signalements.get. */
  'signalements.get': (ctx: ReadContext, actor: SessionUser, code: string) =>
    getSignalement(ctx.db, actor, code),
};

export type ReadTaskName = keyof typeof READ_TASKS;
export type ReadTaskArgs<K extends ReadTaskName> = Parameters<(typeof READ_TASKS)[K]>[2];
export type ReadTaskResult<K extends ReadTaskName> = Awaited<ReturnType<(typeof READ_TASKS)[K]>>;

/** Runs a task on a thread of the context's pool (ctx.tasks), or here when it has none. */
export function runReadTask<K extends ReadTaskName>(
  ctx: AppContext,
  name: K,
  actor: SessionUser,
  args: ReadTaskArgs<K>,
): Promise<ReadTaskResult<K>> {
  if (ctx.tasks) return ctx.tasks.run(name, actor, args, ctx.clock.now());
  const task = READ_TASKS[name] as (
    ctx: ReadContext,
    actor: SessionUser,
    args: ReadTaskArgs<K>,
  ) => Promise<ReadTaskResult<K>>;
  return task(ctx, actor, args);
}
