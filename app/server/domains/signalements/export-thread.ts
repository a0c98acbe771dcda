// The thread of the xlsx export (export-runner.ts starts one per export): opens its own connection, reads
// the ids of the reports the list's filters keep and posts their number, then, once the parent says so (the
// export is in the access log), writes their workbook and posts its bytes, pausing when the parent asks (the
// download is slower than the writer). Running here, with the heap limits the runner sets, keeps the
// export's garbage out of the serving thread's heap: the process's memory stays bounded whatever the size
// of the export; and its reads on this thread's unmapped connection (docs/decisions/0050).
import { PassThrough } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '#server/config';
import { createReadContext, type KeySettings } from '#server/context';
import { threadCipher } from '#server/crypto/data-key';
import { openReadOnlyDatabase } from '#server/db/client';
import { encodeError, type PostedError } from '#server/db/threads/errors';
import type { SessionUser } from '../auth/session';
import { exportIds } from './export';
import { writeXlsx } from './export-writer';
import { xlsxBatches } from './export-rows';
import type { ListFilters } from './queries';

export interface ExportJob {
  /** The server's configuration: the thread builds its context from it (server/context.ts). */
  config: Config;
  databaseUrl: string;
  actor: SessionUser;
  /** The list's filters: the workbook holds every report they keep, in the list's order (exportIds). */
  filters: ListFilters;
  /** The request's time (ms since 1970): « today » for the deadline filters, as the list reads them. */
  now: number;
  /** « Inclure les notes internes » (export.ts). */
  notesInternes?: boolean;
  /**
   * Where the data key is read from: to open the notes' texts (with `notesInternes`) and to search (the
   * sources' names are found by their blind index); without either, the thread reads nothing encrypted.
   */
  key?: KeySettings;
}
export type ExportMessage =
  | { type: 'rows'; n: number }
  | { type: 'data'; chunk: Uint8Array }
  | { type: 'end' }
  | { type: 'error'; error: PostedError };
/** `start`: write the workbook (sent once, after `rows`); `pause`, `resume`: the download's pace. */
export type ExportControl = 'start' | 'pause' | 'resume';

const port = parentPort!;
const job = workerData as ExportJob;
// Already off the main thread: reads on this thread's own connection, no reader threads of its own; the
// database is read-only (no writer, no transaction; its connections refuse writes). The cells' wall-clock
// times are in the context's business calendar, the server's APP_TIMEZONE.
// The file is read unmapped: an export touches most of it once (the ids' index included, some 23 MB for
// 100,000 reports), and mapped pages would all count in the process's memory (DatabaseOptions.mapFile).
const db = openReadOnlyDatabase(job.databaseUrl, { mapFile: false });
const out = new PassThrough();
const post = (message: ExportMessage) => port.postMessage(message);

// The zip comes out in small chunks, each a view on a larger buffer that postMessage would copy whole:
// they are gathered into one buffer of POST_BYTES, handed over (transferred, not copied) to the parent.
const POST_BYTES = 256 * 1024;
let pending: Buffer[] = [];
let pendingBytes = 0;
function flush() {
  if (pendingBytes === 0) return;
  const chunk = new Uint8Array(pendingBytes);
  let at = 0;
  for (const part of pending) {
    chunk.set(part, at);
    at += part.length;
  }
  pending = [];
  pendingBytes = 0;
  port.postMessage({ type: 'data', chunk } satisfies ExportMessage, [chunk.buffer]);
}
out.on('data', (part: Buffer) => {
  pending.push(part);
  pendingBytes += part.length;
  if (pendingBytes >= POST_BYTES) flush();
});
out.on('end', flush);
let start = () => {};
const started = new Promise<void>((resolve) => (start = resolve));
port.on('message', (control: ExportControl) => {
  if (control === 'start') start();
  else if (control === 'pause') out.pause();
  else out.resume();
});
const ended = new Promise<void>((resolve) => out.once('end', resolve));
try {
  const options = { notesInternes: job.notesInternes ?? false };
  // The key only where notes are opened or a search names a source: otherwise nothing encrypted is read.
  const cipher = job.key ? await threadCipher(db, job.key) : null;
  const clock = { now: () => new Date(job.now) };
  const ctx = createReadContext(job.config, { db, cipher, clock });
  const ids = await exportIds(ctx, job.filters, job.actor);
  post({ type: 'rows', n: ids.length });
  await started;
  await writeXlsx(
    out,
    xlsxBatches(db, job.actor, ids, { ...options, calendar: ctx.calendar, cipher }),
    ctx.calendar,
    options,
  );
  await ended;
  post({ type: 'end' });
} catch (error) {
  post({ type: 'error', error: encodeError(error) });
} finally {
  await db.close();
  port.close();
}
