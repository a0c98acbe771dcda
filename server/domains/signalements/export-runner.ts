// Runs the xlsx export in a worker thread (export-worker.ts) and exposes its bytes as a stream for the
// response. The worker's heap is capped: an export cannot grow the serving process past a bound, and
// an export that would is stopped (the download fails) instead of the server.
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { ExportControl, ExportJob, ExportMessage } from './export-worker';

/** Heap limits of one export worker (MB): its working set is a batch of rows, about 60 MB with code. */
export const EXPORT_WORKER_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 8 };

/** The worker's entry: the bundle's own file when running built, else the TypeScript source via tsx. */
function workerEntry(): URL {
  return import.meta.url.endsWith('.ts')
    ? new URL('./export-worker.bootstrap.mjs', import.meta.url)
    : new URL('./export-worker.mjs', import.meta.url);
}

/** Exports written at the same time; later ones wait for a free slot (each worker holds its own heap). */
export const MAX_CONCURRENT_EXPORTS = 2;
let running = 0;
let workers = 0;
const waiting: Array<() => void> = [];

/** How many export worker threads are alive now (tests, diagnostics). */
export const exportWorkers = () => workers;

function release() {
  running--;
  waiting.shift()?.();
}

export function xlsxInWorker(job: ExportJob): Readable {
  let worker: Worker | undefined;
  let paused = false;
  let finished = false;
  let cancelled = false;
  const control = (message: ExportControl) => worker?.postMessage(message);
  const stream = new Readable({
    read() {
      if (paused) {
        paused = false;
        control('resume');
      }
    },
    destroy(error, callback) {
      cancelled = true;
      if (worker && !finished) void worker.terminate();
      callback(error);
    },
  });
  const onMessage = (message: ExportMessage) => {
    if (message.type === 'data') {
      const chunk = Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.byteLength);
      if (!stream.push(chunk) && !paused) {
        paused = true;
        control('pause');
      }
    } else if (message.type === 'end') {
      finished = true;
      stream.push(null);
    } else {
      finished = true;
      stream.destroy(new Error(message.message));
    }
  };
  const begin = () => {
    if (cancelled) return release();
    worker = new Worker(workerEntry(), { workerData: job, resourceLimits: EXPORT_WORKER_LIMITS });
    workers++;
    worker.on('message', onMessage);
    worker.on('error', (error) => stream.destroy(error));
    worker.once('exit', (code) => {
      workers--;
      release();
      if (!finished && !stream.destroyed) stream.destroy(new Error(`Export interrompu (code ${code}).`));
    });
  };
  running++;
  if (running <= MAX_CONCURRENT_EXPORTS) begin();
  else waiting.push(begin);
  return stream;
}
