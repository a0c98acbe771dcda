// Runs the xlsx export on a thread of its own (export-thread.ts): its number of rows first, then, once the
// caller starts it, its bytes as a stream for the response. The thread's heap is capped: an export cannot
// grow the serving process past a bound, and an export that would is stopped (the download fails) instead
// of the server. One thread per export, started and errors decoded as every thread's (server/db/threads/).
import { Readable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { threadEntry, startThread } from '#server/db/threads/entry';
import { decodeError } from '#server/db/threads/errors';
import { Transferred } from '#server/db/threads/transferred';
import type { ExportControl, ExportJob, ExportMessage } from './export-thread';

/**
 * Heap limits of one export thread (MB): its live heap is the code and a batch of 1,000 reports, about
 * 30 MB (a heap snapshot after the rows of an export of 20,000); the rest is room for the garbage.
 */
export const EXPORT_THREAD_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

const EXPORT_THREAD = threadEntry(new URL('./export-thread.ts', import.meta.url));

/** Exports written at the same time; later ones wait for a free slot (each thread holds its own heap). */
export const MAX_CONCURRENT_EXPORTS = 2;
let running = 0;
let threads = 0;
const waiting: Array<() => void> = [];

/** How many export threads are alive now (tests, diagnostics). */
export const exportThreads = () => threads;

function release() {
  running--;
  waiting.shift()?.();
}

/** An export whose thread has counted its rows and waits to write them. */
export interface XlsxExport {
  /** The workbook's rows: how many reports the filters keep. */
  rows: number;
  /** Writes the workbook: its bytes (once). */
  start(): Readable;
  /** Stops the thread without writing (the export was refused: its access log could not be written). */
  cancel(): void;
}

/**
 * Starts an export's thread (when a slot is free) and answers once it has read the ids of the reports to
 * write; a failure before then (the database, the data key) rejects. The caller then starts or cancels it:
 * the thread holds its slot until one or the other.
 */
export function openXlsxExport(job: ExportJob): Promise<XlsxExport> {
  return new Promise((resolve, reject) => {
    let thread: Worker | undefined;
    let paused = false;
    let counted = false;
    let finished = false;
    let cancelled = false;
    const control = (message: ExportControl) => thread?.postMessage(message);
    // The chunks' memory, returned now and then once sent (transferred.ts).
    const transferred = new Transferred();
    const stream = new Readable({
      read() {
        if (paused) {
          paused = false;
          control('resume');
        }
      },
      destroy(error, callback) {
        cancelled = true;
        if (thread && !finished) void thread.terminate();
        callback(error);
      },
    });
    // Before the count, a failure is the caller's answer; after it, the stream's.
    const fail = (error: Error) => {
      finished = true;
      if (counted) stream.destroy(error);
      else reject(error);
    };
    const onMessage = (message: ExportMessage) => {
      if (message.type === 'rows') {
        counted = true;
        resolve({
          rows: message.n,
          start: () => {
            control('start');
            return stream;
          },
          cancel: () => stream.destroy(),
        });
      } else if (message.type === 'data') {
        const chunk = Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.byteLength);
        transferred.received(chunk.byteLength);
        if (!stream.push(chunk) && !paused) {
          paused = true;
          control('pause');
        }
      } else if (message.type === 'end') {
        finished = true;
        stream.push(null);
      } else fail(decodeError(message.error));
    };
    const begin = () => {
      if (cancelled) return release();
      thread = startThread(EXPORT_THREAD, { workerData: job, resourceLimits: EXPORT_THREAD_LIMITS });
      threads++;
      thread.on('message', onMessage);
      thread.on('error', fail);
      thread.once('exit', (code) => {
        threads--;
        release();
        if (!finished && !stream.destroyed) fail(new Error(`Export interrompu (code ${code}).`));
      });
    };
    running++;
    if (running <= MAX_CONCURRENT_EXPORTS) begin();
    else waiting.push(begin);
  });
}
