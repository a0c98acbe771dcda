import { asc, eq } from 'drizzle-orm';
import { businessTimeZone } from '../../../shared/calendar';
import type { SignalementResumeDto } from '../../../shared/dto/signalements';
import type { Database } from '../../db/client';
import { notFound } from '../../errors';

/**
 * The public summary addressed by code (spec §2). It carries classification and place only: never
 * names, contacts or descriptions of people, never the report's description or creator.
 */
export async function getResume(db: Database, code: string): Promise<SignalementResumeDto> {
  const t = db.t;
  const s = t.signalements;
  const [row] = await db.read
    .select({
      id: s.id,
      code: s.code,
      signalementAt: s.signalementAt,
      isTreated: s.isTreated,
      isAnonyme: s.isAnonyme,
      isConfict: s.isConfict,
      isRecurrent: s.isRecurrent,
      autreObject: s.autreObject,
      fokontany: s.fokontany,
      actionProvisoires: s.actionProvisoires,
      preuves: s.preuves,
      canal: { code: t.canals.code, designation: t.canals.designation },
      statut: { code: t.statuts.code, designation: t.statuts.designation },
      niveau: { code: t.niveaux.code, designation: t.niveaux.designation, color: t.niveaux.color },
      region: t.regions.designation,
      district: t.districts.designation,
      commune: t.communes.designation,
    })
    .from(s)
    .leftJoin(t.canals, eq(t.canals.id, s.canalPrincipalId))
    .leftJoin(t.statuts, eq(t.statuts.id, s.statutId))
    .leftJoin(t.niveaux, eq(t.niveaux.id, s.niveauId))
    .leftJoin(t.regions, eq(t.regions.id, s.regionId))
    .leftJoin(t.districts, eq(t.districts.id, s.districtId))
    .leftJoin(t.communes, eq(t.communes.id, s.communeId))
    .where(eq(s.code, code))
    .limit(1);
  if (!row) throw notFound('Signalement non trouvé');
  const subjects = await db.read
    .select({ code: t.subjects.code, designation: t.subjects.designation })
    .from(t.signalementSubjects)
    .innerJoin(t.subjects, eq(t.subjects.id, t.signalementSubjects.subjectId))
    .where(eq(t.signalementSubjects.signalementId, row.id))
    .orderBy(asc(t.subjects.position));
  const projects = await db.read
    .select({ sigle: t.projects.sigle, designation: t.projects.designation })
    .from(t.signalementProjects)
    .innerJoin(t.projects, eq(t.projects.id, t.signalementProjects.projectId))
    .where(eq(t.signalementProjects.signalementId, row.id))
    .orderBy(asc(t.projects.sigle));
  const present = <T extends { code: string | null }>(v: T | null) =>
    v && v.code !== null ? (v as T & { code: string }) : null;
  return {
    code: row.code,
    signalementAt: row.signalementAt.toISOString(),
    canalPrincipal: present(row.canal),
    statut: present(row.statut),
    niveau: present(row.niveau) as SignalementResumeDto['niveau'],
    isTreated: row.isTreated,
    subjects,
    autreObject: row.autreObject,
    projects,
    region: row.region,
    district: row.district,
    commune: row.commune,
    fokontany: row.fokontany,
    isAnonyme: row.isAnonyme,
    isConfict: row.isConfict,
    isRecurrent: row.isRecurrent,
    actionProvisoires: row.actionProvisoires,
    preuves: row.preuves,
    timeZone: businessTimeZone(),
  };
}
