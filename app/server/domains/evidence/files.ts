// What the evidence services share (docs/decisions/0033-evidence-files.md): their context, their French texts
// and limits, the rights to read and delete a file, a file's row and its DTO. Attaching is upload.ts; listing,
// downloading and deleting are service.ts.
import { and, eq, isNotNull, sum } from 'drizzle-orm';
import { EVIDENCE_DELETE_MINUTES } from '#shared/constants';
import type { EvidenceDto } from '#shared/dto/evidence';
import type { AppContext } from '#server/context';
import type { Orm, ReadOnlyDatabase } from '#server/db/client';
import { notFound } from '#server/errors';
import { isAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';
import { iri } from '../referentiels/dto';
import { canEditAs, canSeeSources, type SignalementRow } from '../signalements/access';

/** What the evidence services receive: the database, the data key, the access log, the clock, the limits. */
export type EvidenceContext = Pick<AppContext, 'db' | 'cipher' | 'journal' | 'clock' | 'calendar'> & {
  config: Pick<AppContext['config'], 'EVIDENCE_MAX_MB' | 'EVIDENCE_REPORT_MAX_MB'>;
};

const MB = 1_000_000;
export const DELETE_WINDOW_MS = EVIDENCE_DELETE_MINUTES * 60_000;

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

/** Whether the actor may see an anonymous report's files: the sources' need-to-know rule, called, not copied. */
export const mayRead = (actor: SessionUser, report: SignalementRow) => canSeeSources(actor, report);

export function selectFiles(db: ReadOnlyDatabase, orm: Orm) {
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
export type FileRow = Awaited<ReturnType<ReturnType<typeof selectFiles>['where']>>[number];

export function mayDelete(actor: SessionUser, report: SignalementRow, row: FileRow, now: Date): boolean {
  if (!canEditAs(actor)(report)) return false;
  if (isAdmin(actor)) return true;
  return row.uploadedById === actor.id && now.getTime() <= row.createdAt.getTime() + DELETE_WINDOW_MS;
}

export function evidenceDto(row: FileRow, reportCode: string, supprimable: boolean): EvidenceDto {
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
export async function usedBytes(db: ReadOnlyDatabase, orm: Orm, reportId: number): Promise<number> {
  const f = db.t.evidenceFiles;
  const [row] = await orm
    .select({ n: sum(f.taille) })
    .from(f)
    .where(and(eq(f.signalementId, reportId), isNotNull(f.sha256)));
  return Number(row?.n ?? 0);
}

/** A finished file and its report, or 404. */
export async function findFile(ctx: Pick<EvidenceContext, 'db'>, orm: Orm, code: string) {
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
