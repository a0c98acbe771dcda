// Evidence files (docs/decisions/0033-evidence-files.md) by both doors on both engines: the type read from the
// content, the limits while streaming with nothing left behind, encryption at rest and key rotation, the
// download's headers, the access log and its alerts, who may do what (need to know on anonymous reports),
// the uploader's 15-minute window on a fixed clock, and the history that keeps the name and the hash.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { count, eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVIDENCE_CHUNK_BYTES, EVIDENCE_DELETE_MINUTES } from '#shared/constants';
import type { EvidenceDto } from '#shared/dto/evidence';
import type { Clock } from '#server/context';
import type { SessionUser } from '#server/domains/auth/session';
import { createCipher, generateDataKey } from '#server/crypto/cipher';
import { reencryptAll } from '#server/crypto/rotate';
import { testEngines } from '#tests/helpers/db';
import { accessLogRows } from '#tests/helpers/journal';
import { insertAssignment, SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import { serverSuite } from '#tests/helpers/suite';
import { EVIDENCE_TEXTS } from './files';
import { purgeAbandonedUploads, uploadEvidence } from './upload';
import { UNSUPPORTED_TYPE_MESSAGE } from './types';

class FixedClock implements Clock {
  at = new Date();
  now() {
    return new Date(this.at);
  }
  advance(minutes: number) {
    this.at = new Date(this.at.getTime() + minutes * 60_000);
  }
}

const MARKER = Buffer.from('TEMOIGNAGE-EN-CLAIR-0123456789');
/** A PDF as file-type reads it: its magic bytes, then a body holding a marker the database must never show. */
function pdf(size: number): Buffer {
  const head = Buffer.from(
    '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n',
    'latin1',
  );
  const body = Buffer.alloc(Math.max(0, size - head.length));
  for (let i = 0; i < body.length; i += MARKER.length) MARKER.copy(body, i);
  return Buffer.concat([head, body]).subarray(0, size);
}
// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** A zip of stored (uncompressed) entries: only the local headers file-type reads. */
function storedZip(entries: Array<[string, string]>): Buffer {
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
const DOCX = storedZip([
  [
    '[Content_Types].xml',
    '<Types><Override ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  ],
  ['word/document.xml', '<w:document/>'],
]);
/** A Windows executable: « MZ », then a PE header where file-type looks for it. */
function exe(): Buffer {
  const b = Buffer.alloc(1024);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.write('PE\0\0', 0x80, 'latin1');
  return b;
}

describe.each(await testEngines())('evidence files on %s', (engine) => {
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
  let report: string;

  beforeAll(async () => {
    await t.user('autre@example.mg', 'ROLE_USER', 'Rakoto Autre');
    const assignee = await t.user('assigne@example.mg', 'ROLE_USER', 'Ravelo Assigne');
    cookie.creator = suite.user.cookie;
    cookie.admin = suite.admin.cookie;
    cookie.other = await t.login('autre@example.mg');
    cookie.assignee = await t.login('assigne@example.mg');
    report = await createReport(t, cookie.creator);
    await insertAssignment(t, report, assignee);
  });
  // Each test starts without files (the limits count them).
  afterEach(async () => clearFiles());

  const upload = (
    caller: Caller,
    content: Buffer | Readable,
    name = 'pièce.pdf',
    code = report,
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
  const list = async (caller: Caller, code = report) => {
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

  it('attaches a file by streaming it, lists it by both doors, and downloads it byte for byte as an attachment', async () => {
    const content = pdf(EVIDENCE_CHUNK_BYTES * 2 + 1234);
    const dto = await uploaded('creator', content, 'Procès-verbal « été ».pdf');
    expect(dto).toMatchObject({
      '@type': 'PieceJointe',
      nom: 'Procès-verbal « été ».pdf',
      type: 'application/pdf',
      taille: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
      auteur: { code: suite.user.code, nomPrenom: 'Rabe Createur' },
      signalement: `/api/signalements/${report}`,
      supprimable: true,
    });
    const rest = await list('creator');
    expect(rest.member.map((f) => f.code)).toEqual([dto.code]);
    expect(rest).toMatchObject({ peutAjouter: true, masquees: 0 });
    expect(rest.limites).toEqual({ fichier: 1_000_000, signalement: 3_000_000, utilise: content.length });
    const trpc = await send(
      'creator',
      'GET',
      `/trpc/piecesJointes.list?input=${encodeURIComponent(JSON.stringify({ signalement: report }))}`,
    );
    expect(trpc.json().result.data.piecesJointes[0].sha256).toBe(dto.sha256);

    const down = await send('other', 'GET', dto.contenu);
    expect(down.statusCode, down.body).toBe(200);
    expect(down.rawPayload.equals(content)).toBe(true);
    expect(down.headers['content-type']).toBe('application/pdf');
    expect(down.headers['content-length']).toBe(String(content.length));
    expect(down.headers['content-disposition']).toBe(
      `attachment; filename="Proc_s-verbal _ _t_ _.pdf"; filename*=UTF-8''Proc%C3%A8s-verbal%20%C2%AB%20%C3%A9t%C3%A9%20%C2%BB.pdf`,
    );
    expect(down.headers['x-content-type-options']).toBe('nosniff');
    expect(down.headers['content-security-policy']).toContain("default-src 'self'");
    expect(down.headers['cache-control']).toBe('no-store');
    await clearFiles();
  });

  it('reads the type from the content, never the name: a PDF named .jpg is a PDF, an .exe named .pdf is refused', async () => {
    const renamed = await uploaded('creator', pdf(2000), 'photo.jpg');
    expect(renamed.type).toBe('application/pdf');
    expect((await uploaded('creator', PNG, 'capture')).type).toBe('image/png');
    expect((await uploaded('creator', DOCX, 'rapport.pdf')).type).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    for (const content of [
      exe(),
      Buffer.from('<html><script>alert(1)</script></html>'),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      storedZip([['notes.txt', 'une archive, pas un document']]),
      randomBytes(5000),
    ]) {
      const refused = await upload('creator', content, 'rapport.pdf');
      expect(refused.statusCode, refused.body).toBe(415);
      expect(refused.json().message).toBe(UNSUPPORTED_TYPE_MESSAGE);
    }
    const empty = await upload('creator', Buffer.alloc(0));
    expect([empty.statusCode, empty.json().message]).toEqual([400, EVIDENCE_TEXTS.empty]);
    expect(await stored()).toEqual({ files: 3, chunks: 3 });
    await clearFiles();
  });

  it('refuses a body that is not application/octet-stream, a missing or hostile name, in French', async () => {
    const typed = await upload('creator', pdf(100), 'a.pdf', report, {
      'content-type': 'multipart/form-data; boundary=x',
    });
    expect(typed.statusCode).toBe(415);
    for (const name of ['', '../../etc/passwd', 'a\u0000b.pdf', 'x'.repeat(201)]) {
      const res = await upload('creator', pdf(100), name);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().message).toMatch(/nom du fichier/i);
    }
    const broken = await upload('creator', pdf(100), 'x', report, { 'x-nom-fichier': '%E9%' });
    expect(broken.statusCode).toBe(400);
    expect(await stored()).toEqual({ files: 0, chunks: 0 });
  });

  it('refuses past the per-file limit while streaming (413), announced or not, and keeps nothing', async () => {
    const announced = await upload('creator', pdf(1_000_001), 'gros.pdf');
    expect(announced.statusCode).toBe(413);
    expect(announced.json().message).toBe(EVIDENCE_TEXTS.tooLarge(1));
    // Without a length: a stream of 50 MB that the server stops reading long before its end.
    let pulled = 0;
    const endless = Readable.from(
      (function* () {
        yield pdf(64 * 1024);
        for (let i = 0; i < 800; i++) {
          pulled += 64 * 1024;
          yield randomBytes(64 * 1024);
        }
      })(),
    );
    const streamed = await upload('creator', endless, 'flux.pdf');
    expect(streamed.statusCode, streamed.body).toBe(413);
    expect(streamed.headers.connection).toBe('close');
    expect(pulled).toBeLessThan(5 * 1024 * 1024);
    expect(await stored()).toEqual({ files: 0, chunks: 0 });
  });

  it('refuses past the per-report total (413) and keeps nothing of the refused file', async () => {
    const third = await createReport(t, cookie.creator);
    for (let i = 0; i < 3; i++) await uploaded('creator', pdf(900_000), `f${i}.pdf`, third);
    const refused = await upload('creator', pdf(400_000), 'de trop.pdf', third);
    expect(refused.statusCode).toBe(413);
    expect(refused.json().message).toBe(EVIDENCE_TEXTS.reportFull(3));
    expect((await list('creator', third)).totalItems).toBe(3);
    expect((await stored()).files).toBe(3);
    await clearFiles();
  });

  it('removes every block of an upload cut off midway, and of uploads abandoned an hour ago', async () => {
    const body = (async function* () {
      yield pdf(EVIDENCE_CHUNK_BYTES * 2);
      throw new Error('connexion coupée');
    })();
    await expect(
      uploadEvidence(t.ctx, await sessionUser('createur@example.mg'), {
        signalement: report,
        nom: 'coupé.pdf',
        body,
      }),
    ).rejects.toThrow('connexion coupée');
    expect(await stored()).toEqual({ files: 0, chunks: 0 });
    // A crash leaves a row without hash and its blocks: gone an hour later.
    const { evidenceFiles: f, evidenceChunks: c, signalements: s } = t.db.t;
    const [r] = await t.db.read.select({ id: s.id }).from(s).where(eq(s.code, report));
    await t.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(f)
        .values({
          code: 'PJ-CRASH-0001',
          signalementId: r!.id,
          uploadedById: 1,
          nom: 'x',
          type: 'application/pdf',
          cle: 'v1:x',
          createdAt: clock.now(),
        })
        .returning({ id: f.id });
      await tx.insert(c).values({ evidenceId: row!.id, idx: 0, data: Buffer.from('x') });
    });
    expect(await purgeAbandonedUploads(t.ctx)).toBe(0);
    clock.advance(61);
    expect(await purgeAbandonedUploads(t.ctx)).toBe(1);
    expect(await stored()).toEqual({ files: 0, chunks: 0 });
  });

  async function sessionUser(email: string): Promise<SessionUser> {
    const u = t.db.t.utilisateurs;
    const [row] = await t.db.read.select().from(u).where(eq(u.email, email));
    return {
      id: row!.id,
      code: row!.code,
      email: row!.email,
      nomPrenom: row!.nomPrenom,
      isEnabled: true,
      lastConnectionAt: null,
      role: { code: 'ROLE_USER', designation: 'Utilisateur' },
      twoFactorEnrolled: false,
    } as SessionUser;
  }

  it('stores no byte of the file in clear, and a key rotation keeps it downloadable', async () => {
    const content = pdf(EVIDENCE_CHUNK_BYTES + 5000);
    const dto = await uploaded('creator', content);
    const { evidenceChunks: c, evidenceFiles: f } = t.db.t;
    const blocks = await t.db.read.select({ data: c.data }).from(c);
    expect(blocks.length).toBe(2);
    for (const b of blocks) expect(Buffer.from(b.data).includes(MARKER)).toBe(false);
    const [row] = await t.db.read.select().from(f).where(eq(f.code, dto.code));
    expect(JSON.stringify(row)).not.toContain(MARKER.toString());
    const before = row!.cle;

    const to = createCipher(generateDataKey());
    const counts = await reencryptAll(t.db, t.ctx.cipher!, to);
    expect(counts.evidence).toBe(1);
    t.ctx.cipher = to;
    const [after] = await t.db.read.select({ cle: f.cle }).from(f).where(eq(f.code, dto.code));
    expect(after!.cle).not.toBe(before);
    const down = await send('creator', 'GET', dto.contenu);
    expect(down.statusCode, down.body).toBe(200);
    expect(down.rawPayload.equals(content)).toBe(true);
    await clearFiles();
  });

  it('refuses a block moved out of its place: the download fails rather than answer other bytes', async () => {
    const dto = await uploaded('creator', pdf(EVIDENCE_CHUNK_BYTES * 2 + 10));
    const { evidenceChunks: c, evidenceFiles: f } = t.db.t;
    const [row] = await t.db.read.select({ id: f.id }).from(f).where(eq(f.code, dto.code));
    const blocks = await t.db.read.select().from(c).where(eq(c.evidenceId, row!.id));
    await t.db.transaction(async (tx) => {
      await tx.update(c).set({ idx: 99 }).where(eq(c.idx, 0));
      await tx.update(c).set({ idx: 0 }).where(eq(c.idx, 1));
      await tx.update(c).set({ idx: 1 }).where(eq(c.idx, 99));
    });
    expect(blocks.length).toBe(3);
    // The first block no longer opens: a 500 before any byte, never the wrong bytes.
    const res = await send('creator', 'GET', dto.contenu);
    expect(res.statusCode).toBe(500);
    expect(res.rawPayload.includes(MARKER)).toBe(false);
    await clearFiles();
  });

  it('logs every list and download in the access log, and downloads count toward the reading alerts', async () => {
    const dto = await uploaded('creator', pdf(3000));
    const before = (await accessLogRows(t, 'lecture_pieces_jointes')).length;
    await list('other');
    expect((await send('other', 'GET', dto.contenu)).statusCode).toBe(200);
    const rows = (await accessLogRows(t, 'lecture_pieces_jointes')).slice(before);
    expect(rows.map((r) => [r.signalementCode, r.details])).toEqual([
      [report, { nombre: 1 }],
      [report, { telechargement: dto.code, taille: 3000 }],
    ]);
    await clearFiles();
  });

  it('raises a reading alert when one user downloads the files of many reports', async () => {
    const reports: string[] = [];
    for (let i = 0; i < t.config.ACCESS_ALERT_READS; i++) {
      const code = await createReport(t, cookie.creator);
      reports.push((await uploaded('creator', pdf(500), 'p.pdf', code)).contenu);
    }
    for (const url of reports) expect((await send('other', 'GET', url)).statusCode).toBe(200);
    const a = t.db.t.accessAlerts;
    const alerts = await t.db.read.select().from(a);
    expect(alerts.map((x) => x.kind)).toContain('lecture_massive');
    await clearFiles();
  });

  it('lets who may edit the report attach (creator, assignee, administrator), nobody else; reads for every reader', async () => {
    for (const caller of ['creator', 'assignee', 'admin'] as const) await uploaded(caller, pdf(100));
    const refused = await upload('other', pdf(100));
    expect(refused.statusCode).toBe(403);
    const other = await list('other');
    expect(other.totalItems).toBe(3);
    expect(other.peutAjouter).toBe(false);
    expect(other.member.every((f) => !f.supprimable)).toBe(true);
    expect((await upload('creator', pdf(100), 'a.pdf', 'SIG-XXXX-XXXX')).statusCode).toBe(404);
    const anonymous = await send('creator', 'GET', `/api/signalements/${report}/pieces-jointes`).then(() =>
      t.app.inject({ method: 'GET', url: `/api/signalements/${report}/pieces-jointes` }),
    );
    expect(anonymous.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: other.member[0]!.contenu })).statusCode).toBe(401);
    await clearFiles();
  });

  it('hides an anonymous report\u2019s files, their downloads and their history from who may not know its sources', async () => {
    const code = await createReport(t, cookie.creator);
    const dto = await uploaded('creator', pdf(100), 'Rasoa témoin.pdf', code);
    expect(
      (await mergePatch(t, cookie.creator, `/api/signalements/${code}`, { isAnonyme: true })).statusCode,
    ).toBe(200);
    const other = await list('other', code);
    expect(other).toMatchObject({ totalItems: 0, masquees: 1, peutAjouter: false });
    expect((await send('other', 'GET', dto.contenu)).statusCode).toBe(403);
    const history = await send('other', 'GET', `/api/signalements/${code}/historique`);
    expect(history.body).not.toContain('Rasoa');
    expect(history.body).not.toContain(dto.sha256);
    const mine = await send('creator', 'GET', `/api/signalements/${code}/historique`);
    expect(mine.body).toContain('Rasoa témoin.pdf');
    await clearFiles();
  });

  it('lets the uploader delete within 15 minutes, an administrator at any time; keeps name and hash in the history', async () => {
    const mine = await uploaded('creator', pdf(100), 'à effacer.pdf');
    const byOther = await send('assignee', 'DELETE', `/api/pieces-jointes/${mine.code}`);
    expect([byOther.statusCode, byOther.json().message]).toEqual([403, EVIDENCE_TEXTS.notUploader]);
    expect((await send('other', 'DELETE', `/api/pieces-jointes/${mine.code}`)).statusCode).toBe(403);
    const deleted = await send('creator', 'DELETE', `/api/pieces-jointes/${mine.code}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await stored()).toEqual({ files: 0, chunks: 0 });

    const late = await uploaded('creator', pdf(100), 'gelé.pdf');
    clock.advance(EVIDENCE_DELETE_MINUTES + 1);
    expect((await list('creator')).member[0]!.supprimable).toBe(false);
    const refused = await send('creator', 'POST', '/trpc/piecesJointes.delete', { code: late.code });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(EVIDENCE_TEXTS.frozen);
    expect((await list('admin')).member[0]!.supprimable).toBe(true);
    const byAdmin = await send('admin', 'POST', '/trpc/piecesJointes.delete', { code: late.code });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect((await send('admin', 'DELETE', `/api/pieces-jointes/${late.code}`)).statusCode).toBe(404);

    const history = (await send('creator', 'GET', `/api/signalements/${report}/historique`)).json() as Array<{
      action: string;
      changes: Record<string, { from: unknown; to: unknown }>;
    }>;
    const entries = (
      Array.isArray(history) ? history : (history as { member: typeof history }).member
    ).filter(
      (e) =>
        e.action.startsWith('piece_jointe.') &&
        (e.changes.piece?.from === late.code || e.changes.piece?.to === late.code),
    );
    expect(entries.map((e) => e.action).sort()).toEqual(['piece_jointe.ajout', 'piece_jointe.suppression']);
    const removal = entries.find((e) => e.action === 'piece_jointe.suppression')!;
    expect(removal.changes).toEqual({
      piece: { from: late.code, to: null },
      nom: { from: 'gelé.pdf', to: null },
      sha256: { from: late.sha256, to: null },
    });
  });

  it('answers a repeat of an upload with its Idempotency-Key with the first file, and stores the bytes once', async () => {
    const content = pdf(4000);
    const headers = { 'idempotency-key': 'envoi-piece-0001' };
    const first = await upload('creator', content, 'une fois.pdf', report, headers);
    expect(first.statusCode, first.body).toBe(201);
    const again = await upload('creator', content, 'une fois.pdf', report, headers);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().code).toBe(first.json().code);
    expect(await stored()).toEqual({ files: 1, chunks: 1 });
    const other = await upload('creator', pdf(4001), 'une fois.pdf', report, headers);
    expect(other.statusCode).toBe(409);
    expect(await stored()).toEqual({ files: 1, chunks: 1 });
    await clearFiles();
  });
});
