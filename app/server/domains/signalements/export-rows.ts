// The xlsx export's rows: only what its cells show, read flat in one statement per batch (the report, its
// references' designations and its people counts), with its subjects, projects and assignees beside it
// (docs/decisions/0050-xlsx-export-speed.md). The full DTOs of the loader cost the export most of its time
// (nested rows, IRIs, objects the sheet never shows) and most of its garbage.
import { eq, getTableName, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Orm, ReadOnlyDatabase } from '#server/db/client';
import { idList, inIdList } from '#server/db/prepared';
import type { SessionUser } from '../auth/session';
import { dueDayDto } from '../delais/due-day-dto';
import { canEditAs } from './access';
import { readableNotes, type BatchOptions, type ExportRow } from './export';
import { assigneeRows, projectRows, subjectRows } from './loader';

/**
 * What a row of the sheet reads of a report: the full DTO (SignalementDto) is one, and so is the lean row
 * read here. Dates as the DTO's ISO strings or as the driver's Date.
 */
export interface ExportItem {
  code: string;
  signalementAt: string | Date;
  createdAt: string | Date;
  closeAt: string | Date | null;
  lastActionAt: string | Date | null;
  /** The due day, 'yyyy-MM-dd' (dueDayDto). */
  echeance: string | null;
  partenaire: { designation: string };
  canalPrincipal: { designation: string } | null;
  autreCanalPrincipal: string | null;
  subjects: Array<{ designation: string }>;
  autreObject: string | null;
  projects: Array<{ sigle: string; designation: string }>;
  region: { designation: string } | null;
  district: { designation: string } | null;
  commune: { designation: string } | null;
  fokontany: string | null;
  niveau: { designation: string } | null;
  statut: { designation: string } | null;
  resultat: { designation: string } | null;
  isTreated: boolean;
  isInternalResponsability: boolean;
  isConfict: boolean;
  isRecurrent: boolean;
  isAnonyme: boolean;
  description: string | null;
  actionProvisoires: string[];
  preuves: string[];
  createdBy: { nomPrenom: string; email: string };
  /** The exporter may edit the report (access.ts canEditAs): the notes' need to know. */
  canEdit: boolean;
}

/** Reports read per batch at the most, as the DTO batches (export.ts). */
const BATCH = 1000;
/** Reports of the first batch: a batch's size is then what the texts of the one before allow (batchAfter). */
const FIRST_BATCH = 100;
/**
 * Characters of text (descriptions, actions, evidence, notes…) a batch holds at the most, about: some 8 MB
 * of the thread's capped heap at two bytes a character. A thousand reports each with the longest description
 * allowed (20,000 characters) stopped the thread on its heap limit.
 */
const BATCH_TEXT = 4_000_000;

/** The characters of a row's texts: what makes one report heavier than another in the thread's heap. */
function textLength(row: ExportRow): number {
  const { item } = row;
  let n = (item.description?.length ?? 0) + (item.autreObject?.length ?? 0);
  n += (item.autreCanalPrincipal?.length ?? 0) + (item.fokontany?.length ?? 0) + (row.notes?.length ?? 0);
  for (const text of item.actionProvisoires) n += text.length;
  for (const text of item.preuves) n += text.length;
  return n;
}

/** The size of the next batch: as many reports as BATCH_TEXT holds at the last batch's mean, 1 to `most`. */
export function batchAfter(rows: ExportRow[], most: number): number {
  if (rows.length === 0) return most;
  const perRow = Math.max(1, rows.reduce((n, row) => n + textLength(row), 0) / rows.length);
  return Math.max(1, Math.min(most, Math.floor(BATCH_TEXT / perRow)));
}

/** The count of each kind of person of the report `s` reads, as subqueries of its statement. */
export function peopleCountColumns(db: ReadOnlyDatabase) {
  const t = db.t;
  const s = t.signalements;
  // Columns named with their table: drizzle leaves them bare in a select from one table, where the
  // subquery's "id" would be the person's.
  const qualified = (column: AnyColumn) =>
    sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
  const countOf = (table: typeof t.presumeAuteurs | typeof t.sources | typeof t.victimes) =>
    sql<number>`(select count(*) from ${table} where ${qualified(table.signalementId)} = ${qualified(s.id)})`.mapWith(
      Number,
    );
  return {
    auteurs: countOf(t.presumeAuteurs),
    sources: countOf(t.sources),
    victimes: countOf(t.victimes),
  };
}

/**
 * The report columns and designations the sheet shows; the statement's columns come in the order of its
 * keys (what leanDecoder reads).
 */
