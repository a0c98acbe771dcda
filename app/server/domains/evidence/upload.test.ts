// Attaching evidence files (docs/decisions/0033-evidence-files.md) by both doors on both engines: streamed in and
// downloaded byte for byte as an attachment, the type read from the content, hostile names and bodies refused in
// French, the per-file and per-report limits while streaming with nothing left behind, cut and abandoned uploads
// removed, and a repeat with its Idempotency-Key answered with the first file.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { EVIDENCE_CHUNK_BYTES } from '#shared/constants';
import { testEngines } from '#tests/helpers/db';
import {
  DOCX,
  evidenceSuite,
  exe,
  JPEG,
  mp3,
  mp4,
  pdf,
  PNG,
  storedZip,
  WEBM,
} from '#tests/helpers/evidence-fixture';
import { createReport } from '#tests/helpers/signalements';
import { EVIDENCE_TEXTS } from './files';
import { purgeAbandonedUploads, uploadEvidence } from './upload';
import { UNSUPPORTED_TYPE_MESSAGE } from './types';

describe.each(await testEngines())('evidence files: attaching on %s', (engine) => {
  const ev = evidenceSuite(engine);
  const { suite, t, clock, cookie, upload, uploaded, send, list, stored, clearFiles, sessionUser } = ev;

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
      signalement: `/api/signalements/${ev.report}`,
      supprimable: true,
    });
    const rest = await list('creator');
    expect(rest.member.map((f) => f.code)).toEqual([dto.code]);
    expect(rest).toMatchObject({ peutAjouter: true, masquees: 0 });
    expect(rest.limites).toEqual({ fichier: 1_000_000, signalement: 3_000_000, utilise: content.length });
    const trpc = await send(
      'creator',
      'GET',
      `/trpc/piecesJointes.list?input=${encodeURIComponent(JSON.stringify({ signalement: ev.report }))}`,
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

  it('accepts a photo, a sound and a video by their content, with the type file-type reads', async () => {
    for (const [content, name, type] of [
      [JPEG, 'photo.jpeg', 'image/jpeg'],
      [mp3(), 'appel.bin', 'audio/mpeg'],
      [mp4(), 'video', 'video/mp4'],
      [WEBM, 'clip.mp4', 'video/webm'],
    ] as const) {
      const file = await uploaded('creator', content, name);
      expect([file.nom, file.type, file.taille]).toEqual([name, type, content.length]);
    }
    expect(await stored()).toEqual({ files: 4, chunks: 4 });
    await clearFiles();
  });

  it('refuses a body that is not application/octet-stream, a missing or hostile name, in French', async () => {
    const typed = await upload('creator', pdf(100), 'a.pdf', ev.report, {
      'content-type': 'multipart/form-data; boundary=x',
    });
    expect(typed.statusCode).toBe(415);
    for (const name of ['', '../../etc/passwd', 'a\u0000b.pdf', 'x'.repeat(201)]) {
      const res = await upload('creator', pdf(100), name);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().message).toMatch(/nom du fichier/i);
    }
    const broken = await upload('creator', pdf(100), 'x', ev.report, { 'x-nom-fichier': '%E9%' });
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
        signalement: ev.report,
        nom: 'coupé.pdf',
        body,
      }),
    ).rejects.toThrow('connexion coupée');
    expect(await stored()).toEqual({ files: 0, chunks: 0 });
    // A crash leaves a row without hash and its blocks: gone an hour later.
    const { evidenceFiles: f, evidenceChunks: c, signalements: s } = t.db.t;
    const [r] = await t.db.read.select({ id: s.id }).from(s).where(eq(s.code, ev.report));
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

  it('answers a repeat of an upload with its Idempotency-Key with the first file, and stores the bytes once', async () => {
    const content = pdf(4000);
    const headers = { 'idempotency-key': 'envoi-piece-0001' };
    const first = await upload('creator', content, 'une fois.pdf', ev.report, headers);
    expect(first.statusCode, first.body).toBe(201);
    const again = await upload('creator', content, 'une fois.pdf', ev.report, headers);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().code).toBe(first.json().code);
    expect(await stored()).toEqual({ files: 1, chunks: 1 });
    const other = await upload('creator', pdf(4001), 'une fois.pdf', ev.report, headers);
    expect(other.statusCode).toBe(409);
    expect(await stored()).toEqual({ files: 1, chunks: 1 });
    await clearFiles();
  });
});
