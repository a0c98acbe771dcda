// A few reader threads for SQLite (docs/decisions/0021-read-workers.md): every read outside a
// transaction runs on one of them (read-worker.mjs), each with its own connection, so a slow read holds a
// worker, not the event loop. Jobs wait in one FIFO queue and go to the first free worker
// (server/workers/thread-pool.ts).
import { readTimeout } from '../errors';
import { ThreadPool } from '../workers/thread-pool';

export type ReadMode = 'all' | 'values' | 'get' | 'objects' | 'run';

/**
 * Reads of the read-only connections go through a memory map of the file (SQLite caps it at 2 GB):
 * a page already in the OS cache is read without a system call and a copy, which at a million reports
 * more than halves the cost of loading a page of reports by id (random pages of a 2.4 GB file).
 */
export const READ_MMAP_SIZE = 2147418112;

/** A reader's error as the engine's: same message and code (SQLITE_BUSY, SQLITE_CORRUPT…). */
class ReadError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'SqliteError';
  }
}

export class ReadPool extends ThreadPool {
  /** `timeoutMs`: each read's deadline (thread-pool.ts); unset, none. */
  constructor(path: string, size: number, timeoutMs?: number) {
    super({
      entry: new URL('./read-worker.mjs', import.meta.url),
      workerData: { path, mmapSize: READ_MMAP_SIZE },
      size,
      errorOf: (posted) => {
        const { message, code } = posted as { message: string; code?: string };
        return new ReadError(message, code);
      },
      stoppedMessage: 'Lecteur de la base arrêté.',
      timeoutMs,
      timeoutError: readTimeout,
    });
  }

  run(sql: string, params: unknown[], mode: ReadMode): Promise<unknown> {
    return this.post({ sql, params, mode });
  }
}
