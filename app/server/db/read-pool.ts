// A few reader threads for SQLite (docs/decisions/0021-read-workers.md): every read outside a
// transaction runs on one of them (threads/reader-thread.mjs), each with its own connection, so a slow read
// holds a thread, not the event loop. Jobs wait in one FIFO queue and go to the first free thread
// (threads/pool.ts); a reader's error comes back as the engine's, same name, message and code
// (SQLITE_BUSY, SQLITE_CORRUPT…: threads/errors.ts).
import { readTimeout } from '../errors';
import { threadEntry } from './threads/entry';
import { ThreadPool } from './threads/pool';

export type ReadMode = 'all' | 'values' | 'get' | 'objects' | 'run';

/**
 * Reads of the read-only connections go through a memory map of the file (SQLite caps it at 2 GB):
 * a page already in the OS cache is read without a system call and a copy, which at a million reports
 * more than halves the cost of loading a page of reports by id (random pages of a 2.4 GB file).
 */
export const READ_MMAP_SIZE = 2147418112;

export class ReadPool extends ThreadPool {
  /** `timeoutMs`: each read's deadline (threads/pool.ts); unset, none. */
  constructor(path: string, size: number, timeoutMs?: number) {
    super({
      entry: threadEntry(new URL('./threads/reader-thread.mjs', import.meta.url)),
      workerData: { path, mmapSize: READ_MMAP_SIZE },
      size,
      stoppedMessage: 'Lecteur de la base arrêté.',
      timeoutMs,
      timeoutError: readTimeout,
    });
  }

  run(sql: string, params: unknown[], mode: ReadMode): Promise<unknown> {
    return this.post({ sql, params, mode });
  }
}
