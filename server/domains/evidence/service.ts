// Evidence files of a report, « Pièces jointes » (docs/decisions/0033-evidence-files.md). Attached by whoever may
// edit the report, listed and downloaded by whoever may read it, and on an anonymous report only by whoever
// may know its sources (as internal notes, 0029). The content is streamed in and out in encrypted blocks
// (server/crypto/evidence.ts), never held whole; every list and download is in the access log; every
// attachment and deletion is in the report's history with the name and the SHA-256, never the content.
import { createHash } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, sum } from 'drizzle-orm';
import { EVIDENCE_CHUNK_BYTES, EVIDENCE_DELETE_MINUTES } from '#shared/constants';
import type { EvidenceDto, EvidenceListDto } from '#shared/dto/evidence';
import { cipherOf, type AppContext } from '#server/context';
import { newFileKey, openBlock, sealBlock, unwrapFileKey, wrapFileKey } from '#server/crypto/evidence';
import type { Orm, ReadOnlyDatabase } from '#server/db/client';
import { insertWithFreshCode } from '#server/db/fresh-code';
import { conflict, forbidden, HttpError, notFound } from '#server/errors';
import { isAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';
import { recordEvidenceRead } from '../journal/record';
import { iri } from '../referentiels/dto';
import {
  canEditAs,
  canSeeSources,
  findEditable,
  findSignalement,
  READ_ONLY_MESSAGE,
  type SignalementRow,
} from '../signalements/access';
import { generateCode } from '../signalements/code';
import { recordChange } from '../signalements/history';
import { acceptedType } from './types';

/** What the evidence services receive: the database, the data key, the access log, the clock, the limits. */
export type EvidenceContext = Pick<AppContext, 'db' | 'cipher' | 'journal' | 'clock' | 'calendar'> & {
  config: Pick<AppContext['config'], 'EVIDENCE_MAX_MB' | 'EVIDENCE_REPORT_MAX_MB'>;
};

export const EVIDENCE_PREFIX = 'PJ';
const MB = 1_000_000;
const DELETE_WINDOW_MS = EVIDENCE_DELETE_MINUTES * 60_000;
/** An upload still unfinished after this long was abandoned (a crash, a cut connection): its blocks go. */
export const ABANDONED_UPLOAD_MS = 60 * 60_000;

export const EVIDENCE_TEXTS = {
  notFound: 'Pièce jointe introuvable.',
  empty: 'Le fichier est vide.',
  tooLarge: (mb: number) => `Le fichier dépasse la taille maximale autorisée (${mb} Mo par fichier).`,
  reportFull: (mb: number) =>
    `Les pièces jointes de ce signalement dépasseraient ${mb} Mo au total : supprimez-en ou envoyez un fichier plus petit.`,
  notUploader: "Seul l'auteur de l'envoi ou un administrateur peut supprimer une pièce jointe.",
  frozen: `Cette pièce jointe ne peut plus être supprimée par son auteur : le délai de ${EVIDENCE_DELETE_MINUTES} minutes après son envoi est dépassé. Un administrateur peut encore la supprimer.`,
  protectedReport:
    'Les pièces jointes de ce signalement anonyme sont réservées à ceux qui peuvent en connaître les sources.',
  damaged: 'Pièce jointe illisible : son contenu ne correspond plus à son empreinte.',
} as const;

export function limitsOf(ctx: Pick<EvidenceContext, 'config'>) {
  return { fichier: ctx.config.EVIDENCE_MAX_MB * MB, signalement: ctx.config.EVIDENCE_REPORT_MAX_MB * MB };
}

const tooLarge = (ctx: EvidenceContext) =>
  new HttpError(413, EVIDENCE_TEXTS.tooLarge(ctx.config.EVIDENCE_MAX_MB));
const reportFull = (ctx: EvidenceContext) =>
  new HttpError(413, EVIDENCE_TEXTS.reportFull(ctx.config.EVIDENCE_REPORT_MAX_MB));

/** Whether the actor may see an anonymous report's files: the sources' need-to-know rule, called, not copied. */
const mayRead = (actor: SessionUser, report: SignalementRow) => canSeeSources(actor, report);

function selectFiles(db: ReadOnlyDatabase, orm: Orm) {
  const { evidenceFiles: f, utilisateurs: u } = db.t;
  return orm
    .select({
      id: f.id,
      code: f.code,
      signalementId: f.signalementId,
      uploadedById: f.uploadedById,
      nom: f.nom,
      type: f.type,
      taille: f.taille,
      blocs: f.blocs,
      sha256: f.sha256,
      cle: f.cle,
      createdAt: f.createdAt,
      auteur: { code: u.code, nomPrenom: u.nomPrenom },
    })
    .from(f)
    .innerJoin(u, eq(u.id, f.uploadedById));
}
type FileRow = Awaited<ReturnType<ReturnType<typeof selectFiles>['where']>>[number];

function mayDelete(actor: SessionUser, report: SignalementRow, row: FileRow, now: Date): boolean {
  if (!canEditAs(actor)(report)) return false;
  if (isAdmin(actor)) return true;
  return row.uploadedById === actor.id && now.getTime() <= row.createdAt.getTime() + DELETE_WINDOW_MS;
}

function evidenceDto(row: FileRow, reportCode: string, supprimable: boolean): EvidenceDto {
  const id = iri('pieces-jointes', row.code);
  return {
    '@id': id,
    '@type': 'PieceJointe',
    code: row.code,
    signalement: iri('signalements', reportCode),
    nom: row.nom,
    type: row.type,
    taille: row.taille,
    sha256: row.sha256 ?? '',
    auteur: row.auteur,
    createdAt: row.createdAt.toISOString(),
    contenu: `${id}/contenu`,
    supprimable,
  };
}

/** Bytes the report's finished files take. */
async function usedBytes(db: ReadOnlyDatabase, orm: Orm, reportId: number): Promise<number> {
  const f = db.t.evidenceFiles;
  const [row] = await orm
    .select({ n: sum(f.taille) })
    .from(f)
    .where(and(eq(f.signalementId, reportId), isNotNull(f.sha256)));
  return Number(row?.n ?? 0);
}

/** The report's files, newest first; logged in the access log before the answer is returned. */
export async function listEvidence(
  ctx: EvidenceContext,
  actor: SessionUser,
  signalement: string,
): Promise<EvidenceListDto> {
  const { db } = ctx;
  const f = db.t.evidenceFiles;
  const report = await findSignalement(db, signalement);
  const limits = limitsOf(ctx);
  const finished = and(eq(f.signalementId, report.id), isNotNull(f.sha256));
  if (!mayRead(actor, report)) {
    const [row] = await db.read.select({ n: count() }).from(f).where(finished);
    const masquees = Number(row?.n ?? 0);
    await recordEvidenceRead(ctx, actor, report.code, { protegees: true, masquees });
    return { piecesJointes: [], peutAjouter: false, masquees, limites: { ...limits, utilise: 0 } };
  }
  const rows = await selectFiles(db, db.read).where(finished).orderBy(desc(f.createdAt), desc(f.id));
  await recordEvidenceRead(ctx, actor, report.code, { nombre: rows.length });
  const now = ctx.clock.now();
  return {
    piecesJointes: rows.map((r) => evidenceDto(r, report.code, mayDelete(actor, report, r, now))),
    peutAjouter: canEditAs(actor)(report),
    masquees: 0,
    limites: { ...limits, utilise: rows.reduce((total, r) => total + r.taille, 0) },
  };
}

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
    await recordChange(db, tx, report.id, actor, 'piece_jointe.ajout', {
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

/** A finished file and its report, or 404. */
async function findFile(ctx: EvidenceContext, orm: Orm, code: string) {
  const { db } = ctx;
  const { evidenceFiles: f, signalements: s } = db.t;
  const [found] = await orm
    .select({ id: f.id, reportCode: s.code })
    .from(f)
    .innerJoin(s, eq(s.id, f.signalementId))
    .where(and(eq(f.code, code), isNotNull(f.sha256)))
    .limit(1);
  if (!found) throw notFound(EVIDENCE_TEXTS.notFound);
  const [row] = await selectFiles(db, orm).where(eq(f.id, found.id));
  return { row: row!, reportCode: found.reportCode };
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
    await recordChange(db, tx, report.id, actor, 'piece_jointe.suppression', {
      piece: { from: row.code, to: null },
      nom: { from: row.nom, to: null },
      sha256: { from: row.sha256, to: null },
    });
  });
}
