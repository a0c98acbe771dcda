// The list's total (decision 0022): exact from the counters for what they hold; otherwise counted one by
// one up to a cap, exact at or under it and « more than cap » beyond. Checked against an exact COUNT(*)
// for filters the counters cannot answer, at caps around the true count, on both engines; then through
// REST and tRPC with more reports than LIST_COUNT_CAP.
import { count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_COUNT_CAP, MAX_PAGE_LINKS } from '#shared/constants';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { seedDemo } from '#server/db/seed/demo';
import type { SessionUser } from '../auth/session';
import { countFromDayCounts, DENSE_SEARCH, filterConditions, listTotal, type ListFilters } from './queries';

/** More than LIST_COUNT_CAP, and than DENSE_SEARCH: a word in every report takes the scan paths. */
const REPORTS = Math.max(LIST_COUNT_CAP, DENSE_SEARCH) + 150;
/** Not the start of a business day: the counters cannot answer it, and every demo report is after it. */
const NOT_A_DAY_START = '2000-01-01T10:00:00Z';

describe.each(await testEngines())('list totals, exact or bounded, on %s', (engine) => {
  let t: TestApp;
  let cookie: string;
  let viewer: SessionUser;
  let refs: { partner: string; subjects: string[]; creator: string; region: string };

  beforeAll(async () => {
    t = await createTestApp(engine);
    await seedDemo(t.ctx, { reports: REPORTS, seed: 5 });
    const code = await t.user('agent.total@example.mg', 'ROLE_ADMIN', 'Agent Total');
    cookie = await t.login('agent.total@example.mg');
    const { utilisateurs: u, signalements: s, partenaires: p, regions: r } = t.db.t;
    const [me] = await t.db.read.select({ id: u.id }).from(u).where(eq(u.code, code));
    viewer = {
      id: me!.id,
      code,
      email: 'agent.total@example.mg',
      nomPrenom: 'Agent Total',
      isEnabled: true,
      lastConnectionAt: null,
      role: { code: 'ROLE_ADMIN', designation: 'Administrateur' },
      twoFactorEnrolled: true,
    };
    // The busiest partner, and the busiest creator and region together, of the demo data (a row taken
    // without an order was another on each run on PostgreSQL: once a pair with a single report).
    const [busiestPartner] = await t.db.read
      .select({ partner: p.code })
      .from(s)
      .innerJoin(p, eq(p.id, s.partenaireId))
      .groupBy(p.code)
      .orderBy(desc(count()), p.code)
      .limit(1);
    const [busiestPair] = await t.db.read
      .select({ creator: u.code, region: r.code })
      .from(s)
      .innerJoin(u, eq(u.id, s.createdById))
      .innerJoin(r, eq(r.id, s.regionId))
      .groupBy(u.code, r.code)
      .orderBy(desc(count()), u.code, r.code)
      .limit(1);
    refs = {
      partner: busiestPartner!.partner,
      creator: busiestPair!.creator,
      region: busiestPair!.region,
      subjects: ['CORRUPTION', 'FRAUDE'],
    };
  });
  afterAll(async () => t?.close());

  /** COUNT(*) over the same filters, through the conditions the list applies to its rows. */
  const counted = async (f: ListFilters) => {
    const s = t.db.t.signalements;
    const [row] = await t.db.read
      .select({ n: count() })
      .from(s)
      .where(await filterConditions(t.ctx, f, { mode: 'set', viewer }));
    return Number(row!.n);
  };

  const bounded = (): ListFilters[] => [
    { signalementAt: { after: new Date(NOT_A_DAY_START) } },
    { 'partenaire.code': [refs.partner], 'subjects.code': [refs.subjects[0]!] },
    { 'createdBy.code': [refs.creator], 'region.code': refs.region },
    { search: 'commune' },
    { search: 'sig' },
    { search: 'commune', 'partenaire.code': [refs.partner] },
    ...(engine === 'postgres' ? [{ 'subjects.code': refs.subjects }] : []),
  ];

  it('is exact at or under the cap and « more than cap » beyond it, for filters the counters do not hold', async () => {
    for (const f of bounded()) {
      expect(await countFromDayCounts(t.db, f, t.ctx.calendar), JSON.stringify(f)).toBeNull();
      const exact = await counted(f);
      expect(exact, `${JSON.stringify(f)} matches something`).toBeGreaterThan(1);
      for (const cap of [1, exact - 1, exact, exact + 1, 100_000]) {
        const expected = exact > cap ? { n: cap, exact: false } : { n: exact, exact: true };
        expect(await listTotal(t.ctx, f, viewer, cap), `${JSON.stringify(f)} cap ${cap}`).toEqual(expected);
      }
    }
  });

  it('is always exact for what the counters hold, whatever the cap', async () => {
    for (const f of [
      {},
      { 'partenaire.code': [refs.partner] },
      { 'region.code': refs.region },
      { 'subjects.code': [refs.subjects[1]!] },
    ] satisfies ListFilters[]) {
      expect(await listTotal(t.ctx, f, viewer, 1)).toEqual({ n: await counted(f), exact: true });
    }
    expect(await listTotal(t.ctx, {}, viewer, 1)).toEqual({ n: REPORTS, exact: true });
  });

  const rest = async (query: string) => {
    const res = await t.app.inject({ url: `/api/signalements?${query}`, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      totalItems: number;
      totalItemsExact: boolean;
      member: unknown[];
      view: Record<string, string>;
    };
  };

  it('says « more than LIST_COUNT_CAP » over REST and tRPC, with a next page and no last page', async () => {
    const after = `signalementAt[after]=${encodeURIComponent(NOT_A_DAY_START)}`;
    const first = await rest(after);
    expect(first).toMatchObject({ totalItems: LIST_COUNT_CAP, totalItemsExact: false });
    expect(first.member).toHaveLength(20);
    expect(first.view.next).toContain('page=2');
    expect(first.view).not.toHaveProperty('last');
    // Deep enough, the pager's reach passes the true count: the total is exact again, with its last page.
    const page = Math.ceil(REPORTS / 20) - MAX_PAGE_LINKS + 1;
    const deep = await rest(`${after}&page=${page}`);
    expect(deep).toMatchObject({ totalItems: REPORTS, totalItemsExact: true });
    expect(deep.view.last).toContain(`page=${Math.ceil(REPORTS / 20)}`);
    // No filter: the counters, exact.
    expect(await rest('')).toMatchObject({ totalItems: REPORTS, totalItemsExact: true });

    const res = await t.app.inject({
      url: `/trpc/signalements.list?input=${encodeURIComponent(JSON.stringify({ signalementAt: { after: NOT_A_DAY_START } }))}`,
      headers: { cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.data).toMatchObject({ total: LIST_COUNT_CAP, totalExact: false });
  });

  it('takes an `exists` naming no known field as no filter, as the page does: the whole list, exact', async () => {
    // `exists[foo]=…` arrives as `exists: {}` (the schema keeps `assignees` only): filterWhere adds nothing,
    // and the counters answer the whole list (list-filters.ts, isSet).
    expect(await countFromDayCounts(t.db, { exists: {} }, t.ctx.calendar)).toBe(REPORTS);
    expect(await listTotal(t.ctx, { exists: {} }, viewer, 1)).toEqual({ n: REPORTS, exact: true });
    const page = await rest('exists[foo]=true');
    expect(page).toMatchObject({ totalItems: REPORTS, totalItemsExact: true });
    expect(page.member).toEqual((await rest('')).member);
  });

  it('answers a page number at the edge of the safe integers without an error', async () => {
    const res = await t.app.inject({
      url: `/api/signalements?page=${Number.MAX_SAFE_INTEGER}&itemsPerPage=100&search=sig`,
      headers: { cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ member: [], totalItemsExact: true });
  });
});
