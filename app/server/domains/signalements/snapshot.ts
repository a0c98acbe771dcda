import { asc, eq } from 'drizzle-orm';
import type { Database, Orm } from '#server/db/client';
import type { SessionUser } from '../auth/session';
import { selectReportRows } from './report-row';

/** A report's row with its references, its subjects and its projects, as the writes read them. */
export async function readReportParts(
  db: Database,
  tx: Orm,
  id: number,
  /** false: no projects read (the search text holds none; a report its transaction created has none). */
  options: { projects?: boolean } = {},
) {
  const t = db.t;
  const s = t.signalements;
  const [row] = await selectReportRows(db, tx).where(eq(s.id, id));
  if (!row) return null;
  const subjects = await tx
    .select({ code: t.subjects.code, designation: t.subjects.designation })
    .from(t.signalementSubjects)
    .innerJoin(t.subjects, eq(t.subjects.id, t.signalementSubjects.subjectId))
    .where(eq(t.signalementSubjects.signalementId, id))
    .orderBy(asc(t.subjects.position), asc(t.subjects.designation));
  const projects =
    options.projects === false
      ? []
      : await tx
          .select({ sigle: t.projects.sigle, code: t.projects.code })
          .from(t.signalementProjects)
          .innerJoin(t.projects, eq(t.projects.id, t.signalementProjects.projectId))
          .where(eq(t.signalementProjects.signalementId, id))
          .orderBy(asc(t.projects.sigle));
  return { row, subjects, projects };
}

export type ReportParts = NonNullable<Awaited<ReturnType<typeof readReportParts>>>;

/** The references a create names, as it looked them up (a report row's columns of each, and its id). */
export interface CreatedReferences {
  partenaire: ReportParts['row']['partenaire'] & { id: number };
  canal: NonNullable<ReportParts['row']['canal']> & { id: number };
  /** Without duplicates, in the order of their position (as `readReportParts` reads them). */
  subjects: { id: number; code: string; designation: string }[];
}

/**
 * The parts of a report that its own transaction has just inserted, without reading them back: its stored
 * columns (the insert's RETURNING, after defaults and triggers), its creator, and the references the
 * create looked up. A create sets no place, level, status or result and links no project, so these are
 * null or empty (decision 0058; `create.test.ts` compares the outcome with a read).
 */
export function createdParts(
  s: ReportParts['row']['s'],
  creator: SessionUser,
  {
    partenaire: { id: _partenaireId, ...partenaire },
    canal: { id: _canalId, ...canal },
    subjects,
  }: CreatedReferences,
): ReportParts {
  return {
    row: {
      s,
      createdBy: { code: creator.code, email: creator.email, nomPrenom: creator.nomPrenom },
      partenaire,
      canal,
      region: null,
      district: null,
      commune: null,
      niveau: null,
      statut: null,
      resultat: null,
    },
    subjects: subjects.map(({ code, designation }) => ({ code, designation })),
    projects: [],
  };
}

/**
 * The report's recorded fields as a person reads them (designations, not ids), compared before and
 * after a change to fill the history. `codes` carries what the OTHERS rules need.
 */
export async function snapshot(db: Database, tx: Orm, id: number) {
  return snapshotOf((await readReportParts(db, tx, id))!);
}

/** The snapshot of parts already read (a create reads them once for its search text and its history). */
export function snapshotOf({ row: r, subjects, projects }: ReportParts) {
  return {
    fields: {
      signalementAt: r.s.signalementAt.toISOString(),
      partenaire: r.partenaire.designation,
      canalPrincipal: r.canal?.designation ?? null,
      autreCanalPrincipal: r.s.autreCanalPrincipal,
      subjects: subjects.map((x) => x.designation),
      autreObject: r.s.autreObject,
      description: r.s.description,
      niveau: r.niveau?.designation ?? null,
      statut: r.statut?.designation ?? null,
      resultat: r.resultat?.designation ?? null,
      isTreated: r.s.isTreated,
      closeAt: r.s.closeAt?.toISOString() ?? null,
      isConfict: r.s.isConfict,
      isRecurrent: r.s.isRecurrent,
      isInternalResponsability: r.s.isInternalResponsability,
      isAnonyme: r.s.isAnonyme,
      projects: projects.map((x) => x.sigle),
      actionProvisoires: r.s.actionProvisoires,
      preuves: r.s.preuves,
      region: r.region?.designation ?? null,
      district: r.district?.designation ?? null,
      commune: r.commune?.designation ?? null,
      fokontany: r.s.fokontany,
    } as Record<string, unknown>,
    codes: {
      subjects: subjects.map((x) => x.code),
      canalPrincipal: r.canal?.code ?? null,
      autreObject: r.s.autreObject,
      autreCanalPrincipal: r.s.autreCanalPrincipal,
      isTreated: r.s.isTreated,
      closeAt: r.s.closeAt,
      niveau: r.niveau?.code ?? null,
      statut: r.statut?.code ?? null,
      resultat: r.resultat?.code ?? null,
      projects: projects.map((x) => x.code),
      lastActionAt: r.s.lastActionAt,
      places: {
        region: r.region?.code ?? null,
        district: r.district?.code ?? null,
        commune: r.commune?.code ?? null,
        fokontany: r.s.fokontany,
      },
    },
  };
}
