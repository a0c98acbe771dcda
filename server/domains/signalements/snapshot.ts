import { asc, eq } from 'drizzle-orm';
import type { Database, Orm } from '../../db/client';

/**
 * The report's recorded fields as a person reads them (designations, not ids), compared before and
 * after a change to fill the history. `codes` carries what the OTHERS rules need.
 */
export async function snapshot(db: Database, tx: Orm, id: number) {
  const t = db.t;
  const s = t.signalements;
  const [row] = await tx
    .select({
      s,
      partenaire: t.partenaires.designation,
      canal: t.canals.designation,
      canalCode: t.canals.code,
      niveau: t.niveaux.designation,
      statut: t.statuts.designation,
      resultat: t.resultats.designation,
      region: t.regions.designation,
      district: t.districts.designation,
      commune: t.communes.designation,
    })
    .from(s)
    .innerJoin(t.partenaires, eq(t.partenaires.id, s.partenaireId))
    .leftJoin(t.canals, eq(t.canals.id, s.canalPrincipalId))
    .leftJoin(t.niveaux, eq(t.niveaux.id, s.niveauId))
    .leftJoin(t.statuts, eq(t.statuts.id, s.statutId))
    .leftJoin(t.resultats, eq(t.resultats.id, s.resultatId))
    .leftJoin(t.regions, eq(t.regions.id, s.regionId))
    .leftJoin(t.districts, eq(t.districts.id, s.districtId))
    .leftJoin(t.communes, eq(t.communes.id, s.communeId))
    .where(eq(s.id, id));
  const subjects = await tx
    .select({ code: t.subjects.code, designation: t.subjects.designation })
    .from(t.signalementSubjects)
    .innerJoin(t.subjects, eq(t.subjects.id, t.signalementSubjects.subjectId))
    .where(eq(t.signalementSubjects.signalementId, id))
    .orderBy(asc(t.subjects.position));
  const projects = await tx
    .select({ sigle: t.projects.sigle })
    .from(t.signalementProjects)
    .innerJoin(t.projects, eq(t.projects.id, t.signalementProjects.projectId))
    .where(eq(t.signalementProjects.signalementId, id))
    .orderBy(asc(t.projects.sigle));
  const r = row!;
  return {
    fields: {
      signalementAt: r.s.signalementAt.toISOString(),
      partenaire: r.partenaire,
      canalPrincipal: r.canal,
      autreCanalPrincipal: r.s.autreCanalPrincipal,
      subjects: subjects.map((x) => x.designation),
      autreObject: r.s.autreObject,
      description: r.s.description,
      niveau: r.niveau,
      statut: r.statut,
      resultat: r.resultat,
      isTreated: r.s.isTreated,
      closeAt: r.s.closeAt?.toISOString() ?? null,
      isConfict: r.s.isConfict,
      isRecurrent: r.s.isRecurrent,
      isInternalResponsability: r.s.isInternalResponsability,
      isAnonyme: r.s.isAnonyme,
      projects: projects.map((x) => x.sigle),
      actionProvisoires: r.s.actionProvisoires,
      preuves: r.s.preuves,
      region: r.region,
      district: r.district,
      commune: r.commune,
      fokontany: r.s.fokontany,
    } as Record<string, unknown>,
    codes: {
      subjects: subjects.map((x) => x.code),
      canalPrincipal: r.canalCode,
      autreObject: r.s.autreObject,
      autreCanalPrincipal: r.s.autreCanalPrincipal,
      isTreated: r.s.isTreated,
      closeAt: r.s.closeAt,
    },
  };
}
