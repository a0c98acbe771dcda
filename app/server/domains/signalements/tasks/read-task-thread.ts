// A thread that runs read tasks (read-tasks.ts) for the main thread: its own connections (reads on this
// thread, no reader threads of its own), the data key read and checked as the server's start did, its
// context built from the server's configuration (server/context.ts), the business calendar included, and
// the main thread's clock as each task's (never the system's). Answers { id, result } or { id, error } (read-task-pool.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { threadCipher } from '#server/crypto/data-key';
import { createReadContext, type ReadContext } from '#server/context';
import { openReadOnlyDatabase } from '#server/db/client';
import type { SessionUser } from '#server/domains/auth/session';
import { encodeError } from '#server/db/threads/errors';
import type { ReadTaskThreadData } from './read-task-pool';
import { READ_TASKS, type ReadTaskName } from './read-tasks';
import { TEST_TASKS } from './read-tasks.test-hooks';

const port = parentPort!;
const data = workerData as ReadTaskThreadData;
type Task = (ctx: ReadContext, actor: SessionUser, args: unknown) => Promise<unknown>;
const tasks: Record<string, Task> = { ...(READ_TASKS as Record<string, Task>) };
if (data.testTasks && process.env.VITEST) Object.assign(tasks, TEST_TASKS);
// Read-only: no writer, no transaction (the type refuses them), connections that refuse writes.
const db = openReadOnlyDatabase(data.url, { statementTimeoutMs: data.statementTimeoutMs });

/** The server started with this key; a thread that finds another one stops (its tasks fail, none leaks). */
const ready = (async () =>
  createReadContext(data.config, { db, cipher: await threadCipher(db, data.key) }))();
// Its failure is each task's answer (a 500, logged by the server), not an unhandled rejection that ends the thread.
ready.catch(() => undefined);

interface TaskMessage {
  id: number;
  task: ReadTaskName;
  actor: SessionUser;
  args: unknown;
  /** The main thread's clock when it posted the task (epoch milliseconds): the task's clock. */
  now: number;
  close?: boolean;
}

port.on('message', async (message: TaskMessage) => {
  if (message.close) {
    await db.close();
    port.close();
    return;
  }
  try {
    const ctx = await ready;
    if (!Object.hasOwn(tasks, message.task)) throw new Error(`Tâche de lecture inconnue : ${message.task}`);
    const task = tasks[message.task]!;
    const clock = { now: () => new Date(message.now) };
    port.postMessage({ id: message.id, result: await task({ ...ctx, clock }, message.actor, message.args) });
  } catch (error) {
    port.postMessage({ id: message.id, error: encodeError(error) });
  }
});
