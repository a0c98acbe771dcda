// The loading of full report DTOs for a set of ids in a fixed number of queries (no query per row): the
// report with its nine references, its subjects, its projects, its assignees.
import { aliasedTable, asc, eq, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { SignalementDto } from '#shared/dto/signalements';
import type { Orm, ReadOnlyDatabase } from '#server/db/client';
import { idList, inIdList, type Preparable } from '#server/db/prepared';
import { dueDayDto } from '../delais/due-day-dto';
import {
  canalDto,
  iri,
  niveauDto,
  orNull,
  partenaireRefDto,
  placeDto,
  projectDto,
  refDto,
  statutDto,
} from '../referentiels/dto';
import type { SessionUser } from '../auth/session';
import { canAssignAs, canEditAs } from './access';
import { staffRef } from './staff-ref';
import { selectReportRows } from './report-row';

/** The display order of a report's subjects: the loader's, the list's and the export's. */
export function subjectOrder(db: ReadOnlyDatabase): SQL[] {
  const { subjects } = db.t;
  return [asc(subjects.position), asc(subjects.designation), asc(subjects.id)];
}

/** The display order of a report's assignees, by name. */
export function assigneeOrder(db: ReadOnlyDatabase): SQL[] {
  const { utilisateurs } = db.t;
  return [asc(utilisateurs.nomPrenom), asc(utilisateurs.id)];
}

/** The subjects of the reports matching `ids`, in their display order: the loader's and the list's. */
export function subjectRows(db: ReadOnlyDatabase, orm: Orm, ids: (column: AnyColumn) => SQL) {
  const t = db.t;
  return orm
    .select({
      id: t.signalementSubjects.signalementId,
      code: t.subjects.code,
      designation: t.subjects.designation,
    })
    .from(t.signalementSubjects)
    .innerJoin(t.subjects, eq(t.subjects.id, t.signalementSubjects.subjectId))
    .where(ids(t.signalementSubjects.signalementId))
    .orderBy(...subjectOrder(db));
}

/** The projects of the reports matching `ids`, by sigle: the loader's and the xlsx export's. */
export function projectRows(db: ReadOnlyDatabase, orm: Orm, ids: (column: AnyColumn) => SQL) {
  const t = db.t;
  const owner = aliasedTable(t.partenaires, 'project_owner');
  return orm
    .select({
      id: t.signalementProjects.signalementId,
      project: {
        code: t.projects.code,
        designation: t.projects.designation,
        sigle: t.projects.sigle,
        description: t.projects.description,
      },
      owner: {
        code: owner.code,
        designation: owner.designation,
        initial: owner.initial,
        color: owner.color,
      },
    })
    .from(t.signalementProjects)
    .innerJoin(t.projects, eq(t.projects.id, t.signalementProjects.projectId))
    .innerJoin(owner, eq(owner.id, t.projects.ownerId))
    .where(ids(t.signalementProjects.signalementId))
    .orderBy(asc(t.projects.sigle));
}

/** The assignees of the reports matching `ids`, by name: the loader's and the list's. */
export function assigneeRows(db: ReadOnlyDatabase, orm: Orm, ids: (column: AnyColumn) => SQL) {
  const t = db.t;
  return orm
    .select({
      id: t.signalementAssignees.signalementId,
      userId: t.signalementAssignees.userId,
      code: t.utilisateurs.code,
      nomPrenom: t.utilisateurs.nomPrenom,
    })
    .from(t.signalementAssignees)
    .innerJoin(t.utilisateurs, eq(t.utilisateurs.id, t.signalementAssignees.userId))
    .where(ids(t.signalementAssignees.signalementId))
    .orderBy(...assigneeOrder(db));
}

/**
 * Runs one statement of the loaders for the given ids (`statement` gets a condition on a column): for a
 * page (at most 100 ids, the largest itemsPerPage), prepared under `name` and run by db.prepared (on SQLite
 * on the main thread: bounded by the ids); for more (the export's batches), built for db.read (on SQLite
 * a reader thread). Inside a transaction both run on it. One to three ids (a report opened, a page of one,
 * a filter matching two or three reports) have a statement of their own for each length, each id its own
 * parameter (`column = $id0`, `column in ($id0, $id1…)`): for a list of unknown length PostgreSQL's generic
 * plan assumes ten ids, and for one to three it found planning again cheaper, on every run (the list row's
 * nine tables: bind 2.7 ms at 1,000,000 reports, decision 0066; the subjects' and assignees' statements for
 * two or three ids, decision 0068); for a fixed number of keys the generic plan is the custom one, kept after
 * five runs. From four ids on, PostgreSQL keeps the generic plan of the list.
 */
const PREPARED_LOADER_IDS = 100;
/** The lengths of the lists of ids that have statements of their own, by their names' suffix. */
const FEW_IDS = ['one', 'two', 'three'] as const;
export async function forIds<R>(
  db: ReadOnlyDatabase,
  name: string,
  ids: number[],
  statement: (orm: Orm, ids: (column: AnyColumn) => SQL) => Preparable<R> & PromiseLike<Awaited<R>>,
): Promise<Awaited<R>> {
  if (ids.length > PREPARED_LOADER_IDS) return statement(db.read, (column) => inArray(column, ids));
  const few = FEW_IDS[ids.length - 1];
  if (few) {
    const keys = ids.map((_, i) => `id${i}`);
    const placeholders = keys.map((key) => sql.placeholder(key));
    return db.prepared(
      `${name}_of_${few}`,
      (orm) =>
        statement(orm, (column) =>
          placeholders.length === 1
            ? eq(column, placeholders[0]!)
            : sql`${column} in (${sql.join(placeholders, sql`, `)})`,
        ),
      Object.fromEntries(ids.map((id, i) => [keys[i]!, id])),
    );
  }
  return db.prepared(name, (orm) => statement(orm, (column) => inIdList(db, column, 'ids')), {
    ids: idList(db, ids),
  });
}

/** The loader's rows: the report with its nine references, its subjects, its projects, its assignees. */
function loaderRows(db: ReadOnlyDatabase, ids: number[]) {
  return Promise.all([
    forIds(db, 'load_reports', ids, (orm, where) =>
      selectReportRows(db, orm).where(where(db.t.signalements.id)),
    ),
    forIds(db, 'load_subjects', ids, (orm, where) => subjectRows(db, orm, where)),
    forIds(db, 'load_projects', ids, (orm, where) => projectRows(db, orm, where)),
    forIds(db, 'load_assignees', ids, (orm, where) => assigneeRows(db, orm, where)),
  ]);
}

/** Full DTOs for the given report ids, in the given order (inside a transaction, as it sees them). */
export async function loadSignalements(
  db: ReadOnlyDatabase,
  ids: number[],
  viewer: SessionUser,
): Promise<SignalementDto[]> {
  return (await loadSignalementsById(db, ids, viewer)).map((loaded) => loaded.item);
}

/** The same, each DTO with its report's id (the export reads the notes of the reports by id). */
export async function loadSignalementsById(
  db: ReadOnlyDatabase,
  ids: number[],
  viewer: SessionUser,
): Promise<Array<{ id: number; item: SignalementDto }>> {
  if (ids.length === 0) return [];
  const [rows, subjectList, projectList, assigneeList] = await loaderRows(db, ids);
  const canEdit = canEditAs(viewer);
  const canAssign = canAssignAs(viewer);

  const group = <R extends { id: number }, V>(list: R[], map: (r: R) => V) => {
    const out = new Map<number, V[]>();
    for (const r of list) out.set(r.id, [...(out.get(r.id) ?? []), map(r)]);
    return out;
  };
  const subjectsById = group(subjectList, (r) => refDto('subjects', r));
  const projectsById = group(projectList, (r) => projectDto(r.project, r.owner));
  const assigneesById = group(assigneeList, (r) => r);
  const byId = new Map(rows.map((r) => [r.s.id, r]));

  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const canal = orNull(r.canal);
    const region = orNull(r.region);
    const district = orNull(r.district);
    const commune = orNull(r.commune);
    const niveau = orNull(r.niveau);
    const statut = orNull(r.statut);
    const resultat = orNull(r.resultat);
    const assignees = assigneesById.get(id) ?? [];
    const rights = { createdByEmail: r.createdBy.email, assigneeIds: assignees.map((a) => Number(a.userId)) };
    const dto: SignalementDto = {
      '@id': iri('signalements', r.s.code),
      '@type': 'Signalement',
      code: r.s.code,
      signalementAt: r.s.signalementAt.toISOString(),
      createdAt: r.s.createdAt.toISOString(),
      closeAt: r.s.closeAt?.toISOString() ?? null,
      lastActionAt: r.s.lastActionAt?.toISOString() ?? null,
      createdBy: { '@id': iri('utilisateurs', r.createdBy.code), ...r.createdBy },
      partenaire: partenaireRefDto(r.partenaire),
      canalPrincipal: canal ? canalDto(canal) : null,
      autreCanalPrincipal: r.s.autreCanalPrincipal,
      autreObject: r.s.autreObject,
      subjects: subjectsById.get(id) ?? [],
      region: region ? placeDto('regions', region) : null,
      district: district ? placeDto('districts', district) : null,
      commune: commune ? placeDto('communes', commune) : null,
      fokontany: r.s.fokontany,
      projects: projectsById.get(id) ?? [],
      isTreated: r.s.isTreated,
      echeance: dueDayDto(r.s.dueDay),
      isInternalResponsability: r.s.isInternalResponsability,
      isConfict: r.s.isConfict,
      isRecurrent: r.s.isRecurrent,
      isAnonyme: r.s.isAnonyme,
      niveau: niveau ? niveauDto(niveau) : null,
      statut: statut ? statutDto(statut) : null,
      resultat: resultat ? refDto('resultats', resultat) : null,
      description: r.s.description,
      actionProvisoires: r.s.actionProvisoires,
      preuves: r.s.preuves,
      assignees: assignees.map(staffRef),
      canEdit: canEdit(rights),
      canAssign: canAssign(rights),
      version: Number(r.s.version),
    };
    return [{ id, item: dto }];
  });
}
