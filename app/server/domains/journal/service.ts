// The access log (docs/decisions/0015-security-model.md, "Access log and alerts"): an append-only trace of
// who read a report's people, who exported what, who changed rights, who logged in or failed to; and the
// alerts raised on unusual reading. This file is the administrators' side (list, alerts, export); record.ts
// is the write path.
import { PassThrough } from 'node:stream';
import { and, count, desc, eq, gte, inArray, isNull, lt, lte, max, type SQL } from 'drizzle-orm';
import type ExcelJS from 'exceljs';
import { addDays, type BusinessCalendar } from '#shared/calendar';
import type { AccessLogKind } from '#shared/constants';
import {
  ACCESS_LOG_KIND_LABELS,
  type AccessAlertDto,
  type AccessLogEntryDto,
  type AccessLogPageDto,
  type JournalUserDto,
} from '#shared/dto/journal';
import { JOURNAL_PAGE_SIZE, type JournalFilters, type JournalListInput } from '#shared/schemas/journal';
import { formatNumber } from '#shared/number';
import type { AppContext, Services, Stamping } from '#server/context';
import type { Database } from '#server/db/client';
import { forbidden, notFound } from '#server/errors';
import { requireAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';
import { safeCell } from '../signalements/export';
import { describeAlert, describeEntry } from './describe';
import { loggedCode } from './logged-text';
import { byActor, recordAccess } from './record';

const USER_CODE = /^USR-[0-9A-F]{10}$/;
const SIGNALEMENT_CODE = /^SIG-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

export const JOURNAL_TEXT = {
  alertNotFound: 'Alerte introuvable.',
  ownAlert: 'Une alerte qui vous concerne doit être marquée vue par un autre administrateur.',
  capped: (max: number, total: number) =>
    `Export limité aux ${formatNumber(max)} entrées les plus récentes sur ${formatNumber(total)} : précisez les filtres pour obtenir le reste.`,
} as const;

/** Rows of one xlsx export of the log; beyond, the file keeps the newest and says so. */
export const JOURNAL_EXPORT_MAX_ROWS = 100_000;
const EXPORT_BATCH = 2_000;

/** 'dd/MM/yyyy HH:mm:ss' in the business time zone (Madagascar by default). */
export function businessDateTime(at: Date, calendar: BusinessCalendar): string {
  const [day, time] = calendar.wallClock(at).toISOString().slice(0, 19).split('T');
  return `${day!.split('-').reverse().join('/')} ${time}`;
}

function conditions(db: Database, calendar: BusinessCalendar, f: JournalFilters): SQL | undefined {
  const { accessLog: l, utilisateurs: u } = db.t;
  const c: SQL[] = [];
  if (f.utilisateur)
    c.push(inArray(l.userId, db.read.select({ id: u.id }).from(u).where(eq(u.code, f.utilisateur))));
  if (f.signalement) c.push(eq(l.signalementCode, f.signalement));
  if (f.kind) c.push(eq(l.kind, f.kind));
  if (f.du) c.push(gte(l.at, calendar.dayStart(f.du)));
  if (f.au) c.push(lt(l.at, calendar.dayStart(addDays(f.au, 1))));
  return c.length > 0 ? and(...c) : undefined;
}

function entriesQuery(db: Database, where: SQL | undefined) {
  const { accessLog: l, utilisateurs: u } = db.t;
  return db.read
    .select({
      id: l.id,
      at: l.at,
      kind: l.kind,
      email: l.userEmail,
      address: l.address,
      signalement: l.signalementCode,
      details: l.details,
      user: { code: u.code, nomPrenom: u.nomPrenom, email: u.email },
    })
    .from(l)
    .leftJoin(u, eq(u.id, l.userId))
    .where(where)
    .orderBy(desc(l.at), desc(l.id));
}

type EntryRow = Awaited<ReturnType<typeof entriesQuery>>[number];

const userDto = (
  user: { code: string | null; nomPrenom: string | null; email: string | null } | null,
): JournalUserDto | null =>
  user && user.code !== null
    ? { code: user.code, nomPrenom: user.nomPrenom ?? '', email: user.email ?? '' }
    : null;

function entryDto(r: EntryRow): AccessLogEntryDto {
  const details = r.details ?? {};
  return {
    id: r.id,
    at: r.at.toISOString(),
    kind: r.kind,
    utilisateur: userDto(r.user),
    email: r.email,
    address: r.address,
    signalement: r.signalement,
    description: describeEntry(r.kind, details),
    details,
  };
}

async function countEntries(db: Database, where: SQL | undefined): Promise<number> {
  const [row] = await db.read.select({ n: count() }).from(db.t.accessLog).where(where);
  return Number(row?.n ?? 0);
}

/** One page of the log, newest first, with the exact number of matching entries. */
export async function listJournal(
  ctx: Pick<AppContext, 'db' | 'calendar'>,
  actor: SessionUser,
  input: JournalListInput,
): Promise<AccessLogPageDto> {
  const { db } = ctx;
  requireAdmin(actor);
  const where = conditions(db, ctx.calendar, input.filters);
  const [total, rows] = await Promise.all([
    countEntries(db, where),
    entriesQuery(db, where)
      .limit(JOURNAL_PAGE_SIZE)
      .offset((input.page - 1) * JOURNAL_PAGE_SIZE),
  ]);
  return { items: rows.map(entryDto), total, page: input.page, pageSize: JOURNAL_PAGE_SIZE };
}

/** The alerts no administrator has marked seen yet, newest first. */
export async function listAlerts(db: Database, actor: SessionUser): Promise<AccessAlertDto[]> {
  requireAdmin(actor);
  const { accessAlerts: a, utilisateurs: u } = db.t;
  const rows = await db.read
    .select({
      id: a.id,
      kind: a.kind,
      createdAt: a.createdAt,
      details: a.details,
      user: { code: u.code, nomPrenom: u.nomPrenom, email: u.email },
    })
    .from(a)
    .innerJoin(u, eq(u.id, a.userId))
    .where(isNull(a.seenAt))
    .orderBy(desc(a.createdAt), desc(a.id));
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    createdAt: r.createdAt.toISOString(),
    utilisateur: r.user,
    message: describeAlert(r.kind, r.details ?? {}),
    details: r.details ?? {},
  }));
}

