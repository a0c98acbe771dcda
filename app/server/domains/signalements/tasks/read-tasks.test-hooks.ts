// Tasks that exist for the tests only (read-tasks.test.ts): a task thread registers them when its pool was
// built with `testTasks` under vitest, which the server never does; no HTTP request names a task.

/** A task that never returns: its thread loops until it is stopped (the deadline of server/db/threads/pool.ts). */
function loop(): never {
  for (let spins = 0; ; spins++) {
    if (spins < 0) throw new Error('jamais');
  }
}

export const TEST_TASKS = {
  'test.loop': loop,
};
