// Who may do what on a report (spec §6), and the code → id lookups that every write needs.
import { and, eq, exists, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Database, Orm, ReadOnlyDatabase } from '#server/db/client';
import { forbidden, invalid, notFound } from '#server/errors';
import { isAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';

export const NOT_FOUND_MESSAGE = 'Signalement non trouvé.';
export const READ_ONLY_MESSAGE = 'Lecture seule - Vous ne pouvez pas modifier ce signalement';

/**
 * What decides the rights on a report: its creator's e-mail and its assignees' ids. Every right below
 * is derived from these in this file only (docs/decisions/0028).
 */
export interface ReportRights {
  createdByEmail: string;
  assigneeIds: readonly number[];
}

const isCreator = (actor: SessionUser, createdByEmail: string) =>
  createdByEmail.toLowerCase() === actor.email.toLowerCase();

/**
 * Edit the report, its place and its people, and write to its partner: its creator (matched by e-mail,
 * case-insensitively), its assignees (docs/decisions/0028) or an administrator.
 */
export function canEditAs(actor: SessionUser) {
  return (report: ReportRights) =>
    isAdmin(actor) || isCreator(actor, report.createdByEmail) || report.assigneeIds.includes(actor.id);
}

/** Assign and unassign: its creator or an administrator, never an assignee (docs/decisions/0028). */
export function canAssignAs(actor: SessionUser) {
  return (report: Pick<ReportRights, 'createdByEmail'>) =>
    isAdmin(actor) || isCreator(actor, report.createdByEmail);
}

/**
 * Need to know (docs/decisions/0015, 0028): the sources of an anonymous report are shown only to those
 * who may edit it: its creator, its assignees and administrators. Everyone else learns how many there
 * are, nothing more.
 */
export function canSeeSources(actor: SessionUser, report: ReportRights & { isAnonyme: boolean }): boolean {
  return !report.isAnonyme || canEditAs(actor)(report);
}

/**
 * The SQL form of canEditAs for the reports of a statement (`s`: the signalements table it reads):
 * undefined for an administrator (every report), otherwise created by the viewer or assigned to them.
 * By id, as the list compares users (the creator's e-mail is unique and lower-cased).
 */
export function editableCondition(db: ReadOnlyDatabase, viewer: SessionUser): SQL | undefined {
  if (isAdmin(viewer)) return undefined;
  const { signalements: s, signalementAssignees: a } = db.t;
  return or(
    eq(s.createdById, viewer.id),
    exists(
      db.read
        .select({ one: sql`1` })
        .from(a)
        .where(and(eq(a.signalementId, s.id), eq(a.userId, viewer.id))),
    ),
  );
}

export interface SignalementRow extends ReportRights {
  id: number;
  code: string;
  partenaireId: number;
  createdById: number;
  isAnonyme: boolean;
}

/** Inside a transaction it reads through it (db.read); `tx`, when given, is that transaction. */
export async function findSignalement(db: ReadOnlyDatabase, code: string, tx?: Orm): Promise<SignalementRow> {
  const { signalements: s, utilisateurs: u, signalementAssignees: a } = db.t;
  const orm = tx ?? db.read;
  // The report and its assignees side by side (one round trip), both found by the code.
  const [[row], assignees] = await Promise.all([
    orm
      .select({
        id: s.id,
        code: s.code,
        partenaireId: s.partenaireId,
        createdById: s.createdById,
        createdByEmail: u.email,
        isAnonyme: s.isAnonyme,
      })
      .from(s)
      .innerJoin(u, eq(u.id, s.createdById))
      .where(eq(s.code, code))
      .limit(1),
    orm.select({ id: a.userId }).from(a).innerJoin(s, eq(s.id, a.signalementId)).where(eq(s.code, code)),
  ]);
  if (!row) throw notFound(NOT_FOUND_MESSAGE);
  return { ...row, assigneeIds: assignees.map((r) => Number(r.id)) };
}

/** Loads the report for a write and checks the actor's right; 404 before 403. */
export async function findEditable(
  db: Database,
  actor: SessionUser,
  code: string,
  tx: Orm,
): Promise<SignalementRow> {
  const row = await findSignalement(db, code, tx);
  if (!canEditAs(actor)(row)) throw forbidden(READ_ONLY_MESSAGE);
  return row;
}

type CodedTable = Database['t'][
  | 'partenaires'
  | 'canals'
  | 'subjects'
  | 'niveaux'
  | 'statuts'
  | 'resultats'
  | 'projects'
  | 'regions'
  | 'districts'
  | 'communes'];

/** The French 400 naming a code that was not found (« Partenaire introuvable : X. »). */
export const unknownCode = (label: string, code: string) => invalid(`${label} introuvable : ${code}.`);

/** Resolves one code to its row id, or fails with a French 400 naming what was not found. */
export async function idOf(tx: Orm, table: CodedTable, code: string, label: string): Promise<number> {
  const [row] = await tx.select({ id: table.id }).from(table).where(eq(table.code, code)).limit(1);
  if (!row) throw unknownCode(label, code);
  return row.id;
}

/** Resolves many codes, failing on the first unknown one. Duplicates are ignored. */
export async function idsOf(tx: Orm, table: CodedTable, codes: string[], label: string): Promise<number[]> {
  const unique = [...new Set(codes)];
  if (unique.length === 0) return [];
  const rows = await tx
    .select({ id: table.id, code: table.code })
    .from(table)
    .where(inArray(table.code, unique));
  const missing = unique.find((c) => !rows.some((r) => r.code === c));
  if (missing) throw unknownCode(label, missing);
  return unique.map((c) => rows.find((r) => r.code === c)!.id);
}
