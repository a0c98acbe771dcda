// A reader of the SQLite database on its own thread (server/db/read-pool.ts starts a few): the main thread
// sends a statement and its parameters, this thread runs it on its own read-only connection and sends the
// rows back. Heavy reads (a filtered count over a million reports) then no longer hold the event loop that
// serves every other request, and both cores work. Plain JavaScript: it starts in a few milliseconds,
// from the sources (tests, npm run dev) as from the build (dist/server/reader-thread.mjs).
import { parentPort, workerData } from 'node:worker_threads';
import Sqlite from 'better-sqlite3';
import { encodeError } from './encode-error.mjs';

const conn = new Sqlite(workerData.path, { fileMustExist: true });
conn.pragma('busy_timeout = 5000');
conn.pragma('query_only = ON');
conn.pragma(`mmap_size = ${workerData.mmapSize}`);

/** Prepared statements by SQL text; the application's statements are a few hundred at most. */
const statements = new Map();
function prepare(sql) {
  let statement = statements.get(sql);
  if (!statement) {
    if (statements.size >= 500) statements.delete(statements.keys().next().value);
    statement = conn.prepare(sql);
    statements.set(sql, statement);
  }
  return statement;
}

/**
 * mode: 'all' | 'values' (rows as arrays, what drizzle maps to its fields), 'get' (one row as an array),
 * 'objects' (rows as objects keyed by column, for raw SQL), 'run' (no rows).
 */
function execute({ sql, params, mode }) {
  const statement = prepare(sql);
  if (mode === 'run' || !statement.reader) {
    statement.run(...params);
    return [];
  }
  if (mode === 'objects') return statement.raw(false).all(...params);
  if (mode === 'get') return statement.raw(true).get(...params);
  return statement.raw(true).all(...params);
}

parentPort.on('message', (job) => {
  if (job.close) {
    conn.close();
    parentPort.close();
    return;
  }
  try {
    parentPort.postMessage({ id: job.id, result: execute(job) });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: encodeError(error) });
  }
});