function leanSelection(db: ReadOnlyDatabase) {
  const t = db.t;
  const s = t.signalements;
  return {
    id: s.id,
    code: s.code,
    signalementAt: s.signalementAt,
    createdAt: s.createdAt,
    closeAt: s.closeAt,
    lastActionAt: s.lastActionAt,
    dueDay: s.dueDay,
    partenaire: t.partenaires.designation,
    canal: t.canals.designation,
    autreCanalPrincipal: s.autreCanalPrincipal,
    autreObject: s.autreObject,
    region: t.regions.designation,
    district: t.districts.designation,
    commune: t.communes.designation,
    fokontany: s.fokontany,
    niveau: t.niveaux.designation,
    statut: t.statuts.designation,
    resultat: t.resultats.designation,
    isTreated: s.isTreated,
    isInternalResponsability: s.isInternalResponsability,
    isConfict: s.isConfict,
    isRecurrent: s.isRecurrent,
    isAnonyme: s.isAnonyme,
    description: s.description,
    actionProvisoires: s.actionProvisoires,
    preuves: s.preuves,
    createdByName: t.utilisateurs.nomPrenom,
    createdByEmail: t.utilisateurs.email,
    ...peopleCountColumns(db),
  };
}

/**
 * leanSelection with the report row's joins (report-row.ts: the same nine references, the same inner and
 * left joins; written out here because its selection is fixed).
 */
function leanRows(db: ReadOnlyDatabase, orm: Orm, ids: (column: AnyColumn) => SQL) {
  const t = db.t;
  const s = t.signalements;
  return orm
    .select(leanSelection(db))
    .from(s)
    .innerJoin(t.utilisateurs, eq(t.utilisateurs.id, s.createdById))
    .innerJoin(t.partenaires, eq(t.partenaires.id, s.partenaireId))
    .leftJoin(t.canals, eq(t.canals.id, s.canalPrincipalId))
    .leftJoin(t.regions, eq(t.regions.id, s.regionId))
    .leftJoin(t.districts, eq(t.districts.id, s.districtId))
    .leftJoin(t.communes, eq(t.communes.id, s.communeId))
    .leftJoin(t.niveaux, eq(t.niveaux.id, s.niveauId))
    .leftJoin(t.statuts, eq(t.statuts.id, s.statutId))
    .leftJoin(t.resultats, eq(t.resultats.id, s.resultatId))
    .where(ids(s.id));
}

/** A report as the sheet reads it: the row drizzle would map leanRows' statement to. */
type LeanRow = Awaited<ReturnType<typeof leanRows>>[number];

/** The lean row's values that the dialect decodes (the others are used as the driver gives them). */
const DECODED: Partial<Record<keyof LeanRow, 'date' | 'flag' | 'json' | 'count'>> = {
  signalementAt: 'date',
  createdAt: 'date',
  closeAt: 'date',
  lastActionAt: 'date',
  isTreated: 'flag',
  isInternalResponsability: 'flag',
  isConfict: 'flag',
  isRecurrent: 'flag',
  isAnonyme: 'flag',
  actionProvisoires: 'json',
  preuves: 'json',
  auteurs: 'count',
  sources: 'count',
  victimes: 'count',
};

/**
 * Decodes the lean rows read as arrays (db.preparedValues), whose values come in the order of the select's
 * fields: drizzle's mapping of each row to an object, field by field, cost the export's thread as much as
 * SQLite's reads of them and a share of its garbage (docs/decisions/0050). Built once per export.
 */
function leanDecoder(db: ReadOnlyDatabase): (values: unknown[]) => LeanRow {
  const { dialect } = db;
  const plain = (value: unknown) => value;
  const fields = Object.keys(leanSelection(db)).map((key) => {
    const decoded = DECODED[key as keyof LeanRow];
    return [key, decoded ? (value: unknown) => dialect[decoded](value) : plain] as const;
  });
  return (values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) row[fields[i]![0]] = fields[i]![1](values[i]);
    return row as unknown as LeanRow;
  };
}

/** Groups `list` by report id, in its order. */
function byReport<R extends { id: number }, V>(list: R[], map: (r: R) => V): Map<number, V[]> {
  const out = new Map<number, V[]>();
  for (const r of list) {
    const values = out.get(r.id);
    if (values) values.push(map(r));
    else out.set(r.id, [map(r)]);
  }
  return out;
}

const designation = (value: string | null) => (value === null ? null : { designation: value });

/**
 * Yields the rows of the xlsx export in the order of `ids`, in batches of at most BATCH reports (FIRST_BATCH
 * first, then as many as BATCH_TEXT allows at the texts of the batch before: batchAfter), with the same
 * values the DTO batches give its cells (exportBatches in export.ts; export-rows.test.ts compares the two).
 * Where a read leaves the thread free (`db.readsAside`: PostgreSQL, whose statements run in the database's
 * process), the next batch is read while the sheet is written from this one.
 */
