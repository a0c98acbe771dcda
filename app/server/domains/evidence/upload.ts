// Attaching an evidence file (docs/decisions/0033-evidence-files.md): whoever may edit the report, and on an
// anonymous report only whoever may know its sources. The content is streamed in and stored in encrypted blocks
// (server/crypto/evidence.ts) as it arrives, never held whole, against the per-file and per-report limits; the
// file is listed only once its commit (history entry with the name and the SHA-256) has run.
import { createHash } from 'node:crypto';
import { and, eq, inArray, isNotNull, isNull, lt } from 'drizzle-orm';
import { EVIDENCE_CHUNK_BYTES } from '#shared/constants';
import type { EvidenceDto } from '#shared/dto/evidence';
import { cipherOf } from '#server/context';
import { newFileKey, sealBlock, wrapFileKey } from '#server/crypto/evidence';
import { insertWithFreshCode } from '#server/db/fresh-code';
import { forbidden, HttpError, notFound } from '#server/errors';
import type { SessionUser } from '../auth/session';
import { recordEvidenceRead } from '../journal/record';
import { canEditAs, findEditable, findSignalement, READ_ONLY_MESSAGE } from '../signalements/access';
import { generateCode } from '../signalements/code';
import { recordChange } from '../signalements/history';
import {
  EVIDENCE_TEXTS,
  evidenceDto,
  limitsOf,
  mayDelete,
  mayRead,
  selectFiles,
  usedBytes,
  type EvidenceContext,
} from './files';
import { acceptedType } from './types';

export const EVIDENCE_PREFIX = 'PJ';
/** An upload still unfinished after this long was abandoned (a crash, a cut connection): its blocks go. */
export const ABANDONED_UPLOAD_MS = 60 * 60_000;

const tooLarge = (ctx: EvidenceContext) =>
  new HttpError(413, EVIDENCE_TEXTS.tooLarge(ctx.config.EVIDENCE_MAX_MB));
const reportFull = (ctx: EvidenceContext) =>
  new HttpError(413, EVIDENCE_TEXTS.reportFull(ctx.config.EVIDENCE_REPORT_MAX_MB));

/** Cuts a stream of any pieces into blocks of exactly `size` bytes (the last one shorter). */
async function* blocksOf(body: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let held = 0;
  for await (const piece of body) {
    let chunk = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    while (held + chunk.length >= size) {
      const take = size - held;
      parts.push(chunk.subarray(0, take));
      yield Buffer.concat(parts, size);
      chunk = chunk.subarray(take);
      parts = [];
      held = 0;
    }
    if (chunk.length > 0) {
      // A copy: the stream may reuse its buffer for the next piece.
      parts.push(Buffer.from(chunk));
      held += chunk.length;
    }
  }
  if (held > 0) yield Buffer.concat(parts, held);
}

export interface UploadInput {
  signalement: string;
  nom: string;
  /** The request's body, read as it arrives. */
  body: AsyncIterable<Uint8Array>;
  /** Content-Length when the client sent one: a file announced too large is refused before any byte is read. */
  declaredLength?: number;
}

/** What identifies an upload for its Idempotency-Key: a repeat must send the same name and the same bytes. */
export interface UploadFingerprint {
  signalement: string;
  nom: string;
  taille: number;
  sha256: string;
}

/** How the door runs the commit: once, or as the replay of an earlier request with the same key (0020). */
export type CommitOnce = (
  fingerprint: UploadFingerprint,
  commit: () => Promise<EvidenceDto>,
) => Promise<EvidenceDto>;

/**
 * Attaches a file: checks the rights, reads its type from its first block, then stores each block encrypted as
 * it arrives, counting the bytes against both limits (413 as soon as one is passed). The file is listed only
 * once its commit (history entry, total re-checked under the report's lock) has run; a refusal, an error or a
 * cut connection before then removes every block written.
 */
