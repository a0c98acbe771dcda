// What the three kinds of person share: their table, the row and report an edit or a read starts from,
// the insert with a fresh code, the deletion, and what every change does to its report (history, search).
import { eq } from 'drizzle-orm';
import { cipherOf, type Services } from '#server/context';
import { SOURCE_FIELDS } from '#server/crypto/sources';
import type { Database, Orm } from '#server/db/client';
import { insertWithFreshCode } from '#server/db/fresh-code';
import { notFound } from '#server/errors';
import type { SessionUser } from '../auth/session';
import { findEditable, findSignalement } from '../signalements/access';
import { generateCode } from '../signalements/code';
import { recordChange } from '../signalements/history';
import { refreshSearchText } from '../signalements/search-refresh';

export type Kind = 'auteur' | 'source' | 'victime';
export const PREFIX: Record<Kind, string> = { auteur: 'AUT', source: 'SRC', victime: 'VIC' };
export const NOT_FOUND: Record<Kind, string> = {
  auteur: 'Auteur introuvable.',
  source: 'Source introuvable.',
  victime: 'Victime introuvable.',
};

export function tableOf(db: Database, kind: Kind) {
  return kind === 'auteur' ? db.t.presumeAuteurs : kind === 'source' ? db.t.sources : db.t.victimes;
}

/** The person row and its report, checking the actor may edit that report. */
export async function findPerson(db: Database, tx: Orm, actor: SessionUser, kind: Kind, code: string) {
  const table = tableOf(db, kind);
  const s = db.t.signalements;
  const [row] = await tx
    .select({ id: table.id, reportCode: s.code })
    .from(table)
    .innerJoin(s, eq(s.id, table.signalementId))
    .where(eq(table.code, code))
    .limit(1);
  if (!row) throw notFound(NOT_FOUND[kind]);
  const report = await findEditable(db, actor, row.reportCode, tx);
  return { id: row.id, report };
}

/** Inserts with a fresh `PREFIX-XXXX-XXXX` code (server/db/fresh-code.ts). */
export const insertWithCode = <T>(insert: (code: string) => Promise<T | undefined>, prefix: string) =>
  insertWithFreshCode(prefix, () => generateCode(prefix), insert);

/** The person's current row and report, for a read (404 when it was deleted since). */
export async function personForRead(db: Database, kind: Kind, code: string) {
  const table = tableOf(db, kind);
  const [found] = await db.read
    .select({ person: table, reportCode: db.t.signalements.code })
    .from(table)
    .innerJoin(db.t.signalements, eq(db.t.signalements.id, table.signalementId))
    .where(eq(table.code, code))
    .limit(1);
  if (!found) throw notFound(NOT_FOUND[kind]);
  return { person: found.person, report: await findSignalement(db, found.reportCode) };
}

export async function deletePerson(
  ctx: Services,
  actor: SessionUser,
  kind: Kind,
  code: string,
): Promise<void> {
  const { db } = ctx;
  const table = tableOf(db, kind);
  await db.transaction(async (tx) => {
    const { id, report } = await findPerson(db, tx, actor, kind, code);
    const [before] = await tx.select({ nomPrenom: table.nomPrenom }).from(table).where(eq(table.id, id));
    // A source's name is stored encrypted; the history entry re-encrypts it (history.ts).
    const nomPrenom =
      kind === 'source'
        ? cipherOf(ctx).decryptNullable(before!.nomPrenom, SOURCE_FIELDS.nomPrenom)
        : before!.nomPrenom;
    await tx.delete(table).where(eq(table.id, id));
    await afterChange(ctx, tx, report.id, actor, `${kind}.suppression`, {
      code: { from: code, to: null },
      nomPrenom: { from: nomPrenom, to: null },
    });
  });
}

export async function afterChange(
  ctx: Services,
  tx: Orm,
  reportId: number,
  actor: SessionUser,
  action: string,
  changes: Record<string, { from: unknown; to: unknown }>,
) {
  await refreshSearchText(ctx.db, tx, reportId);
  await recordChange(ctx, tx, reportId, actor, action, changes, { cipher: ctx.cipher });
}

export function pick<T extends Record<string, unknown>>(
  row: Record<string, unknown>,
  like: T,
): Record<string, unknown> {
  return Object.fromEntries(Object.keys(like).map((k) => [k, row[k] ?? null]));
}
