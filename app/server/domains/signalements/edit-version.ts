// The edit precondition of a report (docs/decisions/0047-edit-conflicts.md): signalements.version moves by
// one at every write of the report's own fields. A caller that says which version it read (tRPC
// `expectedVersion`, REST `If-Match`) has its write refused with a 409 when the report moved since, with
// the server's value and its own for every field it changed; a caller that says nothing writes as before.
import { and, eq, sql } from 'drizzle-orm';
import { EDIT_CONFLICT_MESSAGE, type EditConflictDto } from '#shared/dto/edit-conflict';
import type { Database, Orm } from '#server/db/client';
import { DomainError } from '#server/errors';

/**
 * Moves the report's version by one, from `expected` only when given: the check and the write are one
 * UPDATE (the row stays locked until the transaction ends on PostgreSQL; SQLite's writer is alone).
 * Returns the new version, or null when the report is no longer at `expected`.
 */
export async function bumpVersion(
  db: Database,
  tx: Orm,
  id: number,
  expected?: number,
): Promise<number | null> {
  const s = db.t.signalements;
  const [row] = await tx
    .update(s)
    .set({ version: sql`${s.version} + 1` })
    .where(expected === undefined ? eq(s.id, id) : and(eq(s.id, id), eq(s.version, expected)))
    .returning({ version: s.version });
  return row ? Number(row.version) : null;
}

/** The report's current version (read in the caller's transaction). */
export async function currentVersion(db: Database, tx: Orm, id: number): Promise<number> {
  const s = db.t.signalements;
  const [row] = await tx.select({ version: s.version }).from(s).where(eq(s.id, id));
  return Number(row!.version);
}

/**
 * The 409 of a stale write: for each field the caller sent, the value on the server and the caller's,
 * both in the input's vocabulary (codes for references), so that a client can show them side by side.
 */
export function editConflict(
  version: number,
  sent: Record<string, unknown>,
  current: Record<string, unknown>,
): DomainError {
  const champs: EditConflictDto['champs'] = Object.keys(sent)
    .filter((champ) => sent[champ] !== undefined)
    .map((champ) => ({
      champ,
      valeurActuelle: current[champ] ?? null,
      votreValeur: sent[champ] ?? null,
    }));
  const answer: Pick<EditConflictDto, 'version' | 'champs'> = { version, champs };
  return new DomainError('conflict', EDIT_CONFLICT_MESSAGE, { answer });
}

/** A value compared as the input's vocabulary: a list of codes in any order is the same list. */
const comparable = (value: unknown): string =>
  JSON.stringify(Array.isArray(value) ? [...value].map(String).sort() : (value ?? null));

/**
 * Whether a write refused as stale would change nothing: every field it sent already holds the value it sent.
 * That is the resend of a write whose answer was lost (the offline outbox sends it again when the link
 * returns, with the version it read before its first send), or the same change made by someone else: the
 * caller's intent already holds, so it is answered as done, without a write, a new version or a history line.
 */
export function alreadyApplied(sent: Record<string, unknown>, current: Record<string, unknown>): boolean {
  const fields = Object.keys(sent).filter((field) => sent[field] !== undefined);
  return fields.length > 0 && fields.every((field) => comparable(sent[field]) === comparable(current[field]));
}
