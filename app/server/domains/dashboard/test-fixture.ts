// A small hand-built data set whose every dashboard figure is known, for the tests of this folder.
// All instants are UTC; R2 and R5 sit on the last millisecond/second of a day to pin the day boundary.
import { eq, inArray } from 'drizzle-orm';
import type { Database } from '#server/db/client';

export interface Fixture {
  regionA: string;
  regionB: string;
  districtX: string;
  communeC: string;
}

interface Report {
  code: string;
  at: string;
  partner: 'IVY' | 'TST';
  creator: 'u1' | 'u2';
  region?: 'A' | 'B';
  district?: boolean;
  commune?: boolean;
  canal?: string;
  niveau?: string;
  statut?: string;
  resultat?: string;
  closeAt?: string;
  subjects: string[];
  project?: boolean;
}

// R1..R4 fall in March 2025, R5 on the last second of February.
export const REPORTS: Report[] = [
  {
    code: 'SIG-T-1',
    at: '2025-02-28T21:00:00.000Z',
    partner: 'IVY',
    creator: 'u1',
    region: 'A',
    district: true,
    commune: true,
    canal: 'TELEPHONE',
    niveau: 'CRITIQUE',
    statut: 'NOUVEAU',
    subjects: ['CORRUPTION', 'FRAUDE'],
    project: true,
  },
  {
    code: 'SIG-T-2',
    at: '2025-03-01T20:59:59.999Z',
    partner: 'IVY',
    creator: 'u1',
    region: 'A',
    district: true,
    canal: 'EMAIL',
    niveau: 'FAIBLE',
    statut: 'TRAITE',
    resultat: 'RESULTAT_AVERE',
    subjects: ['CORRUPTION'],
  },
  {
    code: 'SIG-T-3',
    at: '2025-03-03T12:00:00.000Z',
    partner: 'TST',
    creator: 'u1',
    region: 'B',
    canal: 'TELEPHONE',
    statut: 'CLOTURE',
    closeAt: '2025-03-10T12:00:00.000Z',
    resultat: 'RESULTAT_NON_AVERE',
    subjects: ['DETOURNEMENT'],
  },
  {
    code: 'SIG-T-4',
    at: '2025-03-05T08:00:00.000Z',
    partner: 'IVY',
    creator: 'u2',
    subjects: ['CORRUPTION'],
  },
  {
    code: 'SIG-T-5',
    at: '2025-02-28T20:59:59.000Z',
    partner: 'TST',
    creator: 'u2',
    region: 'A',
    canal: 'TELEPHONE',
    niveau: 'CRITIQUE',
    statut: 'REJETE',
    closeAt: '2025-03-02T20:59:59.000Z',
    resultat: 'RESULTAT_FAUX_SIGNALEMENT',
    subjects: ['FRAUDE'],
  },
];

async function idsByCode<T extends { id: number; code: string }>(rows: Promise<T[]>) {
  return new Map((await rows).map((r) => [r.code, r.id]));
}

/** Inserts two users, a second partner, a project and REPORTS into a seeded database. */
export async function insertFixture(db: Database, users: { u1: string; u2: string }): Promise<Fixture> {
  const { t, read } = db;
  const [regionA, regionB] = await read
    .select()
    .from(t.regions)
    .where(inArray(t.regions.code, ['MG11', 'MG12']))
    .orderBy(t.regions.code);
  const [districtX] = await read
    .select()
    .from(t.districts)
    .where(eq(t.districts.regionId, regionA!.id))
    .orderBy(t.districts.code)
    .limit(1);
  const [communeC] = await read
    .select()
    .from(t.communes)
    .where(eq(t.communes.districtId, districtX!.id))
    .orderBy(t.communes.code)
    .limit(1);
  const canals = await idsByCode(read.select({ id: t.canals.id, code: t.canals.code }).from(t.canals));
  const niveaux = await idsByCode(read.select({ id: t.niveaux.id, code: t.niveaux.code }).from(t.niveaux));
  const statuts = await idsByCode(read.select({ id: t.statuts.id, code: t.statuts.code }).from(t.statuts));
  const resultats = await idsByCode(
    read.select({ id: t.resultats.id, code: t.resultats.code }).from(t.resultats),
  );
  const subjects = await idsByCode(
    read.select({ id: t.subjects.id, code: t.subjects.code }).from(t.subjects),
  );
  const creators = await idsByCode(
    read.select({ id: t.utilisateurs.id, code: t.utilisateurs.code }).from(t.utilisateurs),
  );

  await db.transaction(async (tx) => {
    await tx
      .insert(t.partenaires)
      .values({ code: 'TST', designation: 'Partenaire Test', initial: 'PT', color: '#10b981' });
    const partners = await idsByCode(
      tx.select({ id: t.partenaires.id, code: t.partenaires.code }).from(t.partenaires),
    );
    const [project] = await tx
      .insert(t.projects)
      .values({
        code: 'PRJ-T-1',
        sigle: 'PAS',
        designation: 'Projet d’appui social',
        ownerId: partners.get('IVY')!,
      })
      .returning({ id: t.projects.id });
    for (const r of REPORTS) {
      const statut = r.statut ? statuts.get(r.statut)! : null;
      const [row] = await tx
        .insert(t.signalements)
        .values({
          code: r.code,
          signalementAt: new Date(r.at),
          createdById: creators.get(users[r.creator])!,
          partenaireId: partners.get(r.partner)!,
          regionId: r.region === 'A' ? regionA!.id : r.region === 'B' ? regionB!.id : null,
          districtId: r.district ? districtX!.id : null,
          communeId: r.commune ? communeC!.id : null,
          canalPrincipalId: r.canal ? canals.get(r.canal)! : null,
          niveauId: r.niveau ? niveaux.get(r.niveau)! : null,
          statutId: statut,
          resultatId: r.resultat ? resultats.get(r.resultat)! : null,
          isTreated: ['TRAITE', 'CLOTURE', 'REJETE'].includes(r.statut ?? ''),
          closeAt: r.closeAt ? new Date(r.closeAt) : null,
        })
        .returning({ id: t.signalements.id });
      await tx
        .insert(t.signalementSubjects)
        .values(r.subjects.map((s) => ({ signalementId: row!.id, subjectId: subjects.get(s)! })));
      if (r.project)
        await tx.insert(t.signalementProjects).values({ signalementId: row!.id, projectId: project!.id });
    }
  });
  return {
    regionA: regionA!.code,
    regionB: regionB!.code,
    districtX: districtX!.code,
    communeC: communeC!.code,
  };
}
