// The list's export: the same filters, every matching report, streamed so memory stays flat
// whatever the number of rows (ids first, then rows loaded and written BATCH at a time; the xlsx is written on a
// thread of its own, export-runner.ts, by export-writer.ts). This module is the server's: it does not load
// exceljs, which only the export's thread (and the journal's export, when asked) loads.
import { inArray } from 'drizzle-orm';
import { parseDay, type BusinessCalendar } from '#shared/calendar';
import type { ListContext, Services } from '#server/context';
import type { DataCipher } from '#server/crypto/cipher';
import type { ReadOnlyDatabase } from '#server/db/client';
import type { SessionUser } from '../auth/session';
import { recordExport } from '../journal/record';
import { notesForExport } from '../notes/queries';
import { peopleCountColumns, type ExportItem } from './export-rows';
import { loadSignalementsById } from './loader';
import { filterConditions, orderBy, type ListFilters } from './queries';

/**
 * Reports loaded per batch: a thousand keeps the statements few (each batch prepares its own) and the
 * batch's objects a few megabytes.
 */
const BATCH = 1000;

/** Ids of the matching reports in list order (the viewer's search matches as in the list). */
export async function exportIds(
  ctx: ListContext,
  filters: ListFilters,
  viewer?: SessionUser,
): Promise<number[]> {
  const { db } = ctx;
  const s = db.t.signalements;
  const where = await filterConditions(ctx, filters, { mode: 'set', viewer });
  // One row holding every id in list order (the dialect's orderedIntegers): a row object per id made the
  // serving thread's heap grow by about 30 MB for 100,000 ids, and keep that size after the export
  // (docs/decisions/0050).
  const [row] = await db.read
    .select({ ids: db.dialect.orderedIntegers(s.id, orderBy(db, filters.order)) })
    .from(s)
    .where(where);
  return row?.ids ?? [];
}

/**
 * Starts an export of the list (the JSON door): the matching ids, after the export is written in the access
 * log with its filters and row count (logExport). Nothing is sent when the log cannot be written.
 */
export async function startExport(
  ctx: Services,
  actor: SessionUser,
  filters: ListFilters,
  format: 'xlsx' | 'json',
  options: ExportOptions = {},
): Promise<number[]> {
  const ids = await exportIds(ctx, filters, actor);
  await logExport(ctx, actor, filters, format, ids.length, options);
  return ids;
}

/**
 * Writes an export in the access log with its filters and row count (docs/decisions/0015), before any of it
 * is sent: both doors, both formats (the xlsx's rows counted by its thread, export-runner.ts).
 */
export async function logExport(
  ctx: Services,
  actor: SessionUser,
  filters: ListFilters,
  format: 'xlsx' | 'json',
  lignes: number,
  options: ExportOptions = {},
): Promise<void> {
  // Logged with its dates as instants: a bare day is its first instant in the business calendar.
  const { signalementAt: at } = filters;
  const dates = at && {
    signalementAt: {
      ...(at.after && { after: ctx.calendar.instant(at.after) }),
      ...(at.before && { before: ctx.calendar.instant(at.before) }),
    },
  };
  await recordExport(ctx, actor, {
    format,
    filtres: { ...filters, ...dates },
    lignes,
    ...(options.notesInternes ? { notesInternes: true as const } : {}),
  });
}

export interface ExportOptions {
  /** « Inclure les notes internes »: a last column with each report's notes (xlsx only; off by default). */
  notesInternes?: boolean;
}

/** What the export's batches need with the notes: the calendar their times are written in, the key that opens them. */
export interface BatchOptions extends ExportOptions {
  calendar?: BusinessCalendar;
  cipher?: DataCipher | null;
}

/** One note in its cell: « 26/11/2026 14:05 - Rabe Hery : text », the time on the business calendar's clock. */
export function noteLine(
  note: { at: Date; auteur: string; texte: string },
  calendar: Pick<BusinessCalendar, 'wallClock'>,
): string {
  const w = calendar.wallClock(note.at);
  const two = (n: number) => String(n).padStart(2, '0');
  const day = `${two(w.getUTCDate())}/${two(w.getUTCMonth() + 1)}/${w.getUTCFullYear()}`;
  return `${day} ${two(w.getUTCHours())}:${two(w.getUTCMinutes())} - ${note.auteur} : ${note.texte}`;
}

