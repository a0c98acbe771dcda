import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testEngines, type TestDatabase } from '#tests/helpers/db';
import { type Database } from '../client';
import { EXPECTED_COUNTS, loadGeography, parseCsv, regionOfDistrict } from './geo';
import { seed } from './index';
import { RESULTATS, STATUTS, SUBJECTS, UTILISATEUR_ROLES } from './reference';

// Madagascar with its offshore islands (Nosy Be, Sainte-Marie, Nosy Boraha …), with a small margin.
const BBOX = { minLat: -26, maxLat: -11.5, minLon: 43, maxLon: 51 };

async function snapshot(db: Database) {
  const { t, read } = db;
  return {
    roles: await read.select().from(t.utilisateurRoles).orderBy(t.utilisateurRoles.id),
    subjects: await read.select().from(t.subjects).orderBy(t.subjects.id),
    canals: await read.select().from(t.canals).orderBy(t.canals.id),
    niveaux: await read.select().from(t.niveaux).orderBy(t.niveaux.id),
    statuts: await read.select().from(t.statuts).orderBy(t.statuts.id),
    resultats: await read.select().from(t.resultats).orderBy(t.resultats.id),
    partenaires: await read.select().from(t.partenaires).orderBy(t.partenaires.id),
    regions: await read.select().from(t.regions).orderBy(t.regions.id),
    districts: await read.select().from(t.districts).orderBy(t.districts.id),
    communes: await read.select().from(t.communes).orderBy(t.communes.id),
  };
}

