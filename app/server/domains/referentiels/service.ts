import { asc, eq } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { canalDto, niveauDto, placeColumns, placeDto, refDto, statutDto } from './dto';

export async function listSubjects(db: Database) {
  const { subjects } = db.t;
  const rows = await db.read
    .select()
    .from(subjects)
    .orderBy(asc(subjects.position), asc(subjects.designation));
  return rows.map((r) => refDto('subjects', r));
}

export async function listCanals(db: Database) {
  const { canals } = db.t;
  return (await db.read.select().from(canals).orderBy(asc(canals.position), asc(canals.designation))).map(
    canalDto,
  );
}

export async function listNiveaux(db: Database) {
  const { niveaux } = db.t;
  return (await db.read.select().from(niveaux).orderBy(asc(niveaux.rank))).map(niveauDto);
}

export async function listStatuts(db: Database) {
  const { statuts } = db.t;
  return (await db.read.select().from(statuts).orderBy(asc(statuts.position))).map(statutDto);
}

export async function listResultats(db: Database) {
  const { resultats } = db.t;
  const rows = await db.read.select().from(resultats).orderBy(asc(resultats.position));
  return rows.map((r) => refDto('resultats', r));
}

export async function listRegions(db: Database) {
  const { regions } = db.t;
  return (await db.read.select().from(regions).orderBy(asc(regions.designation))).map((r) =>
    placeDto('regions', r),
  );
}

/** Districts of a region (by code), or all districts when no region is given. */
export async function listDistricts(db: Database, regionCode?: string) {
  const { districts, regions } = db.t;
  const rows = await db.read
    .select(placeColumns(districts))
    .from(districts)
    .innerJoin(regions, eq(regions.id, districts.regionId))
    .where(regionCode ? eq(regions.code, regionCode) : undefined)
    .orderBy(asc(districts.designation));
  return rows.map((r) => placeDto('districts', r));
}

/** Communes of a district (by code), or all communes when no district is given. */
export async function listCommunes(db: Database, districtCode?: string) {
  const { communes, districts } = db.t;
  const rows = await db.read
    .select(placeColumns(communes))
    .from(communes)
    .innerJoin(districts, eq(districts.id, communes.districtId))
    .where(districtCode ? eq(districts.code, districtCode) : undefined)
    .orderBy(asc(communes.designation));
  return rows.map((r) => placeDto('communes', r));
}
