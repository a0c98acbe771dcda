// The report list's row: what the list shows of a report, selected, joined and shaped in this one file
// (docs/decisions/0027-list-rows.md). A column of the list is one field here (its columns, its joins, its
// place in `listItem`) and one in `SignalementListItemDto` (shared/dto/signalements.ts), which the
// compiler ties together. The whole report (the detail, the export, the history) is report-row.ts.
import { eq } from 'drizzle-orm';
import type { ListRefDto, SignalementListItemDto } from '#shared/dto/signalements';
import type { Orm, ReadOnlyDatabase } from '#server/db/client';
import { dueDayDto } from '../delais/due-day-dto';
import { iri, orNull } from '../referentiels/dto';
import { assigneeRows, forIds, subjectRows } from './loader';

/** The list's columns: the report's own, and the code and label of each reference it shows. */
function listRowColumns(db: ReadOnlyDatabase) {
  const t = db.t;
  const s = t.signalements;
  return {
    s: { id: s.id, code: s.code, signalementAt: s.signalementAt, isTreated: s.isTreated, dueDay: s.dueDay },
    partenaire: {
      code: t.partenaires.code,
      designation: t.partenaires.designation,
      color: t.partenaires.color,
    },
    canal: { code: t.canals.code, designation: t.canals.designation },
    region: { code: t.regions.code, designation: t.regions.designation },
    district: { code: t.districts.code, designation: t.districts.designation },
    commune: { code: t.communes.code, designation: t.communes.designation },
    statut: { code: t.statuts.code, designation: t.statuts.designation },
    niveau: { code: t.niveaux.code, designation: t.niveaux.designation, color: t.niveaux.color },
  };
}

export function selectListRows(db: ReadOnlyDatabase, orm: Orm) {
  const t = db.t;
  const s = t.signalements;
  return orm
    .select(listRowColumns(db))
    .from(s)
    .innerJoin(t.partenaires, eq(t.partenaires.id, s.partenaireId))
    .leftJoin(t.canals, eq(t.canals.id, s.canalPrincipalId))
    .leftJoin(t.regions, eq(t.regions.id, s.regionId))
    .leftJoin(t.districts, eq(t.districts.id, s.districtId))
    .leftJoin(t.communes, eq(t.communes.id, s.communeId))
    .leftJoin(t.statuts, eq(t.statuts.id, s.statutId))
    .leftJoin(t.niveaux, eq(t.niveaux.id, s.niveauId));
}

type ListRow = Awaited<ReturnType<ReturnType<typeof selectListRows>['where']>>[number];

/** A left-joined reference as the list shows it: null when unset (orNull: Drizzle may give nulls). */
const ref = (row: { code: string | null; designation: string } | null): ListRefDto | null => {
  const set = orNull(row);
  return set && { code: set.code, designation: set.designation };
};

function listItem(
  r: ListRow,
  subjects: ListRefDto[],
  assignees: SignalementListItemDto['assignees'],
): SignalementListItemDto {
  const niveau = orNull(r.niveau);
  return {
    '@id': iri('signalements', r.s.code),
    '@type': 'Signalement',
    code: r.s.code,
    signalementAt: r.s.signalementAt.toISOString(),
    partenaire: { code: r.partenaire.code, designation: r.partenaire.designation, color: r.partenaire.color },
    subjects,
    canalPrincipal: ref(r.canal),
    region: ref(r.region),
    district: ref(r.district),
    commune: ref(r.commune),
    statut: ref(r.statut),
    niveau: niveau && { code: niveau.code, designation: niveau.designation, color: niveau.color },
    isTreated: r.s.isTreated,
    echeance: dueDayDto(r.s.dueDay),
    assignees,
  };
}

/** The list's rows for the given report ids, in the given order: three statements, whatever the page. */
export async function loadListItems(db: ReadOnlyDatabase, ids: number[]): Promise<SignalementListItemDto[]> {
  if (ids.length === 0) return [];
  const [rows, subjectList, assigneeList] = await Promise.all([
    forIds(db, 'list_rows', ids, (orm, where) => selectListRows(db, orm).where(where(db.t.signalements.id))),
    forIds(db, 'load_subjects', ids, (orm, where) => subjectRows(db, orm, where)),
    forIds(db, 'load_assignees', ids, (orm, where) => assigneeRows(db, orm, where)),
  ]);
  const assignees = new Map<number, SignalementListItemDto['assignees']>();
  for (const { id, code, nomPrenom } of assigneeList) {
    const list = assignees.get(id) ?? [];
    list.push({ code, nomPrenom });
    assignees.set(id, list);
  }
  const subjects = new Map<number, ListRefDto[]>();
  for (const { id, code, designation } of subjectList) {
    const list = subjects.get(id) ?? [];
    list.push({ code, designation });
    subjects.set(id, list);
  }
  const byId = new Map(rows.map((r) => [r.s.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [listItem(row, subjects.get(id) ?? [], assignees.get(id) ?? [])] : [];
  });
}