describe.each(await testEngines())('seed on %s', (engine) => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase(engine);
    await seed(tdb.db);
  });
  afterAll(async () => tdb?.drop());

  it('creates exactly the six roles, the five resultats and the internal partner', async () => {
    const { t, read } = tdb.db;
    const roles = await read.select().from(t.utilisateurRoles);
    expect(roles.map((r) => [r.code, r.designation]).sort()).toEqual(
      UTILISATEUR_ROLES.map((r) => [r.code, r.designation]).sort(),
    );
    const resultats = await read.select().from(t.resultats);
    expect(resultats.map((r) => r.code).sort()).toEqual([
      'RESULTAT_AVERE',
      'RESULTAT_FAUX_SIGNALEMENT',
      'RESULTAT_NON_AVERE',
      'RESULTAT_NON_DETERMINE',
      'RESULTAT_PARTIELLEMENT_AVERE',
    ]);
    expect(resultats).toHaveLength(RESULTATS.length);
    const partners = await read.select().from(t.partenaires);
    expect(partners).toHaveLength(1);
    expect(partners[0]).toMatchObject({
      code: 'IVY',
      designation: 'Ivorary',
      initial: 'IV',
      color: '#3b82f6',
    });
  });

  it('puts OTHERS last among subjects and canals, and gives every statut a kind', async () => {
    const { t, read } = tdb.db;
    const subjects = await read.select().from(t.subjects).orderBy(t.subjects.position);
    expect(subjects).toHaveLength(SUBJECTS.length);
    expect(subjects.at(-1)).toMatchObject({ code: 'OTHERS', designation: 'Autre (à préciser)' });
    const canals = await read.select().from(t.canals).orderBy(t.canals.position);
    expect(canals.at(-1)).toMatchObject({ code: 'OTHERS', designation: 'Autre (à préciser)' });
    expect(canals.every((c) => c.icon.length > 0)).toBe(true);
    const statuts = await read.select().from(t.statuts);
    expect(statuts).toHaveLength(STATUTS.length);
    expect(new Set(statuts.map((s) => s.kind))).toEqual(new Set(['open', 'treated', 'closed']));
  });

  it('changes no row count and no value when run again', async () => {
    const before = await snapshot(tdb.db);
    await seed(tdb.db);
    await seed(tdb.db);
    expect(await snapshot(tdb.db)).toEqual(before);
  });

  it('keeps an administrator’s change to a reference row', async () => {
    const { db } = tdb;
    await db.transaction(async (tx) => {
      await tx
        .update(db.t.niveaux)
        .set({ designation: 'Très élevé' })
        .where(eq(db.t.niveaux.code, 'CRITIQUE'));
    });
    await seed(db);
    const [critique] = await db.read.select().from(db.t.niveaux).where(eq(db.t.niveaux.code, 'CRITIQUE'));
    expect(critique?.designation).toBe('Très élevé');
  });

  it('restores missing geography rows with the same values', async () => {
    const { db } = tdb;
    const before = await snapshot(db);
    const removed = before.communes.at(-1)!;
    await db.transaction(async (tx) => {
      await tx.delete(db.t.communes).where(eq(db.t.communes.code, removed.code));
    });
    await seed(db);
    const after = await snapshot(db);
    expect(after.communes).toHaveLength(EXPECTED_COUNTS.communes);
    const strip = <T extends { id: number }>(rows: T[]) => rows.map(({ id: _id, ...rest }) => rest);
    expect(strip(after.communes)).toEqual(strip(before.communes));
    expect(after.districts).toEqual(before.districts);
    expect(after.regions).toEqual(before.regions);
  });

  it('has 24 regions, 119 districts and 1,579 communes, each under an existing parent', async () => {
    const { t, read } = tdb.db;
    const regions = await read.select().from(t.regions);
    const districts = await read.select().from(t.districts);
    const communes = await read.select().from(t.communes);
    expect([regions.length, districts.length, communes.length]).toEqual([24, 119, 1579]);
    const regionIds = new Set(regions.map((r) => r.id));
    const districtIds = new Set(districts.map((d) => d.id));
    expect(districts.filter((d) => !regionIds.has(d.regionId))).toEqual([]);
    expect(communes.filter((c) => !districtIds.has(c.districtId))).toEqual([]);
    // Every region and district has children: no empty shell left behind by the regrouping.
    expect(new Set(districts.map((d) => d.regionId)).size).toBe(24);
    expect(new Set(communes.map((c) => c.districtId)).size).toBe(119);
  });

  it('moves the split districts to Vatovavy, Fitovinany and Ambatosoa', async () => {
    const { t, read } = tdb.db;
    const rows = await read
      .select({ district: t.districts.code, region: t.regions.code, name: t.regions.designation })
      .from(t.districts)
      .innerJoin(t.regions, eq(t.districts.regionId, t.regions.id));
    const byRegion = (code: string) =>
      rows
        .filter((r) => r.region === code)
        .map((r) => r.district)
        .sort();
    const name = (code: string) => rows.find((r) => r.region === code)?.name;
    expect([name('MG23'), name('MG35'), name('MG34'), name('MG32')]).toEqual([
      'Vatovavy',
      'Fitovinany',
      'Ambatosoa',
      'Analanjirofo',
    ]);
    expect(byRegion('MG23')).toEqual(['MG23206', 'MG23207', 'MG23209']);
    expect(byRegion('MG35')).toEqual(['MG23210', 'MG23211', 'MG23212']);
    expect(byRegion('MG34')).toEqual(['MG32303', 'MG32304']);
    expect(byRegion('MG32')).toEqual(['MG32302', 'MG32305', 'MG32315', 'MG32318']);
    const regionNames = new Set(rows.map((r) => r.name));
    expect(regionNames.has('Vatovavy Fitovinany')).toBe(false);
  });

  it('places every region, district and commune inside Madagascar', async () => {
    const { t, read } = tdb.db;
    const points = [
      ...(await read.select().from(t.regions)),
      ...(await read.select().from(t.districts)),
      ...(await read.select().from(t.communes)),
    ];
    const outside = points.filter(
      (p) =>
        p.latitude === null ||
        p.longitude === null ||
        p.latitude < BBOX.minLat ||
        p.latitude > BBOX.maxLat ||
        p.longitude < BBOX.minLon ||
        p.longitude > BBOX.maxLon,
    );
    expect(outside).toEqual([]);
  });
});

describe('geography files', () => {
  it('parses quoted fields with commas, quotes and line breaks', () => {
    const text = 'a,b,c\r\n1,"x, y","say ""hi"""\r\n2,"two\nlines",\n';
    expect(parseCsv(text)).toEqual([
      ['a', 'b', 'c'],
      ['1', 'x, y', 'say "hi"'],
      ['2', 'two\nlines', ''],
    ]);
    expect(parseCsv('\ufeffa,b\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('keeps commune names as display names and links by P-code', () => {
    const geo = loadGeography();
    const morafeno = geo.communes.filter((c) => c.designation === 'Morafeno');
    expect(morafeno.length).toBeGreaterThan(1);
    expect(new Set(morafeno.map((c) => c.code)).size).toBe(morafeno.length);
    expect(geo.regions.find((r) => r.code === 'MG22')?.designation).toBe("Amoron'i Mania");
  });

  it('maps every district to one of the 24 regions', () => {
    const mapping = regionOfDistrict();
    expect(mapping.size).toBe(119);
    expect(new Set(mapping.values()).size).toBe(24);
    expect(mapping.get('MG23211')).toBe('MG35');
    expect(mapping.get('MG32303')).toBe('MG34');
    expect(mapping.get('MG11101001A')).toBe('MG11');
  });
});
