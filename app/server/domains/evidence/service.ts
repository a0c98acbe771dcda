// Evidence files of a report, « Pièces jointes » (docs/decisions/0033-evidence-files.md): listing, downloading
// and deleting. Listed and downloaded by whoever may read the report, and on an anonymous report only by
// whoever may know its sources (as internal notes, 0029). The content is streamed out of its encrypted blocks
// (server/crypto/evidence.ts), never held whole; every list and download is in the access log; every deletion
// is in the report's history with the name and the SHA-256, never the content. Attaching is upload.ts.
import { createHash } from 'node:crypto';
import { and, asc, count, desc, eq, isNotNull } from 'drizzle-orm';
import type { EvidenceListDto } from '#shared/dto/evidence';
import { cipherOf } from '#server/context';
import { openBlock, unwrapFileKey } from '#server/crypto/evidence';
import { conflict, forbidden } from '#server/errors';
import { isAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';
import { recordEvidenceRead } from '../journal/record';
import { canEditAs, findEditable, findSignalement, type SignalementRow } from '../signalements/access';
import { recordChange } from '../signalements/history';
import {
  DELETE_WINDOW_MS,
  EVIDENCE_TEXTS,
  evidenceDto,
  findFile,
  limitsOf,
  mayDelete,
  mayRead,
  selectFiles,
  type EvidenceContext,
  type FileRow,
} from './files';

/** The report's files, newest first; logged in the access log before the answer is returned. */
export async function listEvidence(
  ctx: EvidenceContext,
  actor: SessionUser,
  signalement: string,
): Promise<EvidenceListDto> {
  const report = await findSignalement(ctx.db, signalement);
  const { list, read } = await readEvidence(ctx, actor, report);
  await recordEvidenceRead(ctx, actor, report.code, read);
  return list;
}

/**
 * The report's files as listEvidence answers them, and what the access log must say of the read, not
 * logged: for a caller that logs the read itself (the print view). Same need-to-know rule.
 */
export async function readEvidence(
  ctx: EvidenceContext,
  actor: SessionUser,
  report: SignalementRow,
): Promise<{ list: EvidenceListDto; read: { nombre: number } | { protegees: true; masquees: number } }> {
  const { db } = ctx;
  const f = db.t.evidenceFiles;
  const limits = limitsOf(ctx);
  const finished = and(eq(f.signalementId, report.id), isNotNull(f.sha256));
  if (!mayRead(actor, report)) {
    const [row] = await db.read.select({ n: count() }).from(f).where(finished);
    const masquees = Number(row?.n ?? 0);
    return {
      list: { piecesJointes: [], peutAjouter: false, masquees, limites: { ...limits, utilise: 0 } },
      read: { protegees: true, masquees },
    };
  }
  const rows = await selectFiles(db, db.read).where(finished).orderBy(desc(f.createdAt), desc(f.id));
  const now = ctx.clock.now();
  return {
    list: {
      piecesJointes: rows.map((r) => evidenceDto(r, report.code, mayDelete(actor, report, r, now))),
      peutAjouter: canEditAs(actor)(report),
      masquees: 0,
      limites: { ...limits, utilise: rows.reduce((total, r) => total + r.taille, 0) },
    },
    read: { nombre: rows.length },
  };
}

export interface EvidenceDownload {
  nom: string;
  type: string;
  taille: number;
  /** The decrypted content, one block at a time; fails (never ends cleanly) on a damaged file. */
  content: AsyncGenerator<Buffer>;
}

/** A file to download: the rights checked and the download logged before the first byte. */
export async function downloadEvidence(
  ctx: EvidenceContext,
  actor: SessionUser,
  code: string,
): Promise<EvidenceDownload> {
  const { db } = ctx;
  const { row, reportCode } = await findFile(ctx, db.read, code);
  const report = await findSignalement(db, reportCode);
  if (!mayRead(actor, report)) throw forbidden(EVIDENCE_TEXTS.protectedReport);
  const key = unwrapFileKey(cipherOf(ctx), row.cle);
  await recordEvidenceRead(ctx, actor, report.code, { telechargement: row.code, taille: row.taille });
  return { nom: row.nom, type: row.type, taille: row.taille, content: decryptBlocks(ctx, row, key) };
}

async function* decryptBlocks(ctx: EvidenceContext, row: FileRow, key: Buffer): AsyncGenerator<Buffer> {
  const { db } = ctx;
  const c = db.t.evidenceChunks;
  const hash = createHash('sha256');
  for (let index = 0; index < row.blocs; index++) {
    const [block] = await db.read
      .select({ data: c.data })
      .from(c)
      .where(and(eq(c.evidenceId, row.id), eq(c.idx, index)))
      .orderBy(asc(c.idx));
    if (!block) throw new Error(`evidence ${row.code}: block ${index} missing`);
    const plain = openBlock(key, row.code, index, index === row.blocs - 1, Buffer.from(block.data));
    hash.update(plain);
    yield plain;
  }
  if (hash.digest('hex') !== row.sha256) throw new Error(`evidence ${row.code}: SHA-256 differs`);
}

/**
 * Deletes a file: its uploader within EVIDENCE_DELETE_MINUTES by the context's clock, or an administrator at
 * any time; both must be able to edit the report. Checks: 404 file → 403 report not editable → 403 not the
 * uploader → 409 too late. The history keeps its name and SHA-256.
 */
export async function deleteEvidence(ctx: EvidenceContext, actor: SessionUser, code: string): Promise<void> {
  const { db } = ctx;
  const { evidenceFiles: f, evidenceChunks: c } = db.t;
  await db.transaction(async (tx) => {
    const { row, reportCode } = await findFile(ctx, tx, code);
    const report = await findEditable(db, actor, reportCode, tx);
    if (!isAdmin(actor)) {
      if (row.uploadedById !== actor.id) throw forbidden(EVIDENCE_TEXTS.notUploader);
      if (ctx.clock.now().getTime() > row.createdAt.getTime() + DELETE_WINDOW_MS)
        throw conflict(EVIDENCE_TEXTS.frozen);
    }
    await tx.delete(c).where(eq(c.evidenceId, row.id));
    await tx.delete(f).where(eq(f.id, row.id));
    await recordChange(ctx, tx, report.id, actor, 'piece_jointe.suppression', {
      piece: { from: row.code, to: null },
      nom: { from: row.nom, to: null },
      sha256: { from: row.sha256, to: null },
    });
  });
}
