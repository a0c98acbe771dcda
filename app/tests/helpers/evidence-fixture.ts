// The evidence files' server fixture (docs/decisions/0033-evidence-files.md): one test app per file and engine
// with small limits (1 MB per file, 3 MB per report) and a clock the tests move, a creator, an assignee, another
// user and an administrator signed in, a report, and the requests the evidence tests send. Each test starts
// without files (the limits count them). Contents: PDFs with a marker the database must never show, a PNG, a
// JPEG, an MP3, an MP4 and a WebM (the least bytes file-type recognises), a DOCX, an executable.
import type { Readable } from 'node:stream';
import { count } from 'drizzle-orm';
import { afterEach, beforeAll, expect } from 'vitest';
import type { EvidenceDto } from '#shared/dto/evidence';
import type { Clock } from '#server/context';
import type { Engine } from '#server/db/client';
import { sessionUserOf } from './app';
import { insertAssignment, SAME_ORIGIN } from './report-fixture';
import { createReport } from './signalements';
import { serverSuite } from './suite';

export class FixedClock implements Clock {
  at = new Date();
  now() {
    return new Date(this.at);
  }
  advance(minutes: number) {
    this.at = new Date(this.at.getTime() + minutes * 60_000);
  }
}

export const MARKER = Buffer.from('TEMOIGNAGE-EN-CLAIR-0123456789');
/** A PDF as file-type reads it: its magic bytes, then a body holding a marker the database must never show. */
export function pdf(size: number): Buffer {
  const head = Buffer.from(
    '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n',
    'latin1',
  );
  const body = Buffer.alloc(Math.max(0, size - head.length));
  for (let i = 0; i < body.length; i += MARKER.length) MARKER.copy(body, i);
  return Buffer.concat([head, body]).subarray(0, size);
}
// A 1×1 PNG.
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** A JPEG as file-type reads it: start of image, a JFIF APP0 segment, end of image. */
export const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
  0x00, 0x00, 0xff, 0xd9,
]);
/** An MP3: two silent MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz: 417 bytes each), no ID3 tag. */
export function mp3(): Buffer {
  const b = Buffer.alloc(417 * 2);
  for (const at of [0, 417]) b.set([0xff, 0xfb, 0x90, 0x64], at);
  return b;
}
/** An MP4: its `ftyp` box alone (brand isom), which is what file-type reads. */
export function mp4(): Buffer {
  const b = Buffer.alloc(24);
  b.writeUInt32BE(24, 0);
  b.write('ftypisom', 4, 'latin1');
  b.writeUInt32BE(0x200, 12);
  b.write('isomiso2', 16, 'latin1');
  return b;
}
/** A WebM: the EBML header with DocType « webm ». */
export const WEBM = Buffer.from([
  0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2, 0x81, 0x04, 0x42,
  0xf3, 0x81, 0x08, 0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6d, 0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02,
]);
/** A zip of stored (uncompressed) entries: only the local headers file-type reads. */
export function storedZip(entries: Array<[string, string]>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, text] of entries) {
    const data = Buffer.from(text);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(Buffer.byteLength(name), 26);
    parts.push(header, Buffer.from(name), data);
  }
  return Buffer.concat(parts);
}
export const DOCX = storedZip([
  [
    '[Content_Types].xml',
    '<Types><Override ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  ],
  ['word/document.xml', '<w:document/>'],
]);
/** A Windows executable: « MZ », then a PE header where file-type looks for it. */
export function exe(): Buffer {
  const b = Buffer.alloc(1024);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.write('PE\0\0', 0x80, 'latin1');
  return b;
}

/** Call in the describe block of one engine (describe.each(await testEngines())). */
export function evidenceSuite(engine: Engine) {
  const clock = new FixedClock();
  const suite = serverSuite(engine, {
    user: { email: 'createur@example.mg', nomPrenom: 'Rabe Createur' },
    // Small limits so the tests stream past them: 1 MB per file, 3 MB per report.
    env: { EVIDENCE_MAX_MB: '1', EVIDENCE_REPORT_MAX_MB: '3' },
    options: { clock },
  });
  const t = suite.app;
  const cookie = { creator: '', other: '', assignee: '', admin: '' };
  type Caller = keyof typeof cookie;
  const ids = { report: '' };

  beforeAll(async () => {
    await t.user('autre@example.mg', 'ROLE_USER', 'Rakoto Autre');
    const assignee = await t.user('assigne@example.mg', 'ROLE_USER', 'Ravelo Assigne');
    cookie.creator = suite.user.cookie;
    cookie.admin = suite.admin.cookie;
    cookie.other = await t.login('autre@example.mg');
    cookie.assignee = await t.login('assigne@example.mg');
    ids.report = await createReport(t, cookie.creator);
    await insertAssignment(t, ids.report, assignee);
  });
  // Each test starts without files (the limits count them).
  afterEach(async () => clearFiles());

  const upload = (
    caller: Caller,
    content: Buffer | Readable,
    name = 'pièce.pdf',
    code = ids.report,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method: 'POST',
      url: `/api/signalements/${code}/pieces-jointes`,
      headers: {
        cookie: cookie[caller],
        ...SAME_ORIGIN,
        'content-type': 'application/octet-stream',
        'x-nom-fichier': encodeURIComponent(name),
        ...headers,
      },
      payload: content,
    });
  const uploaded = async (caller: Caller, content: Buffer, name?: string, code?: string) => {
    const res = await upload(caller, content, name, code);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as EvidenceDto;
  };
  const send = (caller: Caller, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: {
        cookie: cookie[caller],
        ...SAME_ORIGIN,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const list = async (caller: Caller, code = ids.report) => {
    const res = await send(caller, 'GET', `/api/signalements/${code}/pieces-jointes`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      member: EvidenceDto[];
      totalItems: number;
      peutAjouter: boolean;
      masquees: number;
      limites: { fichier: number; signalement: number; utilise: number };
    };
  };
  const stored = async () => {
    const { evidenceFiles: f, evidenceChunks: c } = t.db.t;
    const [files] = await t.db.read.select({ n: count() }).from(f);
    const [chunks] = await t.db.read.select({ n: count() }).from(c);
    return { files: Number(files!.n), chunks: Number(chunks!.n) };
  };
  const clearFiles = async () => {
    const { evidenceFiles: f, evidenceChunks: c } = t.db.t;
    await t.db.transaction(async (tx) => {
      await tx.delete(c);
      await tx.delete(f);
    });
  };

  /** A user as the session gives it, for a service called directly. */
  const sessionUser = (email: string) => sessionUserOf(t, email);

  return {
    suite,
    t,
    clock,
    cookie,
    /** The report the tests attach to by default (created in beforeAll). */
    get report() {
      return ids.report;
    },
    upload,
    uploaded,
    send,
    list,
    stored,
    clearFiles,
    sessionUser,
  };
}