/**
 * Yields full DTOs with their people counts, BATCH at a time; with `notesInternes`, the notes of each report
 * whose notes the exporter may read (the sources' need to know on anonymous reports, as on the screen).
 */
export async function* exportBatches(
  db: ReadOnlyDatabase,
  actor: SessionUser,
  ids: number[],
  options: BatchOptions = {},
): AsyncGenerator<ExportRow[]> {
  const { calendar, cipher } = options;
  if (options.notesInternes && !calendar) throw new Error('the notes of an export need its calendar');
  if (options.notesInternes && !cipher) throw new Error('the notes of an export need the data key');
  for (let i = 0; i < ids.length; i += BATCH) {
    const slice = ids.slice(i, i + BATCH);
    const loaded = await loadSignalementsById(db, slice, actor);
    const counts = await peopleCounts(db, slice);
    const notes = options.notesInternes ? await readableNotes(db, cipher!, loaded, calendar!) : null;
    yield loaded.map(({ item }) => ({
      item,
      counts: counts.get(item.code) ?? { auteurs: 0, sources: 0, victimes: 0 },
      ...(notes ? { notes: notes.get(item.code) ?? null } : {}),
    }));
  }
}

/** The notes of the loaded reports whose notes the exporter may read, by report code. */
export async function readableNotes(
  db: ReadOnlyDatabase,
  cipher: DataCipher,
  loaded: Array<{ id: number; item: Pick<ExportItem, 'code' | 'isAnonyme' | 'canEdit'> }>,
  calendar: BusinessCalendar,
): Promise<Map<string, string>> {
  // The sources' need to know (access.ts canSeeSources), as the loader decided it for this exporter: a
  // report that is not anonymous, or one the exporter may edit (creator, assignee, administrator).
  const readable = loaded.filter(({ item }) => !item.isAnonyme || item.canEdit);
  const notes = await notesForExport(
    db,
    cipher,
    readable.map((r) => r.id),
    (note) => noteLine(note, calendar),
  );
  return new Map(
    readable.flatMap(({ id, item }) => (notes.has(id) ? [[item.code, notes.get(id)!] as const] : [])),
  );
}

/** The people counts of the given reports by code, in one statement (a count per kind of person). */
async function peopleCounts(db: ReadOnlyDatabase, ids: number[]) {
  const s = db.t.signalements;
  const rows = await db.read
    .select({ code: s.code, ...peopleCountColumns(db) })
    .from(s)
    .where(inArray(s.id, ids));
  return new Map(rows.map(({ code, ...counts }) => [code, counts]));
}

// ---------------------------------------------------------------- xlsx
// A spreadsheet date has no time zone: the cell holds the business calendar's wall clock, so it shows the
// day the screens show (docs/decisions/0018-business-calendar.md).
// Read from the zone's table of offsets (wallClockReader, bound once per export in writeXlsx), not from
// Intl once per cell.
const date = (at: string | Date | null, calendar: CellCalendar) =>
  at ? calendar.wallClock(typeof at === 'string' ? new Date(at) : at) : null;
/** What a cell reads of the business calendar: its wall clock. */
export type CellCalendar = Pick<BusinessCalendar, 'wallClock'>;
const yesNo = (b: boolean) => (b ? 'Oui' : 'Non');

export type ExportRow = {
  /** The full DTO (the JSON export's batches) or the lean row (export-rows.ts). */
  item: ExportItem;
  counts: { auteurs: number; sources: number; victimes: number };
  /** The report's internal notes, when asked for (null: none, or not for this exporter). */
  notes?: string | null;
};

