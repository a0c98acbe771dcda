import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { count, sql, type AnyColumn } from 'drizzle-orm';
import { type Database } from '../client';
import { PATHS } from '#server/paths';

/**
 * Madagascar's regions, districts and communes from the OCHA COD-AB attribute tables (2018-10-31,
 * CC BY 3.0 IGO, see geo-data/ATTRIBUTION.md), brought up to today's 24 regions by the changes below.
 * Every link is made by P-code: commune names repeat (Morafeno seven times).
 */

export interface GeoUnit {
  code: string;
  designation: string;
  /** P-code of the parent (region of a district, district of a commune); null for a region. */
  parentCode: string | null;
  latitude: number;
  longitude: number;
}

export interface Geography {
  regions: GeoUnit[];
  districts: GeoUnit[];
  communes: GeoUnit[];
}

/**
 * Regional changes after 2018, as recorded in docs/decisions/0002-regions-madagascar.md. District and
 * commune P-codes are kept as they are so that data keyed on them stays valid; only regions move.
 */
export const REGION_CHANGES = [
  // LOI 2021-012: Vatovavy Fitovinany splits in two. Vatovavy keeps MG23, as in the newer HDX edition.
  { code: 'MG23', designation: 'Vatovavy', districts: ['MG23206', 'MG23207', 'MG23209'] },
  { code: 'MG35', designation: 'Fitovinany', districts: ['MG23210', 'MG23211', 'MG23212'] },
  // 2023: Ambatosoa is carved out of Analanjirofo (MG32), which keeps its code and other districts.
  { code: 'MG34', designation: 'Ambatosoa', districts: ['MG32303', 'MG32304'] },
] as const;

export const EXPECTED_COUNTS = { regions: 24, districts: 119, communes: 1579 } as const;

const DATA_DIR = PATHS.geoData;
const BATCH_SIZE = 500;

/** RFC 4180: quoted fields may hold commas, line breaks and doubled quotes; CRLF or LF rows. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
        }
      } else {
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += c;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function readTable(file: string): Array<Record<string, string>> {
  const [header, ...rows] = parseCsv(readFileSync(resolve(DATA_DIR, file), 'utf8'));
  if (!header) throw new Error(`${file} : fichier vide`);
  return rows
    .filter((r) => r.some((v) => v !== ''))
    .map((r) => {
      if (r.length !== header.length) {
        throw new Error(`${file} : ${r.length} colonnes au lieu de ${header.length} (${r[0]})`);
      }
      return Object.fromEntries(header.map((name, i) => [name, r[i]!]));
    });
}

function num(row: Record<string, string>, column: string): number {
  const value = Number(row[column]);
  if (row[column] === '' || !Number.isFinite(value)) {
    throw new Error(`Valeur numérique invalide pour ${column} : '${row[column]}'`);
  }
  return value;
}

interface DistrictRow extends GeoUnit {
  parentCode: string;
  centroidLat: number;
  centroidLon: number;
  area: number;
}

const round5 = (value: number) => Math.round(value * 1e5) / 1e5;

/**
 * A region rebuilt from districts gets the area-weighted mean of their centroids, which is the
 * centroid of their union; for these four regions that point lies inside a district of the region
 * (checked against the polygons when the decision was written).
 */
function unionCentroid(districts: DistrictRow[]): { latitude: number; longitude: number } {
  const area = districts.reduce((sum, d) => sum + d.area, 0);
  const lat = districts.reduce((sum, d) => sum + d.centroidLat * d.area, 0) / area;
  const lon = districts.reduce((sum, d) => sum + d.centroidLon * d.area, 0) / area;
  return { latitude: round5(lat), longitude: round5(lon) };
}

