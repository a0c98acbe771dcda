// The memory an evidence file's upload and download cost the server (docs/decisions/0033-evidence-files.md),
// measured over a real socket: the file is generated and sent in 64 KiB pieces, the download is read and
// hashed as it arrives, so neither side of this process ever holds it whole. The figure is the growth of the
// memory the process's JavaScript holds (residentMemory()) over its level before the transfer, sampled at each
// quarter of the file and in between (peakDuring()): client included, so an upper bound of the server's own.
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Engine } from '#server/db/client';
import { createTestApp } from './app';

const PIECE = 64 * 1024;

export interface EvidenceMemory {
  engine: Engine;
  bytes: number;
  /** Peak RSS growth during the upload, and during the download, in bytes. */
  uploadExtra: number;
  downloadExtra: number;
}

function* fileBody(
  bytes: number,
  hash: ReturnType<typeof createHash>,
  progress: (done: number) => void,
): Generator<Buffer> {
  const head = Buffer.from('%PDF-1.4\n');
  hash.update(head);
  yield head;
  for (let sent = head.length; sent < bytes; sent += PIECE) {
    const piece = Buffer.alloc(Math.min(PIECE, bytes - sent), sent % 251);
    hash.update(piece);
    progress(sent);
    yield piece;
  }
  progress(bytes);
}

/**
 * The memory the process's JavaScript holds: V8's heap in use and the memory outside it that buffers own
 * (`external` includes every ArrayBuffer: the file's pieces, its blocks, their encrypted copies). Not the
 * resident set: the allocator keeps freed pages for reuse, so RSS growth depends on what ran before in the
 * process (the second engine's run grew by nothing), and the pages of the database file SQLite's readers map
 * count in it although the kernel takes them back at will. SQLite's own page cache is bounded by its settings.
 */
function residentMemory(): number {
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

/**
 * V8's collector, reached without --expose-gc: before each sample, so that a figure is the memory the
 * transfer holds, not the garbage a busy event loop has not collected yet (on SQLite every write is
 * synchronous on this thread, and the collector then runs late: the same transfer measured 65 to 103 MB
 * depending on the machine's load).
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/**
 * Twice: a collection frees the ArrayBuffers it found dead only after it returns (their sweep is finished by
 * the next collection), so `external` read after one still counts them. Measured: 80 dropped blocks of
 * 256 KiB read 22.8 MB after one collection and 2.1 MB after a second; a CI run read +10.0 MB for a SQLite
 * upload that holds a few blocks at a time and failed the streamed bound (half the file).
 */
const collect = () => {
  gc();
  gc();
};

/** Where a transfer samples for sure: at each quarter of the file sent or received. */
const QUARTERS = [0.25, 0.5, 0.75, 1];

/**
 * The peak of residentMemory() during `work`, each reading collected first. A full collection of this
 * process takes 60–90 ms (the test app and Vitest live in it): collecting at every 10 ms sample, as this did,
 * left the transfer between collections only, and a PostgreSQL upload of 20 MB took 26 s instead of 0.4 s.
 * So the samples are of two kinds:
 * - at each quarter of the file, through `progress` (the bytes the client has sent or received): for sure,
 *   whatever the machine's pace. A server that held the file whole would hold most of it when the client
 *   has handed its last piece to the socket, or has received its first quarter back;
 * - every 10 ms between them, but only when the memory read as it is passes the peak (a collection can only
 *   lower the figure), and only once the thread has run three times as long as the last collection took.
 */
function peakDuring<T>(
  work: (progress: (done: number) => void) => Promise<T>,
  bytes: number,
): Promise<{ result: T; extra: number }> {
  collect();
  const base = residentMemory();
  let peak = base;
  let next = 0;
  const sample = () => {
    const started = performance.now();
    collect();
    peak = Math.max(peak, residentMemory());
    const ended = performance.now();
    next = ended + 3 * (ended - started);
  };
  const timer = setInterval(() => {
    if (performance.now() >= next && residentMemory() > peak) sample();
  }, 10);
  let quarter = 0;
  const progress = (done: number) => {
    while (quarter < QUARTERS.length && done >= QUARTERS[quarter]! * bytes) {
      quarter += 1;
      sample();
    }
  };
  return work(progress).then(
    (result) => {
      clearInterval(timer);
      // Collected like every other sample: the last one, uncollected, counted the garbage of the transfer's
      // blocks that a busy event loop had not collected yet (one CI run read +14.7 MB on SQLite for an upload
      // that holds a few blocks at a time; other runs, 0.0 to 2.6 MB).
      sample();
      return { result, extra: peak - base };
    },
    (error: unknown) => {
      clearInterval(timer);
      throw error;
    },
  );
}

export async function measureEvidenceMemory(engine: Engine, bytes = 20_000_000): Promise<EvidenceMemory> {
  const t = await createTestApp(engine, { EVIDENCE_MAX_MB: String(Math.ceil(bytes / 1e6)) });
  try {
    await t.user('memoire@example.mg', 'ROLE_USER', 'Rabe Memoire');
    const cookie = await t.login('memoire@example.mg');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/signalements',
      headers: { cookie },
      payload: {
        partenaire: '/api/partenaires/IVY',
        subjects: ['/api/subjects/CORRUPTION'],
        canalPrincipal: '/api/canals/TELEPHONE',
        signalementAt: '2025-03-10',
      },
    });
    const report = created.json().code as string;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const headers = { cookie, 'sec-fetch-site': 'same-origin' };

    const send = (size: number, sent: ReturnType<typeof createHash>, progress: (done: number) => void) =>
      new Promise<{ status: number; code: string }>((resolve, reject) => {
        const req = request(
          {
            port,
            host: '127.0.0.1',
            method: 'POST',
            path: `/api/signalements/${report}/pieces-jointes`,
            headers: {
              ...headers,
              'content-type': 'application/octet-stream',
              'x-nom-fichier': 'gros.pdf',
            },
          },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (body += c));
            res.on('end', () => {
              try {
                resolve({ status: res.statusCode ?? 0, code: String(JSON.parse(body).code) });
              } catch (error) {
                reject(error instanceof Error ? error : new Error(String(error)));
              }
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        Readable.from(fileBody(size, sent, progress)).pipe(req);
      });
    const fetchBack = (
      code: string,
      received: ReturnType<typeof createHash>,
      progress: (done: number) => void,
    ) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          { port, host: '127.0.0.1', path: `/api/pieces-jointes/${code}/contenu`, headers },
          (res) => {
            let length = 0;
            res.on('data', (c: Buffer) => {
              length += c.length;
              received.update(c);
              progress(length);
            });
            res.on('end', () => resolve(length));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end();
      });

    // A small file there and back first: what a server pays once (its reader threads started, their modules
    // loaded, the statements prepared) is not what one file costs.
    const warm = await send(1_000_000, createHash('sha256'), () => undefined);
    if (warm.status !== 201) throw new Error(`warm-up upload: ${warm.status}`);
    await fetchBack(warm.code, createHash('sha256'), () => undefined);

    const sent = createHash('sha256');
    const upload = await peakDuring((progress) => send(bytes, sent, progress), bytes);
    if (upload.result.status !== 201) throw new Error(`upload: ${upload.result.status}`);

    const received = createHash('sha256');
    const download = await peakDuring((progress) => fetchBack(upload.result.code, received, progress), bytes);
    if (download.result !== bytes || received.digest('hex') !== sent.digest('hex'))
      throw new Error('download: the bytes differ from those sent');
    return { engine, bytes, uploadExtra: upload.extra, downloadExtra: download.extra };
  } finally {
    await t.close();
  }
}
