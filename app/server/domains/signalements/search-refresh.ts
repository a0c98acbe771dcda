import { eq } from 'drizzle-orm';
import type { Database, Orm } from '#server/db/client';
import { recordSearchTerms } from '#server/db/search';
import { readReportParts, type ReportParts } from './snapshot';
import { reportSearchText, type SearchFacts } from './search-text';

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

/**
 * After a write to a report's own row, subjects or projects (a patch, a move): reads its parts once, for
 * its snapshot after the write and for its search text, which is written again only when what it is made
 * of changed since `before` (such a write never changes its people's names). Returns the parts read.
 */
export async function refreshAfterWrite(db: Database, tx: Orm, before: ReportParts): Promise<ReportParts> {
  const after = (await readReportParts(db, tx, before.row.s.id))!;
  if (reportSearchText(searchFactsOf(after), []) !== reportSearchText(searchFactsOf(before), [])) {
    await writeSearchText(db, tx, after, await peopleNames(db, tx, after.row.s.id));
  }
  return after;
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

/** Writes the search text of a report whose parts are read, with the names of its authors and victims. */
export async function writeSearchText(db: Database, tx: Orm, parts: ReportParts, names: string[]) {
  const s = db.t.signalements;
  const searchText = reportSearchText(searchFactsOf(parts), names);
  await tx.update(s).set({ searchText }).where(eq(s.id, parts.row.s.id));
  await recordSearchTerms(db, tx, [searchText]);
}

/** What the search text of a report whose parts are read is made of. */
export const searchFactsOf = ({ row, subjects }: ReportParts): SearchFacts => ({
  code: row.s.code,
  description: row.s.description,
  partenaire: row.partenaire,
  subjects,
  autreObject: row.s.autreObject,
  places: [row.region, row.district, row.commune],
  fokontany: row.s.fokontany,
});
