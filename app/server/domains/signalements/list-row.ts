// The report list's row: what the list shows of a report, selected, joined and shaped in this one file
// (docs/decisions/0027-list-rows.md). A column of the list is one field here (its columns, its joins, its
// place in `listItem`) and one in `SignalementListItemDto` (shared/dto/signalements.ts), which the
// compiler ties together. The whole report (the detail, the export, the history) is report-row.ts.
import { asc, eq, type AnyColumn, type SQL } from 'drizzle-orm';
import type { ListRefDto, SignalementListItemDto } from '#shared/dto/signalements';
import type { Orm, ReadOnlyDatabase } from '#server/db/client';
import { dueDayDto } from '../delais/due-day-dto';
import { iri, orNull } from '../referentiels/dto';
import { assigneeRows, forIds, subjectRows } from './loader';
import type { PageSource } from './list-page';

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

/**
 * The subjects or the assignees of a first page found again (PageSource), from its reports: one row at
 * least for each report of the page (nulls when it has none), so that the reports it read are known.
 */
function pageSubjectRows(db: ReadOnlyDatabase, orm: Orm, inPage: (column: AnyColumn) => SQL) {
  const { signalements: s, signalementSubjects: ss, subjects } = db.t;
  return orm
    .select({ id: s.id, code: subjects.code, designation: subjects.designation })
    .from(s)
    .leftJoin(ss, eq(ss.signalementId, s.id))
    .leftJoin(subjects, eq(subjects.id, ss.subjectId))
    .where(inPage(s.id))
    .orderBy(asc(subjects.position), asc(subjects.designation), asc(subjects.id));
}

function pageAssigneeRows(db: ReadOnlyDatabase, orm: Orm, inPage: (column: AnyColumn) => SQL) {
  const { signalements: s, signalementAssignees: sa, utilisateurs: u } = db.t;
  return orm
    .select({ id: s.id, code: u.code, nomPrenom: u.nomPrenom })
    .from(s)
    .leftJoin(sa, eq(sa.signalementId, s.id))
    .leftJoin(u, eq(u.id, sa.userId))
    .where(inPage(s.id))
    .orderBy(asc(u.nomPrenom), asc(u.id));
}

/** The three statements of a first page found again (PageSource), built on `orm`. */
export function firstPageStatements(
  db: ReadOnlyDatabase,
  orm: Orm,
  page: Extract<PageSource, { name: string }>,
) {
  const inPage = (column: AnyColumn) => db.dialect.inFewIds(column, page.statement());
  return {
    rows: () =>
      selectListRows(db, orm)
        .where(inPage(db.t.signalements.id))
        .orderBy(...page.order()),
    subjects: () => pageSubjectRows(db, orm, inPage),
    assignees: () => pageAssigneeRows(db, orm, inPage),
  };
}

/** firstPageStatements, each prepared under its name and run side by side. */
function firstPageRows(db: ReadOnlyDatabase, page: Extract<PageSource, { name: string }>) {
  const of = (orm: Orm) => firstPageStatements(db, orm, page);
  return Promise.all([
    db.prepared(`list_rows_of_${page.name}`, (orm) => of(orm).rows(), {}),
    db.prepared(`subjects_of_${page.name}`, (orm) => of(orm).subjects(), {}),
    db.prepared(`assignees_of_${page.name}`, (orm) => of(orm).assignees(), {}),
  ]);
}

/** Whether every list holds the reports of `ids`, and no other. */
const sameReports = (ids: number[], ...lists: Array<Array<{ id: number }>>) =>
  lists.every((list) => {
    const read = new Set(list.map((row) => row.id));
    return read.size === ids.length && ids.every((id) => read.has(id));
  });

/**
 * The list's rows for a page (list-page.ts, PageSource), in the list's order: three prepared statements
 * side by side, whatever the page: by its ids, or each finding one of the first pages again. Those three
 * read at nearly the same moment, not in one snapshot: when a write in between moved the page (a report
 * created, deleted), they found different reports, and the subjects and assignees are read again by the
 * ids of the rows, never shown empty for a report that has some.
 */
export async function loadListItems(
  db: ReadOnlyDatabase,
  page: PageSource,
): Promise<SignalementListItemDto[]> {
  if ('ids' in page && page.ids.length === 0) return [];
  const s = db.t.signalements;
  let rows, subjectList, assigneeList;
  if ('ids' in page) {
    [rows, subjectList, assigneeList] = await Promise.all([
      forIds(db, 'list_rows', page.ids, (orm, where) => selectListRows(db, orm).where(where(s.id))),
      forIds(db, 'load_subjects', page.ids, (orm, where) => subjectRows(db, orm, where)),
      forIds(db, 'load_assignees', page.ids, (orm, where) => assigneeRows(db, orm, where)),
    ]);
  } else {
    [rows, subjectList, assigneeList] = await firstPageRows(db, page);
    const ids = rows.map((row) => row.s.id);
    if (!sameReports(ids, subjectList, assigneeList)) return loadListItems(db, { ids });
  }
  const assignees = new Map<number, SignalementListItemDto['assignees']>();
  for (const { id, code, nomPrenom } of assigneeList) {
    if (code === null || nomPrenom === null) continue;
    const list = assignees.get(id) ?? [];
    list.push({ code, nomPrenom });
    assignees.set(id, list);
  }
  const subjects = new Map<number, ListRefDto[]>();
  for (const { id, code, designation } of subjectList) {
    if (code === null || designation === null) continue;
    const list = subjects.get(id) ?? [];
    list.push({ code, designation });
    subjects.set(id, list);
  }
  const byId = new Map(rows.map((r) => [r.s.id, r]));
  const ids = 'ids' in page ? page.ids : rows.map((r) => r.s.id);
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [listItem(row, subjects.get(id) ?? [], assignees.get(id) ?? [])] : [];
  });
}
