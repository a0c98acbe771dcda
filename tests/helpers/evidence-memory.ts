// The memory an evidence file's upload and download cost the server (docs/decisions/0033-evidence-files.md),
// measured over a real socket: the file is generated and sent in 64 KiB pieces, the download is read and
// hashed as it arrives, so neither side of this process ever holds it whole. The figure is the growth of the
// process's resident memory (RSS) over its level before the upload, sampled every 10 ms: client included, so
// an upper bound of the server's own.
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
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

function* fileBody(bytes: number, hash: ReturnType<typeof createHash>): Generator<Buffer> {
  const head = Buffer.from('%PDF-1.4\n');
  hash.update(head);
  yield head;
  for (let sent = head.length; sent < bytes; sent += PIECE) {
    const piece = Buffer.alloc(Math.min(PIECE, bytes - sent), sent % 251);
    hash.update(piece);
    yield piece;
  }
}

function peakDuring<T>(work: () => Promise<T>): Promise<{ result: T; extra: number }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  return work().then(
    (result) => {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage().rss);
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

    const sent = createHash('sha256');
    const upload = await peakDuring(
      () =>
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
              res.on('end', () => resolve({ status: res.statusCode ?? 0, code: JSON.parse(body).code }));
            },
          );
          req.on('error', reject);
          Readable.from(fileBody(bytes, sent)).pipe(req);
        }),
    );
    if (upload.result.status !== 201) throw new Error(`upload: ${upload.result.status}`);

    const received = createHash('sha256');
    const download = await peakDuring(
      () =>
        new Promise<number>((resolve, reject) => {
          const req = request(
            { port, host: '127.0.0.1', path: `/api/pieces-jointes/${upload.result.code}/contenu`, headers },
            (res) => {
              let length = 0;
              res.on('data', (c: Buffer) => {
                length += c.length;
                received.update(c);
              });
              res.on('end', () => resolve(length));
              res.on('error', reject);
            },
          );
          req.on('error', reject);
          req.end();
        }),
    );
    if (download.result !== bytes || received.digest('hex') !== sent.digest('hex'))
      throw new Error('download: the bytes differ from those sent');
    return { engine, bytes, uploadExtra: upload.extra, downloadExtra: download.extra };
  } finally {
    await t.close();
  }
}