/**
 * Marks an alert seen by this administrator (the only change the application makes to alerts); never
 * one about the administrator themselves (403).
 */
export async function markAlertSeen(ctx: Stamping, actor: SessionUser, id: number): Promise<void> {
  requireAdmin(actor);
  const { db } = ctx;
  const a = db.t.accessAlerts;
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: a.id, seenAt: a.seenAt, userId: a.userId })
      .from(a)
      .where(eq(a.id, id))
      .limit(1);
    if (!row) throw notFound(JOURNAL_TEXT.alertNotFound);
    // An administrator does not close the alert raised on their own reading (decision 0015, "Alerts").
    if (row.userId === actor.id) throw forbidden(JOURNAL_TEXT.ownAlert);
    // Seen twice (two administrators at once): the first one's name and time are kept.
    if (row.seenAt === null)
      await tx.update(a).set({ seenAt: ctx.clock.now(), seenBy: actor.id }).where(eq(a.id, id));
  });
}

// ---------------------------------------------------------------- xlsx
const COLUMNS: Array<{
  header: string;
  width: number;
  value: (r: AccessLogEntryDto, calendar: BusinessCalendar) => string | Date | null;
  date?: boolean;
}> = [
  // A date cell has no time zone: it holds the business calendar's wall-clock time.
  { header: 'Date', width: 20, date: true, value: (r, calendar) => calendar.wallClock(new Date(r.at)) },
  {
    header: 'Utilisateur',
    width: 28,
    value: (r) => (r.utilisateur ? `${r.utilisateur.nomPrenom} (${r.utilisateur.code})` : null),
  },
  { header: 'Email', width: 30, value: (r) => r.email },
  { header: 'Adresse', width: 18, value: (r) => r.address },
  { header: 'Type', width: 24, value: (r) => ACCESS_LOG_KIND_LABELS[r.kind as AccessLogKind] ?? r.kind },
  { header: 'Signalement', width: 18, value: (r) => r.signalement },
  { header: 'Détail', width: 60, value: (r) => r.description },
];

function filtersLines(f: JournalFilters): string[] {
  const lines = [
    f.utilisateur ? `Utilisateur : ${f.utilisateur}` : null,
    f.signalement ? `Signalement : ${f.signalement}` : null,
    f.kind ? `Type : ${ACCESS_LOG_KIND_LABELS[f.kind]}` : null,
    f.du ? `Du : ${f.du.split('-').reverse().join('/')}` : null,
    f.au ? `Au : ${f.au.split('-').reverse().join('/')}` : null,
  ];
  const set = lines.filter((l): l is string => l !== null);
  return set.length > 0 ? set : ['Aucun filtre'];
}

