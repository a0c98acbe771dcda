// The thread of the xlsx export (export-runner.ts starts one per export): opens its own connection,
// writes the workbook of the given reports and posts its bytes to the parent, pausing when the parent
// asks (the download is slower than the writer). Running here, with the heap limits the runner sets,
// keeps the export's garbage out of the serving thread's heap: the process's memory stays bounded
// whatever the size of the export.
import { PassThrough } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '#server/config';
import { createReadContext, type KeySettings } from '#server/context';
import { threadCipher } from '#server/crypto/data-key';
import { openReadOnlyDatabase } from '#server/db/client';
import { encodeError, type PostedError } from '#server/db/threads/errors';
import type { SessionUser } from '../auth/session';
import { writeXlsx } from './export-writer';
import { xlsxBatches } from './export-rows';

export interface ExportJob {
  /** The server's configuration: the thread builds its context from it (server/context.ts). */
  config: Config;
  databaseUrl: string;
  actor: SessionUser;
  ids: number[];
  /** « Inclure les notes internes » (export.ts). */
  notesInternes?: boolean;
  /** Where the data key is read from, to open the notes' texts (only with `notesInternes`). */
  key?: KeySettings;
}
export type ExportMessage =
  { type: 'data'; chunk: Uint8Array } | { type: 'end' } | { type: 'error'; error: PostedError };
export type ExportControl = 'pause' | 'resume';

const port = parentPort!;
const job = workerData as ExportJob;
// Already off the main thread: reads on this thread's own connection, no reader threads of its own; the
// database is read-only (no writer, no transaction; its connections refuse writes). The cells' wall-clock
// times are in the context's business calendar, the server's APP_TIMEZONE.
// The file is read unmapped: an export touches most of it once, and mapped pages would all count in the
// process's memory (DatabaseOptions.mapFile).
const { db, calendar } = createReadContext(job.config, {
  db: openReadOnlyDatabase(job.databaseUrl, { mapFile: false }),
});
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
port.on('message', (control: ExportControl) => (control === 'pause' ? out.pause() : out.resume()));
const ended = new Promise<void>((resolve) => out.once('end', resolve));
try {
  const options = { notesInternes: job.notesInternes ?? false };
  // The key only where notes are opened: an export without them reads nothing encrypted.
  const cipher = options.notesInternes && job.key ? await threadCipher(db, job.key) : null;
  await writeXlsx(
    out,
    xlsxBatches(db, job.actor, job.ids, { ...options, calendar, cipher }),
    calendar,
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
