// Who may do what on a report (spec §6), and the code → id lookups that every write needs.
import { eq, inArray } from 'drizzle-orm';
import type { Database, Orm, ReadOnlyDatabase } from '#server/db/client';
import { forbidden, invalid, notFound } from '#server/errors';
import { isAdmin } from '../auth/guards';
import type { SessionUser } from '../auth/session';

export const NOT_FOUND_MESSAGE = 'Signalement non trouvé.';
export const READ_ONLY_MESSAGE = 'Lecture seule - Vous ne pouvez pas modifier ce signalement';

/** Its creator (matched by e-mail, case-insensitively) or an administrator. */
export function canEditAs(actor: SessionUser) {
  return (createdByEmail: string) =>
    isAdmin(actor) || createdByEmail.toLowerCase() === actor.email.toLowerCase();
}

/**
 * Need to know (docs/decisions/0015): the sources of an anonymous report are shown only to those who
 * may edit it, its creator and administrators. Everyone else learns how many there are, nothing more.
 */
export function canSeeSources(
  actor: SessionUser,
  report: { createdByEmail: string; isAnonyme: boolean },
): boolean {
  return !report.isAnonyme || canEditAs(actor)(report.createdByEmail);
}

export interface SignalementRow {
  id: number;
  code: string;
  partenaireId: number;
  createdByEmail: string;
  isAnonyme: boolean;
}

/** Inside a transaction it reads through it (db.read); `tx`, when given, is that transaction. */
export async function findSignalement(db: ReadOnlyDatabase, code: string, tx?: Orm): Promise<SignalementRow> {
  const { signalements: s, utilisateurs: u } = db.t;
  const [row] = await (tx ?? db.read)
    .select({
      id: s.id,
      code: s.code,
      partenaireId: s.partenaireId,
      createdByEmail: u.email,
      isAnonyme: s.isAnonyme,
    })
    .from(s)
    .innerJoin(u, eq(u.id, s.createdById))
    .where(eq(s.code, code))
    .limit(1);
  if (!row) throw notFound(NOT_FOUND_MESSAGE);
  return row;
}

/** Loads the report for a write and checks the actor's right; 404 before 403. */
export async function findEditable(
  db: Database,
  actor: SessionUser,
  code: string,
  tx: Orm,
): Promise<SignalementRow> {
  const row = await findSignalement(db, code, tx);
  if (!canEditAs(actor)(row.createdByEmail)) throw forbidden(READ_ONLY_MESSAGE);
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

/** Resolves one code to its row id, or fails with a French 400 naming what was not found. */
export async function idOf(tx: Orm, table: CodedTable, code: string, label: string): Promise<number> {
  const [row] = await tx.select({ id: table.id }).from(table).where(eq(table.code, code)).limit(1);
  if (!row) throw invalid(`${label} introuvable : ${code}.`);
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
  if (missing) throw invalid(`${label} introuvable : ${missing}.`);
  return unique.map((c) => rows.find((r) => r.code === c)!.id);
}