/**
 * One style object per kind of cell (decision 0031): exceljs indexes a style once per object, and a style
 * made per cell (`cell.numFmt = …`) is one more object for each cell of the file.
 */
const PLAIN_STYLE: Partial<ExcelJS.Style> = {};
const DATE_STYLE: Partial<ExcelJS.Style> = { numFmt: 'dd/mm/yyyy hh:mm:ss' };
/** Text a spreadsheet could read as a formula stays text when edited (signalements/export.ts safeCell). */
const TEXT_STYLE: Partial<ExcelJS.Style> = { numFmt: '@' };

/**
 * The filtered log as an xlsx file (newest first, at most `maxRows` rows, JOURNAL_EXPORT_MAX_ROWS by
 * default, which the file says when it is capped). The export is itself logged, before the file is returned.
 */
export async function exportJournalXlsx(
  ctx: Services,
  actor: SessionUser,
  filters: JournalFilters,
  maxRows = JOURNAL_EXPORT_MAX_ROWS,
): Promise<{ buffer: Buffer; rows: number }> {
  const { db } = ctx;
  requireAdmin(actor);
  const now = ctx.clock.now();
  // Entries written while the file is built (this export's own, others') would shift the pages.
  const l = db.t.accessLog;
  const [last] = await db.read.select({ id: max(l.id) }).from(l);
  const where = and(conditions(db, ctx.calendar, filters), lte(l.id, last?.id ?? 0));
  const total = await countEntries(db, where);
  const rows = Math.min(total, maxRows);
  const capped = total > rows;

  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  // Loaded when a journal is exported: the serving thread does not carry exceljs otherwise (about 34 MB).
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Signalements';
  const sheet = workbook.addWorksheet('Journal des accès', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = COLUMNS.map((c) => ({
    header: c.header,
    width: c.width,
    style: c.date ? DATE_STYLE : PLAIN_STYLE,
  }));
  const styles = COLUMNS.map((c) => (c.date ? DATE_STYLE : PLAIN_STYLE));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for (let offset = 0; offset < rows; offset += EXPORT_BATCH) {
    const batch = await entriesQuery(db, where)
      .limit(Math.min(EXPORT_BATCH, rows - offset))
      .offset(offset);
    for (const entry of batch.map(entryDto)) {
      const cells = COLUMNS.map((column) => safeCell(column.value(entry, ctx.calendar)));
      const row = sheet.addRow(cells.map((c) => c.value));
      cells.forEach((c, i) => {
        row.getCell(i + 1).style = c.text ? TEXT_STYLE : styles[i]!;
      });
      row.commit();
    }
  }
  if (capped) {
    const note = sheet.addRow([JOURNAL_TEXT.capped(maxRows, total)]);
    note.font = { italic: true };
    note.commit();
  }
  sheet.commit();
  const info = workbook.addWorksheet('Informations');
  info.columns = [{ width: 100 }];
  for (const line of [
    'Journal des accès',
    `Exporté le ${businessDateTime(now, ctx.calendar)} (${ctx.calendar.label}) par ${actor.nomPrenom} (${actor.code})`,
    ...filtersLines(filters),
    `${formatNumber(rows)} entrée(s) exportée(s) sur ${formatNumber(total)}`,
    ...(capped ? [JOURNAL_TEXT.capped(maxRows, total)] : []),
  ]) {
    info.addRow([safeCell(line).value]).commit();
  }
  info.commit();
  await workbook.commit();
  await ended;

  const filtres: Record<string, unknown> = Object.fromEntries(
    Object.entries(filters).filter(([, v]) => v !== undefined && v !== ''),
  );
  // The two text fields of the screen are meant for codes; anything else typed there is not logged as text.
  if (typeof filtres.utilisateur === 'string')
    filtres.utilisateur = loggedCode(ctx.cipher, filtres.utilisateur, USER_CODE);
  if (typeof filtres.signalement === 'string')
    filtres.signalement = loggedCode(ctx.cipher, filtres.signalement.toUpperCase(), SIGNALEMENT_CODE);
  await recordAccess(
    db,
    {
      kind: 'export',
      ...byActor(actor),
      details: {
        objet: 'journal',
        format: 'xlsx',
        filtres,
        lignes: rows,
        ...(capped ? { tronque: true, total } : {}),
      },
    },
    undefined,
    now,
  );
  return { buffer: Buffer.concat(chunks), rows };
}

export const journalExportFileName = (calendar: BusinessCalendar, now: Date) =>
  `journal-des-acces-${calendar.day(now)}.xlsx`;