export async function uploadEvidence(
  ctx: EvidenceContext,
  actor: SessionUser,
  input: UploadInput,
  once: CommitOnce = (_fingerprint, commit) => commit(),
): Promise<EvidenceDto> {
  const { db } = ctx;
  const { evidenceFiles: f, evidenceChunks: c } = db.t;
  const cipher = cipherOf(ctx);
  const report = await findSignalement(db, input.signalement);
  if (!canEditAs(actor)(report)) throw forbidden(READ_ONLY_MESSAGE);
  if (!mayRead(actor, report)) throw forbidden(EVIDENCE_TEXTS.protectedReport);
  const limits = limitsOf(ctx);
  if (input.declaredLength !== undefined && input.declaredLength > limits.fichier) throw tooLarge(ctx);
  await purgeAbandonedUploads(ctx);
  const used = await usedBytes(db, db.read, report.id);
  if (input.declaredLength !== undefined && used + input.declaredLength > limits.signalement)
    throw reportFull(ctx);

  const blocks = blocksOf(input.body, EVIDENCE_CHUNK_BYTES);
  const first = await blocks.next();
  if (first.done) throw new HttpError(400, EVIDENCE_TEXTS.empty);
  const type = await acceptedType(first.value);
  const key = newFileKey();
  const created = await db.transaction((tx) =>
    insertWithFreshCode(
      'evidence',
      () => generateCode(EVIDENCE_PREFIX),
      async (code) =>
        (
          await tx
            .insert(f)
            .values({
              code,
              signalementId: report.id,
              uploadedById: actor.id,
              nom: input.nom,
              type,
              cle: wrapFileKey(cipher, key),
              createdAt: ctx.clock.now(),
            })
            .onConflictDoNothing({ target: f.code })
            .returning({ id: f.id, code: f.code })
        )[0],
    ),
  );
  let committed = false;
  try {
    const hash = createHash('sha256');
    let taille = 0;
    let index = 0;
    // One block is held back until the next arrives: the last one is sealed as the last.
    for (let current: Buffer | null = first.value; current !== null; index++) {
      taille += current.length;
      if (taille > limits.fichier) throw tooLarge(ctx);
      if (used + taille > limits.signalement) throw reportFull(ctx);
      hash.update(current);
      const next = await blocks.next();
      const data = sealBlock(key, created.code, index, next.done === true, current);
      await db.transaction(async (tx) => {
        await tx.insert(c).values({ evidenceId: created.id, idx: index, data });
      });
      current = next.done ? null : next.value;
    }
    const sha256 = hash.digest('hex');
    const fingerprint = { signalement: report.code, nom: input.nom, taille, sha256 };
    return await once(fingerprint, async () => {
      const dto = await commitUpload(ctx, actor, report.code, created.id, { taille, blocs: index, sha256 });
      committed = true;
      return dto;
    });
  } finally {
    // A refusal, an error, a cut connection, or the replay of an earlier upload: nothing of this one stays.
    if (!committed) await discardUpload(ctx, created.id);
  }
}

async function commitUpload(
  ctx: EvidenceContext,
  actor: SessionUser,
  reportCode: string,
  id: number,
  done: { taille: number; blocs: number; sha256: string },
): Promise<EvidenceDto> {
  const { db } = ctx;
  const f = db.t.evidenceFiles;
  return db.transaction(async (tx) => {
    const report = await findEditable(db, actor, reportCode, tx);
    if (!mayRead(actor, report)) throw forbidden(EVIDENCE_TEXTS.protectedReport);
    const [row] = await selectFiles(db, tx).where(eq(f.id, id));
    // The history entry first: it updates the report's row, which PostgreSQL then holds until the commit, so
    // two uploads to one report finishing together count each other's bytes below.
    await recordChange(ctx, tx, report.id, actor, 'piece_jointe.ajout', {
      piece: { from: null, to: row!.code },
      nom: { from: null, to: row!.nom },
      sha256: { from: null, to: done.sha256 },
    });
    if ((await usedBytes(db, tx, report.id)) + done.taille > limitsOf(ctx).signalement) throw reportFull(ctx);
    await tx.update(f).set(done).where(eq(f.id, id));
    return evidenceDto({ ...row!, ...done }, report.code, true);
  });
}

async function discardUpload(ctx: EvidenceContext, id: number): Promise<void> {
  const { evidenceFiles: f, evidenceChunks: c } = ctx.db.t;
  await ctx.db.transaction(async (tx) => {
    await tx.delete(c).where(eq(c.evidenceId, id));
    await tx.delete(f).where(and(eq(f.id, id), isNull(f.sha256)));
  });
}

/** Uploads left unfinished by a crash or a cut connection an hour ago or more: their blocks are removed. */
export async function purgeAbandonedUploads(ctx: Pick<EvidenceContext, 'db' | 'clock'>): Promise<number> {
  const { db } = ctx;
  const { evidenceFiles: f, evidenceChunks: c } = db.t;
  const before = new Date(ctx.clock.now().getTime() - ABANDONED_UPLOAD_MS);
  const stale = await db.read
    .select({ id: f.id })
    .from(f)
    .where(and(isNull(f.sha256), lt(f.createdAt, before)));
  if (stale.length === 0) return 0;
  const ids = stale.map((r) => r.id);
  await db.transaction(async (tx) => {
    await tx.delete(c).where(inArray(c.evidenceId, ids));
    await tx.delete(f).where(and(inArray(f.id, ids), isNull(f.sha256)));
  });
  return ids.length;
}

/**
 * An upload repeated with its Idempotency-Key answers the file as a fresh read would today (decision 0020),
 * logged like one; a caller who may no longer know the report's sources is refused.
 */
export async function rereadEvidence(
  ctx: EvidenceContext,
  actor: SessionUser,
  stored: EvidenceDto,
): Promise<EvidenceDto> {
  const { db } = ctx;
  const { evidenceFiles: f, signalements: s } = db.t;
  const [found] = await db.read
    .select({ id: f.id, reportCode: s.code })
    .from(f)
    .innerJoin(s, eq(s.id, f.signalementId))
    .where(and(eq(f.code, stored.code), isNotNull(f.sha256)))
    .limit(1);
  if (!found) throw notFound(EVIDENCE_TEXTS.notFound);
  const report = await findSignalement(db, found.reportCode);
  if (!mayRead(actor, report)) throw forbidden(EVIDENCE_TEXTS.protectedReport);
  const [row] = await selectFiles(db, db.read).where(eq(f.id, found.id));
  await recordEvidenceRead(ctx, actor, report.code, { nombre: 1 });
  return evidenceDto(row!, report.code, mayDelete(actor, report, row!, ctx.clock.now()));
}
