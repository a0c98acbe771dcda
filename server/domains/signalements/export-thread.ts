// The thread of the xlsx export (export-runner.ts starts one per export): opens its own connection,
// writes the workbook of the given reports and posts its bytes to the parent, pausing when the parent
// asks (the download is slower than the writer). Running here, with the heap limits the runner sets,
// keeps the export's garbage out of the serving thread's heap: the process's memory stays bounded
// whatever the size of the export.
import { PassThrough } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '#server/config';
import { createReadContext } from '#server/context';
import { openReadOnlyDatabase } from '#server/db/client';
import { encodeError, type PostedError } from '#server/db/threads/errors';
import type { SessionUser } from '../auth/session';
import { exportBatches, writeXlsx } from './export';

export interface ExportJob {
  /** The server's configuration: the thread builds its context from it (server/context.ts). */
  config: Config;
  databaseUrl: string;
  actor: SessionUser;
  ids: number[];
}
export type ExportMessage =
  { type: 'data'; chunk: Uint8Array } | { type: 'end' } | { type: 'error'; error: PostedError };
export type ExportControl = 'pause' | 'resume';

const port = parentPort!;
const job = workerData as ExportJob;
// Already off the main thread: reads on this thread's own connection, no reader threads of its own; the
// database is read-only (no writer, no transaction; its connections refuse writes). The cells' wall-clock
// times are in the context's business calendar, the server's APP_TIMEZONE.
const { db, calendar } = createReadContext(job.config, { db: openReadOnlyDatabase(job.databaseUrl) });
const out = new PassThrough();
const post = (message: ExportMessage) => port.postMessage(message);

out.on('data', (chunk: Buffer) => post({ type: 'data', chunk }));
port.on('message', (control: ExportControl) => (control === 'pause' ? out.pause() : out.resume()));
const ended = new Promise<void>((resolve) => out.once('end', resolve));
try {
  await writeXlsx(out, exportBatches(db, job.actor, job.ids), calendar);
  await ended;
  post({ type: 'end' });
} catch (error) {
  post({ type: 'error', error: encodeError(error) });
} finally {
  await db.close();
  port.close();
}