function buildGeography(): Geography {
  const regions = new Map<string, GeoUnit>(
    readTable('mdg_regions.csv').map((r) => [
      r.region_pcode!,
      {
        code: r.region_pcode!,
        designation: r.region_name!,
        parentCode: null,
        latitude: num(r, 'label_lat'),
        longitude: num(r, 'label_lon'),
      },
    ]),
  );
  const districts: DistrictRow[] = readTable('mdg_districts.csv').map((r) => ({
    code: r.district_pcode!,
    designation: r.district_name!,
    parentCode: r.region_pcode!,
    latitude: num(r, 'label_lat'),
    longitude: num(r, 'label_lon'),
    centroidLat: num(r, 'centroid_lat'),
    centroidLon: num(r, 'centroid_lon'),
    area: num(r, 'area_km2_approx'),
  }));
  const communes: GeoUnit[] = readTable('mdg_communes.csv').map((r) => ({
    code: r.commune_pcode!,
    designation: r.commune_name!,
    parentCode: r.district_pcode!,
    latitude: num(r, 'label_lat'),
    longitude: num(r, 'label_lon'),
  }));

  const reshaped = new Set<string>();
  for (const change of REGION_CHANGES) {
    for (const code of change.districts) {
      const district = districts.find((d) => d.code === code);
      if (!district) throw new Error(`District ${code} absent des données géographiques`);
      reshaped.add(district.parentCode);
      district.parentCode = change.code;
    }
    reshaped.add(change.code);
    regions.set(change.code, {
      code: change.code,
      designation: change.designation,
      parentCode: null,
      latitude: 0,
      longitude: 0,
    });
  }
  for (const code of reshaped) {
    Object.assign(regions.get(code)!, unionCentroid(districts.filter((d) => d.parentCode === code)));
  }

  const districtCodes = new Set(districts.map((d) => d.code));
  for (const d of districts) {
    if (!regions.has(d.parentCode)) throw new Error(`District ${d.code} : région ${d.parentCode} inconnue`);
  }
  for (const c of communes) {
    if (!districtCodes.has(c.parentCode!)) {
      throw new Error(`Commune ${c.code} : district ${c.parentCode} inconnu`);
    }
  }
  const sorted = [...regions.values()].sort((a, b) => a.code.localeCompare(b.code));
  return {
    regions: sorted,
    districts: districts.map(({ code, designation, parentCode, latitude, longitude }) => ({
      code,
      designation,
      parentCode,
      latitude,
      longitude,
    })),
    communes,
  };
}

let cached: Geography | undefined;

/** Today's geography, read once per process from the CSV files shipped with the code. */
export function loadGeography(): Geography {
  cached ??= buildGeography();
  return cached;
}

/**
 * District P-code → region P-code after the regional changes, for whoever groups district data
 * (or dissolves the 2018 district polygons) into today's regions, such as an offline map layer.
 */
export function regionOfDistrict(): ReadonlyMap<string, string> {
  return new Map(loadGeography().districts.map((d) => [d.code, d.parentCode!]));
}

function excluded(column: AnyColumn) {
  return sql`excluded.${sql.identifier(column.name)}`;
}

async function isSeeded(db: Database): Promise<boolean> {
  const { t } = db;
  const [[r], [d], [c]] = await Promise.all([
    db.read.select({ n: count() }).from(t.regions),
    db.read.select({ n: count() }).from(t.districts),
    db.read.select({ n: count() }).from(t.communes),
  ]);
  return (
    r?.n === EXPECTED_COUNTS.regions &&
    d?.n === EXPECTED_COUNTS.districts &&
    c?.n === EXPECTED_COUNTS.communes
  );
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Brings the geography tables to today's list. Upserts on the P-code, so a database seeded with an
 * older region layout is moved onto the new one; a database that already has every row is left
 * untouched without opening a write transaction, which keeps server start-up fast.
 */
export async function seedGeography(db: Database): Promise<void> {
  if (await isSeeded(db)) return;
  const { t } = db;
  const geo = loadGeography();
  await db.transaction(async (tx) => {
    await tx
      .insert(t.regions)
      .values(
        geo.regions.map(({ code, designation, latitude, longitude }) => ({
          code,
          designation,
          latitude,
          longitude,
        })),
      )
      .onConflictDoUpdate({
        target: t.regions.code,
        set: {
          designation: excluded(t.regions.designation),
          latitude: excluded(t.regions.latitude),
          longitude: excluded(t.regions.longitude),
        },
      });
    const regionIds = new Map(
      (await tx.select({ id: t.regions.id, code: t.regions.code }).from(t.regions)).map((r) => [
        r.code,
        r.id,
      ]),
    );
    for (const batch of chunks(geo.districts, BATCH_SIZE)) {
      await tx
        .insert(t.districts)
        .values(
          batch.map((d) => ({
            code: d.code,
            designation: d.designation,
            regionId: regionIds.get(d.parentCode!)!,
            latitude: d.latitude,
            longitude: d.longitude,
          })),
        )
        .onConflictDoUpdate({
          target: t.districts.code,
          set: {
            designation: excluded(t.districts.designation),
            regionId: excluded(t.districts.regionId),
            latitude: excluded(t.districts.latitude),
            longitude: excluded(t.districts.longitude),
          },
        });
    }
    const districtIds = new Map(
      (await tx.select({ id: t.districts.id, code: t.districts.code }).from(t.districts)).map((d) => [
        d.code,
        d.id,
      ]),
    );
    for (const batch of chunks(geo.communes, BATCH_SIZE)) {
      await tx
        .insert(t.communes)
        .values(
          batch.map((c) => ({
            code: c.code,
            designation: c.designation,
            districtId: districtIds.get(c.parentCode!)!,
            latitude: c.latitude,
            longitude: c.longitude,
          })),
        )
        .onConflictDoUpdate({
          target: t.communes.code,
          set: {
            designation: excluded(t.communes.designation),
            districtId: excluded(t.communes.districtId),
            latitude: excluded(t.communes.latitude),
            longitude: excluded(t.communes.longitude),
          },
        });
    }
  });
}
