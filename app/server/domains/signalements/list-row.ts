// The report list's row: what the list shows of a report, selected, joined and shaped in this one file
// (docs/decisions/0027-list-rows.md). A column of the list is one field here (its columns, its joins, its
// place in `listItem`) and one in `SignalementListItemDto` (shared/dto/signalements.ts), which the
// compiler ties together. The whole report (the detail, the export, the history) is report-row.ts.
import { eq, sql, type AnyColumn, type Column, type SQL } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/sqlite-core';
import type { ListRefDto, SignalementListItemDto } from '#shared/dto/signalements';
import type { Orm, ReadOnlyDatabase } from '#server/db/client';
import type { Preparable } from '#server/db/prepared';
import { dueDayDto } from '../delais/due-day-dto';
import { iri, orNull } from '../referentiels/dto';
import { assigneeOrder, assigneeRows, forIds, subjectOrder, subjectRows } from './loader';
import type { PageSource } from './list-page';
import { wholeListTotalQuery, type LoadedPage } from './queries';

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

/**
 * `selection` over a report and the references the list shows (its joins: inner for the partner). Typed as
 * the list's columns (selectListRows); another selection (pageStatement) says what it reads itself.
 */
function fromListJoins(db: ReadOnlyDatabase, orm: Orm, selection: SelectedFields) {
  const t = db.t;
  const s = t.signalements;
  return orm
    .select(selection as ReturnType<typeof listRowColumns>)
    .from(s)
    .innerJoin(t.partenaires, eq(t.partenaires.id, s.partenaireId))
    .leftJoin(t.canals, eq(t.canals.id, s.canalPrincipalId))
    .leftJoin(t.regions, eq(t.regions.id, s.regionId))
    .leftJoin(t.districts, eq(t.districts.id, s.districtId))
    .leftJoin(t.communes, eq(t.communes.id, s.communeId))
    .leftJoin(t.statuts, eq(t.statuts.id, s.statutId))
    .leftJoin(t.niveaux, eq(t.niveaux.id, s.niveauId));
}

export function selectListRows(db: ReadOnlyDatabase, orm: Orm) {
  return fromListJoins(db, orm, listRowColumns(db));
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
    .orderBy(...subjectOrder(db));
}

