import { eq } from 'drizzle-orm';
import type { Database, Orm } from '../../db/client';
import { recordSearchTerms } from '../../db/search';
import { buildSearchText } from './search-text';

/**
 * Recomputes a report's searchText from everything the list search covers: code, description,
 * partner, subjects, place names, fokontany and the names of authors and victims. Sources' names are
 * encrypted and never land in the search text or its indexes: exact search on them goes through their
 * blind index (queries.ts, docs/decisions/0017). Called in the transaction of every
 * write that changes one of them, so the search never lags behind the data.
 */
export async function refreshSearchText(db: Database, tx: Orm, signalementId: number): Promise<void> {
  const t = db.t;
  const s = t.signalements;
  const [row] = await tx
    .select({
      code: s.code,
      description: s.description,
      fokontany: s.fokontany,
      autreObject: s.autreObject,
      partenaire: t.partenaires.designation,
      partenaireCode: t.partenaires.code,
      region: t.regions.designation,
      district: t.districts.designation,
      commune: t.communes.designation,
    })
    .from(s)
    .innerJoin(t.partenaires, eq(t.partenaires.id, s.partenaireId))
    .leftJoin(t.regions, eq(t.regions.id, s.regionId))
    .leftJoin(t.districts, eq(t.districts.id, s.districtId))
    .leftJoin(t.communes, eq(t.communes.id, s.communeId))
    .where(eq(s.id, signalementId));
  if (!row) return;
  const subjects = await tx
    .select({ d: t.subjects.designation })
    .from(t.signalementSubjects)
    .innerJoin(t.subjects, eq(t.subjects.id, t.signalementSubjects.subjectId))
    .where(eq(t.signalementSubjects.signalementId, signalementId));
  const names = async (table: typeof t.presumeAuteurs | typeof t.victimes) =>
    (await tx.select({ n: table.nomPrenom }).from(table).where(eq(table.signalementId, signalementId))).map(
      (r) => r.n,
    );
  const searchText = buildSearchText([
    row.code,
    row.description,
    row.partenaire,
    row.partenaireCode,
    ...subjects.map((r) => r.d),
    row.autreObject,
    row.region,
    row.district,
    row.commune,
    row.fokontany,
    ...(await names(t.presumeAuteurs)),
    ...(await names(t.victimes)),
  ]);
  await tx.update(s).set({ searchText }).where(eq(s.id, signalementId));
  await recordSearchTerms(db, tx, [searchText]);
}
