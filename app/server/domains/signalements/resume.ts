import { asc, eq } from 'drizzle-orm';
import type { SignalementResumeDto } from '#shared/dto/signalements';
import type { AppContext } from '#server/context';
import { notFound } from '#server/errors';
import { orNull } from '../referentiels/dto';
import { selectReportRows } from './report-row';

/**
 * The public summary addressed by code (spec §2). It carries classification and place only: never
 * names, contacts or descriptions of people, never the report's description or creator.
 */
export async function getResume(
  { db, calendar }: Pick<AppContext, 'db' | 'calendar'>,
  code: string,
): Promise<SignalementResumeDto> {
  const t = db.t;
  const s = t.signalements;
  const [row] = await selectReportRows(db, db.read).where(eq(s.code, code)).limit(1);
  if (!row) throw notFound('Signalement non trouvé');
  const subjects = await db.read
    .select({ code: t.subjects.code, designation: t.subjects.designation })
    .from(t.signalementSubjects)
    .innerJoin(t.subjects, eq(t.subjects.id, t.signalementSubjects.subjectId))
    .where(eq(t.signalementSubjects.signalementId, row.s.id))
    .orderBy(asc(t.subjects.position));
  const projects = await db.read
    .select({ sigle: t.projects.sigle, designation: t.projects.designation })
    .from(t.signalementProjects)
    .innerJoin(t.projects, eq(t.projects.id, t.signalementProjects.projectId))
    .where(eq(t.signalementProjects.signalementId, row.s.id))
    .orderBy(asc(t.projects.sigle));
  const r = row.s;
  const canal = orNull(row.canal);
  const statut = orNull(row.statut);
  const niveau = orNull(row.niveau);
  return {
    code: r.code,
    signalementAt: r.signalementAt.toISOString(),
    canalPrincipal: canal && { code: canal.code, designation: canal.designation },
    statut: statut && { code: statut.code, designation: statut.designation },
    niveau: niveau && { code: niveau.code, designation: niveau.designation, color: niveau.color },
    isTreated: r.isTreated,
    subjects,
    autreObject: r.autreObject,
    projects,
    region: row.region?.designation ?? null,
    district: row.district?.designation ?? null,
    commune: row.commune?.designation ?? null,
    fokontany: r.fokontany,
    isAnonyme: r.isAnonyme,
    isConfict: r.isConfict,
    isRecurrent: r.isRecurrent,
    actionProvisoires: r.actionProvisoires,
    preuves: r.preuves,
    timeZone: calendar.zone,
  };
}
