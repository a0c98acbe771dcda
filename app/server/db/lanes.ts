// Requests that write go first when the database is busy (docs/decisions/0054-writes-first.md). The HTTP
// layer runs a request that may write (any method but GET and HEAD) in the writers' lane; the engine's
// connections are handed to that lane before the readers' when all are taken. SQLite needs nothing of it:
// its writes never wait behind reads (reads run in threads of their own, writes on the serving thread).
import { AsyncLocalStorage } from 'node:async_hooks';

const lane = new AsyncLocalStorage<'writer'>();

/** Runs `fn`, and everything it starts, in the writers' lane. */
export function inWritersLane<T>(fn: () => T): T {
  return lane.run('writer', fn);
}

/** Whether the current code runs for a request that may write. */
export function isWritersLane(): boolean {
  return lane.getStore() === 'writer';
}