function pageAssigneeRows(db: ReadOnlyDatabase, orm: Orm, inPage: (column: AnyColumn) => SQL) {
  const { signalements: s, signalementAssignees: sa, utilisateurs: u } = db.t;
  return orm
    .select({ id: s.id, code: u.code, nomPrenom: u.nomPrenom })
    .from(s)
    .leftJoin(sa, eq(sa.signalementId, s.id))
    .leftJoin(u, eq(u.id, sa.userId))
    .where(inPage(s.id))
    .orderBy(...assigneeOrder(db));
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

/** listRowColumns as its groups (partenaire, canal…), each with its columns, in the order of their keys. */
function listRowGroups(db: ReadOnlyDatabase) {
  return Object.entries(listRowColumns(db)).map(
    ([group, columns]) => [group, Object.entries(columns as Record<string, Column>)] as const,
  );
}

/**
 * A list row read as one JSON array of listRowColumns' values (pageStatement), back to the row drizzle
 * maps selectListRows to: each group an object, or null when all its values are (a reference left
 * unset, as drizzle gives a left join that found nothing); timestamps and flags read by the dialect.
 */
function listRowDecoder(db: ReadOnlyDatabase): (values: unknown[]) => ListRow {
  const { dialect } = db;
  const plain = (value: unknown) => value;
  const groups = listRowGroups(db).map(
    ([group, columns]) =>
      [
        group,
        columns.map(([key, column]) => {
          const decode =
            column.dataType === 'date'
              ? (value: unknown) => dialect.date(value)
              : column.dataType === 'boolean'
                ? (value: unknown) => dialect.flag(value)
                : plain;
          return [key, decode] as const;
        }),
      ] as const,
  );
  return (values) => {
    const row: Record<string, Record<string, unknown> | null> = Object.create(null);
    let i = 0;
    for (const [group, columns] of groups) {
      const object: Record<string, unknown> = {};
      let unset = true;
      for (const [key, decode] of columns) {
        const value = values[i++] ?? null;
        object[key] = value === null ? null : decode(value);
        if (value !== null) unset = false;
      }
      row[group] = unset ? null : object;
    }
    return row as unknown as ListRow;
  };
}

const parseJsonArrays = (text: string) => JSON.parse(text) as unknown[][];

/** pageStatement's one row: its three JSON values, parsed, and the whole list's total when asked. */
interface PageRead {
  rows: unknown[][];
  subjects: unknown[][];
  assignees: unknown[][];
  total?: number;
}
type PageStatement = Preparable<Promise<PageRead[]>> & {
  getSQL(): SQL;
  toSQL(): { sql: string; params: unknown[] };
};

/**
 * A first page found again (PageSource) as one statement (dialect.pageInOneStatement, docs/decisions/0065):
 * its rows, its subjects and its assignees, each one JSON value (dialect.jsonArrays), the last two as
 * sub-selects of the first, each finding the page again, and the whole list's total when the page asks for
 * it (`wholeTotal`, decision 0067). One statement reads one snapshot: its parts always hold the same reports.
 */
export function pageStatement(
  db: ReadOnlyDatabase,
  orm: Orm,
  page: Extract<PageSource, { name: string }>,
): PageStatement {
  const { dialect } = db;
  const inPage = (column: AnyColumn) => dialect.inFewIds(column, page.statement());
  const t = db.t;
  const { signalementSubjects: ss, subjects, signalementAssignees: sa, utilisateurs: u } = t;
  const subjectsOfPage = orm
    .select({
      list: dialect.jsonArrays([ss.signalementId, subjects.code, subjects.designation], subjectOrder(db)),
    })
    .from(ss)
    .innerJoin(subjects, eq(subjects.id, ss.subjectId))
    .where(inPage(ss.signalementId));
  const assigneesOfPage = orm
    .select({ list: dialect.jsonArrays([sa.signalementId, u.code, u.nomPrenom], assigneeOrder(db)) })
    .from(sa)
    .innerJoin(u, eq(u.id, sa.userId))
    .where(inPage(sa.signalementId));
  const values = listRowGroups(db).flatMap(([, columns]) => columns.map(([, column]) => column));
  return fromListJoins(db, orm, {
    rows: dialect.jsonArrays(values, page.order()),
    subjects: sql`(${subjectsOfPage})`.mapWith(parseJsonArrays),
    assignees: sql`(${assigneesOfPage})`.mapWith(parseJsonArrays),
    ...(page.wholeTotal ? { total: sql`(${wholeListTotalQuery(db, orm)})`.mapWith(Number) } : {}),
  }).where(inPage(t.signalements.id)) as unknown as PageStatement;
}

/**
 * A first page's rows, subjects and assignees read by pageStatement, prepared under the page's name. Only a
 * page found again: its statement has no parameter, so PostgreSQL plans it once per connection; by ids (a
 * parameter), PostgreSQL planned this join of eleven tables again on every run (2.7 ms, decision 0065).
 */
async function pageInOneStatement(db: ReadOnlyDatabase, page: Extract<PageSource, { name: string }>) {
  const name = `list_page_${page.wholeTotal ? 'and_total_' : ''}of_${page.name}`;
  const [read] = await db.prepared(name, (orm) => pageStatement(db, orm, page), {});
  if (!read) throw new Error('the page statement answered no row');
  return [
    read.rows.map(listRowDecoder(db)),
    read.subjects.map(([id, code, designation]) => ({
      id: Number(id),
      code: String(code),
      designation: String(designation),
    })),
    read.assignees.map(([id, code, nomPrenom]) => ({
      id: Number(id),
      code: String(code),
      nomPrenom: String(nomPrenom),
    })),
    read.total,
  ] as const;
}

/** Whether every list holds the reports of `ids`, and no other. */
const sameReports = (ids: number[], ...lists: Array<Array<{ id: number }>>) =>
  lists.every((list) => {
    const read = new Set(list.map((row) => row.id));
    return read.size === ids.length && ids.every((id) => read.has(id));
  });

/**
 * The list's rows for a page (list-page.ts, PageSource), in the list's order: three prepared statements
 * side by side, by the page's ids or each finding one of the first pages again; on PostgreSQL a first page
 * is one statement (pageStatement, dialect.pageInOneStatement), which also reads the whole list's total when
 * the page asks for it (`wholeTotal`; the three statements never do: listPage counts it then). The three
 * read at nearly the same moment, not in one snapshot: when a write in between moved the page (a report
 * created, deleted), they found different reports, and the subjects and assignees are read again by the
 * ids of the rows, never shown empty for a report that has some.
 */
export async function loadListPage(
  db: ReadOnlyDatabase,
  page: PageSource,
  /** A first page in one statement (pageStatement) or three: the dialect's choice unless a test asks. */
  options: { oneStatement?: boolean } = {},
): Promise<LoadedPage<SignalementListItemDto[]>> {
  if ('ids' in page && page.ids.length === 0) return { items: [] };
  const s = db.t.signalements;
  let rows, subjectList, assigneeList, total;
  if ('ids' in page) {
    [rows, subjectList, assigneeList] = await Promise.all([
      forIds(db, 'list_rows', page.ids, (orm, where) => selectListRows(db, orm).where(where(s.id))),
      forIds(db, 'load_subjects', page.ids, (orm, where) => subjectRows(db, orm, where)),
      forIds(db, 'load_assignees', page.ids, (orm, where) => assigneeRows(db, orm, where)),
    ]);
  } else if (options.oneStatement ?? db.dialect.pageInOneStatement) {
    [rows, subjectList, assigneeList, total] = await pageInOneStatement(db, page);
  } else {
    [rows, subjectList, assigneeList] = await firstPageRows(db, page);
    const ids = rows.map((row) => row.s.id);
    if (!sameReports(ids, subjectList, assigneeList)) return loadListPage(db, { ids });
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
  const items = ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [listItem(row, subjects.get(id) ?? [], assignees.get(id) ?? [])] : [];
  });
  return total === undefined ? { items } : { items, total };
}

/** loadListPage's items. */
export async function loadListItems(
  db: ReadOnlyDatabase,
  page: PageSource,
  options: { oneStatement?: boolean } = {},
): Promise<SignalementListItemDto[]> {
  return (await loadListPage(db, page, options)).items;
}
