// The list's total for no filter, one place, partners, creators or one subject, and whole business days is
// read from signalement_day_counts (countFromDayCounts): it is shown as exact, so it must equal COUNT(*)
// over the same filters, at the day boundary in Madagascar (23:30 and 00:30 local), after updates that move
// a report across midnight or to another place, and after deletes; on both engines. Filters the counters
// cannot answer give null.
import { count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { businessDayStart, DEFAULT_BUSINESS_TIME_ZONE } from '#shared/calendar';
import { countFromDayCounts, countSignalements, filterConditions, type ListFilters } from './queries';

const HOUR = 3_600_000;
/** Around midnight in Madagascar (UTC+3): 21:00 UTC is 00:00 local. */
const MIDNIGHTS = ['2025-11-19T21:00:00Z', '2025-11-20T21:00:00Z', '2025-11-21T21:00:00Z'].map((d) =>
  Date.parse(d),
);
const OFFSETS = [-2.5, -0.5, 0.5, 1.5].map((h) => h * HOUR);

describe.each(await testEngines())('list totals from the day counts on %s', (engine) => {
  let t: TestApp;
  let places: { region: string[]; district: string[]; commune: string[] };
  let refs: { partner: string[]; creator: string[]; subject: string[] };
  let ids: number[] = [];

  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('a@example.mg', 'ROLE_USER', 'Agent A');
    await t.user('b@example.mg', 'ROLE_USER', 'Agent B');
    const {
      regions,
      districts,
      communes,
      signalements: s,
      utilisateurs,
      partenaires,
      subjects,
      signalementSubjects,
    } = t.db.t;
    await t.db.transaction((tx) =>
      tx
        .insert(partenaires)
        .values({ code: 'PART_B', designation: 'Partenaire B', initial: 'PB', color: '#224466' }),
    );
    const users = await t.db.read
      .select({ id: utilisateurs.id, code: utilisateurs.code })
      .from(utilisateurs)
      .orderBy(utilisateurs.id)
      .limit(2);
    const partners = await t.db.read
      .select({ id: partenaires.id, code: partenaires.code })
      .from(partenaires)
      .orderBy(partenaires.id)
      .limit(2);
    const subjectRows = await t.db.read
      .select({ id: subjects.id, code: subjects.code })
      .from(subjects)
      .orderBy(subjects.id)
      .limit(2);
    refs = {
      partner: partners.map((p) => p.code),
      creator: users.map((u) => u.code),
      subject: subjectRows.map((r) => r.code),
    };
    const rs = await t.db.read.select({ id: regions.id, code: regions.code }).from(regions).limit(2);
    const ds = await t.db.read.select({ id: districts.id, code: districts.code }).from(districts).limit(2);
    const cs = await t.db.read.select({ id: communes.id, code: communes.code }).from(communes).limit(2);
    places = {
      region: rs.map((r) => r.code),
      district: ds.map((d) => d.code),
      commune: cs.map((c) => c.code),
    };
    let n = 0;
    const rows = MIDNIGHTS.flatMap((midnight) =>
      OFFSETS.map((offset) => {
        n++;
        return {
          code: `SIG-TOTL-${String(n).padStart(4, '0')}`,
          signalementAt: new Date(midnight + offset),
          createdById: users[n % 2]!.id,
          partenaireId: partners[Math.floor(n / 2) % 2]!.id,
          // Some reports without a place, the others spread over two of each level.
          ...(n % 4 === 0
            ? {}
            : { regionId: rs[n % 2]!.id, districtId: ds[n % 2]!.id, communeId: cs[(n + 1) % 2]!.id }),
        };
      }),
    );
    ids = (await t.db.transaction((tx) => tx.insert(s).values(rows).returning({ id: s.id }))).map(
      (r) => r.id,
    );
    // One subject, two subjects or none.
    const links = ids.flatMap((id, i) =>
      subjectRows.slice(0, i % 3).map((subject) => ({ signalementId: id, subjectId: subject.id })),
    );
    await t.db.transaction((tx) => tx.insert(signalementSubjects).values(links));
  });
  afterAll(async () => t?.close());

  /** COUNT(*) over the same filters, through the conditions the list applies to its rows. */
  const counted = async (f: ListFilters) => {
    const s = t.db.t.signalements;
    const [row] = await t.db.read
      .select({ n: count() })
      .from(s)
      .where(await filterConditions(t.ctx, f, { mode: 'set' }));
    return Number(row!.n);
  };
  const day = (iso: string) => businessDayStart(iso, DEFAULT_BUSINESS_TIME_ZONE);
  const combinations = (): ListFilters[] => {
    const ranges = [
      undefined,
      { after: day('2025-11-20') },
      { before: day('2025-11-20') },
      { after: day('2025-11-21'), before: day('2025-11-21') },
      { after: day('2025-11-20'), before: day('2025-11-21') },
      { after: day('2025-11-23') },
    ];
    const where: ListFilters[] = [
      {},
      { 'region.code': places.region[0] },
      { 'region.code': places.region[1] },
      { 'district.code': places.district[0] },
      { 'commune.code': places.commune[1] },
      { 'region.code': 'MG-INCONNUE' },
      { 'partenaire.code': [refs.partner[0]!] },
      { 'partenaire.code': [refs.partner[1]!, refs.partner[0]!, refs.partner[1]!] },
      { 'createdBy.code': [refs.creator[1]!] },
      { 'createdBy.code': refs.creator },
      { 'subjects.code': [refs.subject[0]!] },
      { 'subjects.code': [refs.subject[1]!, refs.subject[1]!] },
      { 'partenaire.code': ['INCONNU'] },
    ];
    return where.flatMap((w) =>
      ranges.map((signalementAt) => ({ ...w, ...(signalementAt ? { signalementAt } : {}) })),
    );
  };

  const expectExact = async () => {
    for (const f of combinations()) {
      const fromCounters = await countFromDayCounts(t.db, f, t.ctx.calendar);
      expect(fromCounters, JSON.stringify(f)).not.toBeNull();
      expect(fromCounters, JSON.stringify(f)).toBe(await counted(f));
      expect(await countSignalements(t.ctx, f)).toBe(fromCounters);
    }
  };

  it('equals COUNT(*) for no filter, one place, partners, creators or one subject and whole days, at 23:30 and 00:30 local', async () => {
    // The day of 20 November holds its 00:30 and 01:30 reports, and the 21:30 and 23:30 ones of that evening.
    expect(
      await countFromDayCounts(
        t.db,
        {
          signalementAt: { after: day('2025-11-20'), before: day('2025-11-20') },
        },
        t.ctx.calendar,
      ),
    ).toBe(4);
    await expectExact();
  });

  it('stays exact after a report moves across midnight and to another place, and after deletes', async () => {
    const s = t.db.t.signalements;
    const [other] = await t.db.read
      .select({ id: t.db.t.regions.id })
      .from(t.db.t.regions)
      .where(eq(t.db.t.regions.code, places.region[1]!));
    await t.db.transaction((tx) =>
      tx
        .update(s)
        .set({ signalementAt: new Date(MIDNIGHTS[1]! + 0.5 * HOUR), regionId: other!.id })
        .where(eq(s.id, ids[0]!)),
    );
    await t.db.transaction((tx) => tx.delete(s).where(inArray(s.id, [ids[1]!, ids[5]!])));
    await expectExact();
  });

  it('answers null for what the counters do not hold: two subjects, two filters, a search, or a range not on whole days', async () => {
    for (const f of [
      { 'subjects.code': refs.subject },
      { 'partenaire.code': [refs.partner[0]!], 'createdBy.code': [refs.creator[0]!] },
      { 'subjects.code': [refs.subject[0]!], 'region.code': places.region[0] },
      { search: 'fraude' },
      { 'region.code': places.region[0], 'district.code': places.district[0] },
      { signalementAt: { after: new Date(MIDNIGHTS[0]! + HOUR) } },
    ] satisfies ListFilters[]) {
      expect(await countFromDayCounts(t.db, f, t.ctx.calendar), JSON.stringify(f)).toBeNull();
      // The list still counts them exactly, the other way.
      expect(await countSignalements(t.ctx, f)).toBe(await counted(f));
    }
  });
});