export const COLUMNS: Array<{
  header: string;
  width: number;
  value: (r: ExportRow, calendar: CellCalendar) => string | number | Date | null;
  date?: boolean;
}> = [
  { header: 'Code', width: 16, value: (r) => r.item.code },
  { header: 'Date du signalement', width: 14, date: true, value: (r, c) => date(r.item.signalementAt, c) },
  { header: 'Date de création', width: 14, date: true, value: (r, c) => date(r.item.createdAt, c) },
  { header: 'Date de clôture', width: 14, date: true, value: (r, c) => date(r.item.closeAt, c) },
  { header: 'Dernière action', width: 14, date: true, value: (r, c) => date(r.item.lastActionAt, c) },
  // The due day is already a business day (docs/decisions/0032): its midnight, as the wall clock's cells are.
  {
    header: 'Échéance',
    width: 14,
    date: true,
    value: (r) => (r.item.echeance ? parseDay(r.item.echeance) : null),
  },
  { header: 'Partenaire', width: 28, value: (r) => r.item.partenaire.designation },
  { header: 'Canal principal', width: 18, value: (r) => r.item.canalPrincipal?.designation ?? null },
  { header: 'Autre canal', width: 20, value: (r) => r.item.autreCanalPrincipal },
  { header: 'Objets', width: 32, value: (r) => r.item.subjects.map((s) => s.designation).join(', ') },
  { header: 'Autre objet', width: 24, value: (r) => r.item.autreObject },
  {
    header: 'Projets',
    width: 24,
    value: (r) => r.item.projects.map((p) => `${p.sigle} - ${p.designation}`).join(', '),
  },
  { header: 'Région', width: 18, value: (r) => r.item.region?.designation ?? null },
  { header: 'District', width: 18, value: (r) => r.item.district?.designation ?? null },
  { header: 'Commune', width: 18, value: (r) => r.item.commune?.designation ?? null },
  { header: 'Fokontany', width: 18, value: (r) => r.item.fokontany },
  { header: 'Niveau', width: 12, value: (r) => r.item.niveau?.designation ?? null },
  { header: 'Statut', width: 20, value: (r) => r.item.statut?.designation ?? null },
  { header: 'Résultat', width: 20, value: (r) => r.item.resultat?.designation ?? null },
  { header: 'Traité', width: 8, value: (r) => yesNo(r.item.isTreated) },
  { header: 'Responsabilité interne', width: 10, value: (r) => yesNo(r.item.isInternalResponsability) },
  { header: 'Conflit', width: 8, value: (r) => yesNo(r.item.isConfict) },
  { header: 'Récurrent', width: 10, value: (r) => yesNo(r.item.isRecurrent) },
  { header: 'Anonyme', width: 9, value: (r) => yesNo(r.item.isAnonyme) },
  { header: 'Description', width: 50, value: (r) => r.item.description },
  { header: 'Actions provisoires', width: 40, value: (r) => r.item.actionProvisoires.join('\n') },
  { header: 'Preuves', width: 40, value: (r) => r.item.preuves.join('\n') },
  { header: 'Créé par', width: 22, value: (r) => r.item.createdBy.nomPrenom },
  { header: 'Email du créateur', width: 26, value: (r) => r.item.createdBy.email },
  { header: 'Auteurs présumés', width: 10, value: (r) => r.counts.auteurs },
  { header: 'Sources', width: 9, value: (r) => r.counts.sources },
  { header: 'Victimes', width: 9, value: (r) => r.counts.victimes },
];

/**
 * Text a spreadsheet could read as a formula (or DDE). The cell keeps the user's exact text: exceljs writes
 * a plain string as a string cell, never as a formula (only a { formula } object becomes one), so no
 * prefix is needed, and an apostrophe would show in the cell in LibreOffice. The text format ('@') keeps
 * it text when someone edits the cell and presses Enter.
 */
export const FORMULA_START = /^[=+\-@\t\r]/;
export function safeCell(value: string | number | Date | null): {
  value: string | number | Date | null;
  text: boolean;
} {
  return { value, text: typeof value === 'string' && FORMULA_START.test(value) };
}

export function exportFileName(calendar: BusinessCalendar, now: Date): string {
  return `signalements_${calendar.day(now)}.xlsx`;
}

/** The last column, only when the export asks for the notes. */
export const NOTES_COLUMN: (typeof COLUMNS)[number] = {
  header: 'Notes internes',
  width: 60,
  value: (r) => r.notes ?? null,
};