export async function* xlsxBatches(
  db: ReadOnlyDatabase,
  actor: SessionUser,
  ids: number[],
  /** `batch`: reports per batch, BATCH unless a test asks for smaller ones. */
  options: BatchOptions & { batch?: number } = {},
): AsyncGenerator<ExportRow[]> {
  if (options.notesInternes && !options.calendar) throw new Error('the notes of an export need its calendar');
  if (options.notesInternes && !options.cipher) throw new Error('the notes of an export need the data key');
  const canEdit = canEditAs(actor);
  const most = options.batch ?? BATCH;
  const decode = leanDecoder(db);
  const read = (from: number, size: number) =>
    leanBatch(db, canEdit, decode, ids.slice(from, from + size), options);
  // Where a read would run on this thread at once (SQLite without reader threads: the export's thread),
  // one batch at a time: reading ahead would overlap nothing and hold two batches in the capped heap.
  let size = Math.min(FIRST_BATCH, most);
  if (!db.readsAside) {
    for (let from = 0; from < ids.length;) {
      const rows = await read(from, size);
      from += size;
      size = batchAfter(rows, most);
      yield rows;
    }
    return;
  }
  const ahead = (from: number, size: number) => {
    const batch = read(from, size);
    // If the export stops before it is awaited, its failure is nobody's to report.
    batch.catch(() => {});
    return batch;
  };
  let next = ids.length > 0 ? ahead(0, size) : null;
  for (let from = size; next;) {
    const rows = await next;
    size = batchAfter(rows, most);
    next = from < ids.length ? ahead(from, size) : null;
    from += size;
    yield rows;
  }
}

/** One batch of the export's rows, in the order of `slice`. */
async function leanBatch(
  db: ReadOnlyDatabase,
  canEdit: ReturnType<typeof canEditAs>,
  decode: ReturnType<typeof leanDecoder>,
  slice: number[],
  options: BatchOptions,
): Promise<ExportRow[]> {
  const { calendar, cipher } = options;
  // Prepared once per database and run for every batch with the batch's ids as one parameter: a statement
  // built per batch (its 1,000 ids inlined) was prepared anew each time, and on SQLite each one kept its
  // compiled program in native memory until the collector finalized it, about 170 MB by the end of an
  // export of 100,000 reports (docs/decisions/0050).
  const where = (column: AnyColumn) => inIdList(db, column, 'ids');
  const values = { ids: idList(db, slice) };
  const [rows, subjectList, projectList, assigneeList] = await Promise.all([
    db.preparedValues('export_rows', (orm) => leanRows(db, orm, where), values),
    db.prepared('export_subjects', (orm) => subjectRows(db, orm, where), values),
    db.prepared('export_projects', (orm) => projectRows(db, orm, where), values),
    db.prepared('export_assignees', (orm) => assigneeRows(db, orm, where), values),
  ]);
  const subjects = byReport(subjectList, (r) => ({ designation: r.designation }));
  const projects = byReport(projectList, (r) => r.project);
  const assignees = byReport(assigneeList, (r) => Number(r.userId));
  const byId = new Map(rows.map((values) => decode(values)).map((r) => [r.id, r]));
  const loaded: Array<{ id: number; item: ExportItem; counts: ExportRow['counts'] }> = [];
  for (const id of slice) {
    const r = byId.get(id);
    if (!r) continue;
    const item: ExportItem = {
      code: r.code,
      signalementAt: r.signalementAt,
      createdAt: r.createdAt,
      closeAt: r.closeAt,
      lastActionAt: r.lastActionAt,
      echeance: dueDayDto(r.dueDay),
      partenaire: { designation: r.partenaire },
      canalPrincipal: designation(r.canal),
      autreCanalPrincipal: r.autreCanalPrincipal,
      subjects: subjects.get(id) ?? [],
      autreObject: r.autreObject,
      projects: projects.get(id) ?? [],
      region: designation(r.region),
      district: designation(r.district),
      commune: designation(r.commune),
      fokontany: r.fokontany,
      niveau: designation(r.niveau),
      statut: designation(r.statut),
      resultat: designation(r.resultat),
      isTreated: r.isTreated,
      isInternalResponsability: r.isInternalResponsability,
      isConfict: r.isConfict,
      isRecurrent: r.isRecurrent,
      isAnonyme: r.isAnonyme,
      description: r.description,
      actionProvisoires: r.actionProvisoires,
      preuves: r.preuves,
      createdBy: { nomPrenom: r.createdByName, email: r.createdByEmail },
      canEdit: canEdit({ createdByEmail: r.createdByEmail, assigneeIds: assignees.get(id) ?? [] }),
    };
    loaded.push({
      id,
      item,
      counts: { auteurs: r.auteurs, sources: r.sources, victimes: r.victimes },
    });
  }
  const notes = options.notesInternes ? await readableNotes(db, cipher!, loaded, calendar!) : null;
  return loaded.map(({ item, counts }) => ({
    item,
    counts,
    ...(notes ? { notes: notes.get(item.code) ?? null } : {}),
  }));
}
