// The list's export: the same filters, every matching report, streamed so memory stays flat
// whatever the number of rows (ids first, then rows loaded and written BATCH at a time; the xlsx is written on a
// thread of its own, export-runner.ts).
import { count, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { once } from 'node:events';
import type { PassThrough } from 'node:stream';
import type { BusinessCalendar } from '#shared/calendar';
import type { SignalementDto } from '#shared/dto/signalements';
import type { ListContext, Services } from '#server/context';
import type { ReadOnlyDatabase } from '#server/db/client';
import type { SessionUser } from '../auth/session';
import { recordExport } from '../journal/record';
import { canEditAs } from './access';
import { loadSignalements } from './loader';
import { filterConditions, orderBy, type ListFilters } from './queries';

const BATCH = 200;

/** Ids of the matching reports in list order (the viewer's search matches as in the list). */
export async function exportIds(
  ctx: ListContext,
  filters: ListFilters,
  viewer?: SessionUser,
): Promise<number[]> {
  const { db } = ctx;
  const s = db.t.signalements;
  const where = await filterConditions(ctx, filters, { mode: 'set', viewer });
  const rows = await db.read
    .select({ id: s.id })
    .from(s)
    .where(where)
    .orderBy(...orderBy(db, filters.order));
  return rows.map((r) => r.id);
}

/**
 * Starts an export of the list (both formats, every door): the matching ids, after the export is
 * written in the access log with its filters and row count (docs/decisions/0015). Nothing is sent
 * when the log cannot be written.
 */
export async function startExport(
  ctx: Services,
  actor: SessionUser,
  filters: ListFilters,
  format: 'xlsx' | 'json',
): Promise<number[]> {
  const ids = await exportIds(ctx, filters, actor);
  // Logged with its dates as instants: a bare day is its first instant in the business calendar.
  const { signalementAt: at } = filters;
  const dates = at && {
    signalementAt: {
      ...(at.after && { after: ctx.calendar.instant(at.after) }),
      ...(at.before && { before: ctx.calendar.instant(at.before) }),
    },
  };
  await recordExport(ctx, actor, { format, filtres: { ...filters, ...dates }, lignes: ids.length });
  return ids;
}

/** Yields full DTOs with their people counts, BATCH at a time. */
export async function* exportBatches(db: ReadOnlyDatabase, actor: SessionUser, ids: number[]) {
  for (let i = 0; i < ids.length; i += BATCH) {
    const slice = ids.slice(i, i + BATCH);
    const items = await loadSignalements(db, slice, canEditAs(actor));
    const counts = await peopleCounts(db, slice);
    yield items.map((item) => ({
      item,
      counts: counts.get(item.code) ?? { auteurs: 0, sources: 0, victimes: 0 },
    }));
  }
}

async function peopleCounts(db: ReadOnlyDatabase, ids: number[]) {
  const t = db.t;
  const out = new Map<string, { auteurs: number; sources: number; victimes: number }>();
  const codes = await db.read
    .select({ id: t.signalements.id, code: t.signalements.code })
    .from(t.signalements)
    .where(inArray(t.signalements.id, ids));
  const codeOf = new Map(codes.map((r) => [r.id, r.code]));
  for (const c of codes) out.set(c.code, { auteurs: 0, sources: 0, victimes: 0 });
  for (const [key, table] of [
    ['auteurs', t.presumeAuteurs],
    ['sources', t.sources],
    ['victimes', t.victimes],
  ] as const) {
    const rows = await db.read
      .select({ id: table.signalementId, n: count() })
      .from(table)
      .where(inArray(table.signalementId, ids))
      .groupBy(table.signalementId);
    for (const r of rows) out.get(codeOf.get(r.id)!)![key] = r.n;
  }
  return out;
}

// ---------------------------------------------------------------- xlsx
// A spreadsheet date has no time zone: the cell holds the business calendar's wall clock, so it shows the
// day the screens show (docs/decisions/0018-business-calendar.md).
const date = (iso: string | null, calendar: BusinessCalendar) =>
  iso ? calendar.wallClock(new Date(iso)) : null;
const yesNo = (b: boolean) => (b ? 'Oui' : 'Non');

type Row = { item: SignalementDto; counts: { auteurs: number; sources: number; victimes: number } };

export const COLUMNS: Array<{
  header: string;
  width: number;
  value: (r: Row, calendar: BusinessCalendar) => string | number | Date | null;
  date?: boolean;
}> = [
  { header: 'Code', width: 16, value: (r) => r.item.code },
  { header: 'Date du signalement', width: 14, date: true, value: (r, c) => date(r.item.signalementAt, c) },
  { header: 'Date de création', width: 14, date: true, value: (r, c) => date(r.item.createdAt, c) },
  { header: 'Date de clôture', width: 14, date: true, value: (r, c) => date(r.item.closeAt, c) },
  { header: 'Dernière action', width: 14, date: true, value: (r, c) => date(r.item.lastActionAt, c) },
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

const HIGH_WATER = 1024 * 1024;
type InternalStream = { _writableState?: { length: number }; once(event: string, cb: () => void): unknown };

/**
 * exceljs's streaming writer ignores write()'s return value: left alone, the uncompressed sheet piles
 * up in the zip entry's buffer (about 2.4 KB a row) and the response's. Between batches we wait
 * until both have drained, which keeps the export's memory flat (scripts/bench-reports.ts measures it).
 * The entry stream is internal to exceljs 4 (worksheet.stream.pipes[0]); without it only the response
 * side is bounded.
 */
async function backpressure(sheet: ExcelJS.Worksheet, out: PassThrough) {
  const entry = (sheet as unknown as { stream?: { pipes?: InternalStream[] } }).stream?.pipes?.[0];
  while (entry?._writableState && entry._writableState.length > HIGH_WATER && !out.destroyed) {
    await new Promise<void>((resolve) => entry.once('drain', resolve));
  }
  while (out.readableLength > HIGH_WATER && !out.destroyed) await once(out, 'data');
}

export function exportFileName(calendar: BusinessCalendar, now = new Date()): string {
  return `signalements_${calendar.day(now)}.xlsx`;
}

export async function writeXlsx(
  out: PassThrough,
  batches: AsyncIterable<Row[]>,
  calendar: BusinessCalendar,
): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Signalements';
  const sheet = workbook.addWorksheet('Signalements', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = COLUMNS.map((c) => ({
    header: c.header,
    width: c.width,
    style: c.date ? { numFmt: 'dd/mm/yyyy' } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  let written = 0;
  for await (const rows of batches) {
    for (const r of rows) {
      const row = sheet.addRow(COLUMNS.map(() => null));
      COLUMNS.forEach((column, i) => {
        const { value, text } = safeCell(column.value(r, calendar));
        const cell = row.getCell(i + 1);
        cell.value = value;
        if (text) cell.numFmt = '@';
      });
      row.commit();
      written++;
    }
    await backpressure(sheet, out);
  }
  sheet.commit();
  await workbook.commit();
  return written;
}
