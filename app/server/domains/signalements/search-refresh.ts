import { eq } from 'drizzle-orm';
import type { Database, Orm } from '#server/db/client';
import { recordSearchTerms } from '#server/db/search';
import { selectReportRows } from './report-row';
import { buildSearchText } from './search-text';

/**
 * Recomputes a report's searchText from everything the list search covers: code, description,
 * partner, subjects, place names, fokontany and the names of authors and victims. Sources' names are
 * encrypted and never land in the search text or its indexes: exact search on them goes through their
 * blind index (queries.ts, docs/decisions/0017). Called in the transaction of every
 * write that changes one of them, so the search never lags behind the data.
 */
export async function refreshSearchText(
  db: Database,
  tx: Orm,
  signalementId: number,
  /** A report inserted by this very transaction: it has no authors or victims yet, so none are read. */
  options: { created?: boolean } = {},
): Promise<void> {
  const t = db.t;
  const s = t.signalements;
  const [row] = await selectReportRows(db, tx).where(eq(s.id, signalementId));
  if (!row) return;
  const subjects = await tx
    .select({ d: t.subjects.designation })
    .from(t.signalementSubjects)
    .innerJoin(t.subjects, eq(t.subjects.id, t.signalementSubjects.subjectId))
    .where(eq(t.signalementSubjects.signalementId, signalementId));
  const names = async (table: typeof t.presumeAuteurs | typeof t.victimes) =>
    options.created
      ? []
      : (
          await tx.select({ n: table.nomPrenom }).from(table).where(eq(table.signalementId, signalementId))
        ).map((r) => r.n);
  const searchText = buildSearchText([
    row.s.code,
    row.s.description,
    row.partenaire.designation,
    row.partenaire.code,
    ...subjects.map((r) => r.d),
    row.s.autreObject,
    row.region?.designation ?? null,
    row.district?.designation ?? null,
    row.commune?.designation ?? null,
    row.s.fokontany,
    ...(await names(t.presumeAuteurs)),
    ...(await names(t.victimes)),
  ]);
  await tx.update(s).set({ searchText }).where(eq(s.id, signalementId));
  await recordSearchTerms(db, tx, [searchText]);
}
