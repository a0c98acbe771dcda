// The report row: one selection and one set of joins for every read of whole reports (the loader's
// DTOs, the history snapshot, the public summary, the search text). A column added here reaches all four.
import { eq } from 'drizzle-orm';
import type { Orm, ReadOnlyDatabase } from '#server/db/client';
import { placeColumns } from '../referentiels/dto';

/**
 * The report's columns and its nine references (creator, partner, channel, places, level, status,
 * result). Not the search text (often the largest column), nor the ids the joins read.
 */
export function reportRowColumns(db: ReadOnlyDatabase) {
  const t = db.t;
  const s = t.signalements;
  return {
    s: {
      id: s.id,
      code: s.code,
      signalementAt: s.signalementAt,
      createdAt: s.createdAt,
      closeAt: s.closeAt,
      lastActionAt: s.lastActionAt,
      autreCanalPrincipal: s.autreCanalPrincipal,
      autreObject: s.autreObject,
      fokontany: s.fokontany,
      isTreated: s.isTreated,
      dueDay: s.dueDay,
      isInternalResponsability: s.isInternalResponsability,
      isConfict: s.isConfict,
      isRecurrent: s.isRecurrent,
      isAnonyme: s.isAnonyme,
      description: s.description,
      actionProvisoires: s.actionProvisoires,
      preuves: s.preuves,
      version: s.version,
    },
    createdBy: {
      code: t.utilisateurs.code,
      email: t.utilisateurs.email,
      nomPrenom: t.utilisateurs.nomPrenom,
    },
    partenaire: {
      code: t.partenaires.code,
      designation: t.partenaires.designation,
      initial: t.partenaires.initial,
      color: t.partenaires.color,
    },
    canal: { code: t.canals.code, designation: t.canals.designation, icon: t.canals.icon },
    region: placeColumns(t.regions),
    district: placeColumns(t.districts),
    commune: placeColumns(t.communes),
    niveau: {
      code: t.niveaux.code,
      designation: t.niveaux.designation,
      color: t.niveaux.color,
      rank: t.niveaux.rank,
    },
    statut: { code: t.statuts.code, designation: t.statuts.designation, kind: t.statuts.kind },
    resultat: { code: t.resultats.code, designation: t.resultats.designation },
  };
}

/**
 * `select … from signalements` with the report row's columns and joins, for the caller's `where`. An
 * optional reference left unset gives null for its object (or, depending on the driver's row, an object
 * of nulls: read it through `orNull` or `?.` and `?? null`).
 */
export function selectReportRows(db: ReadOnlyDatabase, orm: Orm) {
  const t = db.t;
  const s = t.signalements;
  return orm
    .select(reportRowColumns(db))
    .from(s)
    .innerJoin(t.utilisateurs, eq(t.utilisateurs.id, s.createdById))
    .innerJoin(t.partenaires, eq(t.partenaires.id, s.partenaireId))
    .leftJoin(t.canals, eq(t.canals.id, s.canalPrincipalId))
    .leftJoin(t.regions, eq(t.regions.id, s.regionId))
    .leftJoin(t.districts, eq(t.districts.id, s.districtId))
    .leftJoin(t.communes, eq(t.communes.id, s.communeId))
    .leftJoin(t.niveaux, eq(t.niveaux.id, s.niveauId))
    .leftJoin(t.statuts, eq(t.statuts.id, s.statutId))
    .leftJoin(t.resultats, eq(t.resultats.id, s.resultatId));
}
