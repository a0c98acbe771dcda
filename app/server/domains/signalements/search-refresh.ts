import { eq } from 'drizzle-orm';
import type { Database, Orm } from '#server/db/client';
import { recordSearchTerms } from '#server/db/search';
import { readReportParts, type ReportParts } from './snapshot';
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
  const parts = await readReportParts(db, tx, signalementId, { projects: false });
  if (!parts) return;
  await writeSearchText(db, tx, parts, options.created ? [] : await peopleNames(db, tx, signalementId));
}

/** The names of a report's authors and victims, as its search text holds them. */
async function peopleNames(db: Database, tx: Orm, signalementId: number): Promise<string[]> {
  const t = db.t;
  const names = async (table: typeof t.presumeAuteurs | typeof t.victimes) =>
    (await tx.select({ n: table.nomPrenom }).from(table).where(eq(table.signalementId, signalementId))).map(
      (r) => r.n,
    );
  return [...(await names(t.presumeAuteurs)), ...(await names(t.victimes))];
}

/**
 * Writes the search text of a report whose parts are read (a create reads them once for this and for its
 * history: decision 0057), with the names of its authors and victims.
 */
export async function writeSearchText(db: Database, tx: Orm, parts: ReportParts, names: string[]) {
  const { row, subjects } = parts;
  const s = db.t.signalements;
  const searchText = buildSearchText([
    row.s.code,
    row.s.description,
    row.partenaire.designation,
    row.partenaire.code,
    ...subjects.map((r) => r.designation),
    row.s.autreObject,
    row.region?.designation ?? null,
    row.district?.designation ?? null,
    row.commune?.designation ?? null,
    row.s.fokontany,
    ...names,
  ]);
  await tx.update(s).set({ searchText }).where(eq(s.id, row.s.id));
  await recordSearchTerms(db, tx, [searchText]);
}
