// The report list sends what the list shows (docs/decisions/0027-list-rows.md): a member carries the
// documented fields and no other, each equal to the same field of the report's own representation, on
// both doors; a page of 20 demo reports stays within its byte budget; the export keeps whole reports.
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '#server/db/seed/demo';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport } from '#tests/helpers/signalements';
import { PAGE_SIZE_SIGNALEMENTS } from '#shared/constants';
import { PLAN_VIEWER } from '#tests/helpers/plans';
import { firstPageSource, pageIds, pageQuery, type PageSource } from './list-page';
import { resolveFilters } from './list-filters-resolve';
import type { ListFilters } from './list-filters';
import { loadListItems, loadListPage, pageStatement } from './list-row';
import { loadSignalements } from './loader';
import { listPage, wholeListTotal } from './queries';

/**
 * A page of 20 demo reports, in bytes (JSON, and gzip as a client receives it). The whole reports came to
 * about 42,000 and 7,200; these budgets leave room for longer labels, not for another field. The due day
 * (« Échéance », docs/decisions/0032) added 500 bytes, 25 a row.
 */
const PAGE_BUDGET = { json: 15_500, gzip: 2_800 };

/** The documented fields of a member (shared/dto/signalements.ts, SignalementListItemDto). */
const MEMBER_FIELDS = [
  '@id',
  '@type',
  'code',
  'signalementAt',
  'partenaire',
  'subjects',
  'canalPrincipal',
  'region',
  'district',
  'commune',
  'statut',
  'niveau',
  'isTreated',
  'echeance',
  'assignees',
];
const STAFF_FIELDS = ['code', 'nomPrenom'];
const REF_FIELDS = ['code', 'designation'];
const COLOURED_REF_FIELDS = ['code', 'designation', 'color'];

const REPORTS = 120;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: Json): value is { [key: string]: Json } =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `whole` cut to the keys `part` has, at every depth (arrays item by item). */
function cutTo(whole: Json, part: Json): Json {
  if (Array.isArray(part) && Array.isArray(whole)) return whole.map((w, i) => cutTo(w, part[i] ?? null));
  if (isObject(part) && isObject(whole)) {
    return Object.fromEntries(Object.keys(part).map((key) => [key, cutTo(whole[key] ?? null, part[key]!)]));
  }
  return whole;
}

describe.each(await testEngines())('report list rows on %s', (engine) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    // More than the loader prepares for (100 ids): the export's batch of 120 takes its other path.
    await seedDemo(t.ctx, { reports: REPORTS, seed: 27 });
    const admin = await t.user('liste@example.mg', 'ROLE_ADMIN', 'Rasoa Liste');
    const other = await t.user('charge@example.mg', 'ROLE_USER', 'Rabe Charge');
    cookie = await t.login('liste@example.mg');
    // Two reports of the first page with assignees (one with two), so « Assigné à » is compared with values.
    const [first, second] = (await restPage()).json().member as Array<{ code: string }>;
    // And the references compared both unset and set on that page whatever the demo drew (its codes are
    // random, so the code order's page is too): the first report without level and channel, the second
    // with both.
    const { db } = t.ctx;
    const { signalements: s, niveaux, canals } = db.t;
    const [niveau] = await db.rows<{ id: unknown }>(sql`select min(id) as id from ${niveaux}`);
    const [canal] = await db.rows<{ id: unknown }>(sql`select min(id) as id from ${canals}`);
    await db.execute(
      sql`update ${s} set niveau_id = null, canal_principal_id = null where ${s.code} = ${first!.code}`,
    );
    await db.execute(
      sql`update ${s} set niveau_id = ${Number(niveau!.id)}, canal_principal_id = ${Number(canal!.id)}
          where ${s.code} = ${second!.code}`,
    );
    for (const [report, user] of [
      [first!.code, admin],
      [first!.code, other],
      [second!.code, other],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/signalements/${report}/assignes`,
        headers: { cookie, ...SAME_ORIGIN, 'content-type': 'application/json' },
        payload: JSON.stringify({ utilisateur: `/api/utilisateurs/${user}` }),
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(async () => t?.close());

  const restPage = async () => {
    const res = await t.app.inject({ url: '/api/signalements?itemsPerPage=20', headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };

  it('sends a page of 20 demo reports within its byte budget', async () => {
    const res = await restPage();
    expect(res.json().member).toHaveLength(20);
    const json = Buffer.byteLength(res.body);
    expect(json).toBeLessThanOrEqual(PAGE_BUDGET.json);
    expect(gzipSync(res.body).length).toBeLessThanOrEqual(PAGE_BUDGET.gzip);
  });

  it('gives each member the documented fields, each as the report itself has it', async () => {
    const { member } = (await restPage()).json() as { member: Array<Record<string, Json>> };
    const present = new Set<string>();
    for (const item of member) {
      expect(Object.keys(item)).toEqual(MEMBER_FIELDS);
      expect(Object.keys(item.partenaire!)).toEqual(COLOURED_REF_FIELDS);
      for (const key of ['canalPrincipal', 'region', 'district', 'commune', 'statut'] as const) {
        if (item[key] !== null) expect(Object.keys(item[key]!), key).toEqual(REF_FIELDS);
      }
      for (const subject of item.subjects as Json[]) expect(Object.keys(subject!)).toEqual(REF_FIELDS);
      if (item.niveau !== null) expect(Object.keys(item.niveau!)).toEqual(COLOURED_REF_FIELDS);
      for (const assignee of item.assignees as Json[]) expect(Object.keys(assignee!)).toEqual(STAFF_FIELDS);
      if ((item.assignees as Json[]).length > 0) present.add('assignees');
      for (const [key, value] of Object.entries(item)) {
        if (value !== null && key !== 'assignees') present.add(key);
      }

      const detail = await t.app.inject({ url: item['@id'] as string, headers: { cookie } });
      expect(detail.statusCode).toBe(200);
      expect(item).toEqual(cutTo(detail.json(), item));
    }
    // Every field was compared with a value on some row, not only with null.
    expect([...present].sort()).toEqual([...MEMBER_FIELDS].sort());
  });

  /** The PageSource of `filters`' page, as listPage asks it (resolved filters, a viewer). */
  const sourceOf = async (
    filters: ListFilters,
    q: { order?: ListFilters['order']; page: number; itemsPerPage: number },
  ) => firstPageSource(t.ctx.db, await resolveFilters(t.ctx, filters, PLAN_VIEWER), PLAN_VIEWER, q);
  const first = { page: 1, itemsPerPage: PAGE_SIZE_SIGNALEMENTS };

  it('reads a first page found again by its statement as the page read by its ids (decision 0063)', async () => {
    const { db } = t.ctx;
    const orders = [
      undefined,
      ...(['signalementAt', 'code', 'echeance'] as const).flatMap((field) =>
        (['asc', 'desc'] as const).map((dir) => ({ [field]: dir })),
      ),
    ];
    for (const order of orders) {
      const q = { ...first, order };
      const source = await sourceOf({ order }, q);
      expect(source && 'name' in source, JSON.stringify(order)).toBe(true);
      // The page as the ids' path reads it: its own statement (pageQuery), then its rows by their ids.
      const r = await resolveFilters(t.ctx, { order }, PLAN_VIEWER);
      const ids = (await pageQuery(db, r, PLAN_VIEWER, q, 'index')).map((row) => row.id);
      expect(await pageIds(db, source!), JSON.stringify(order)).toEqual(ids);
      const expected = await loadListItems(db, { ids });
      expect(expected, JSON.stringify(order)).toHaveLength(PAGE_SIZE_SIGNALEMENTS);
      expect(await loadListItems(db, source!), JSON.stringify(order)).toEqual(expected);
    }
    // Not found again: a filter, another page or size, the order by partner (no index gives it).
    const filtered: ListFilters[] = [
      { etat: 'ouvert' },
      { search: 'fonds' },
      { 'subjects.code': ['FRAUDE'] },
    ];
    for (const filters of filtered)
      expect(await sourceOf(filters, first), JSON.stringify(filters)).toBeNull();
    expect(await sourceOf({}, { ...first, page: 2 })).toBeNull();
    expect(await sourceOf({}, { ...first, itemsPerPage: 100 })).toBeNull();
    expect(await sourceOf({}, { ...first, order: { 'partenaire.designation': 'asc' } })).toBeNull();
    // An order the schema would have refused, named after what every object inherits: no index's either.
    const inherited = { constructor: 'asc' } as unknown as ListFilters['order'];
    expect(await sourceOf({}, { ...first, order: inherited })).toBeNull();
  });

  it('reads the subjects and assignees again by the rows’ ids when a write moved a first page between its statements', async () => {
    const { db } = t.ctx;
    const newest = await sourceOf({}, first);
    const oldest = await sourceOf({}, { ...first, order: { signalementAt: 'asc' } });
    if (!newest || 'ids' in newest || !oldest || 'ids' in oldest) throw new Error('first pages');
    // The rows' statement (built first) finds the newest reports, the subjects' and assignees' the oldest:
    // as if reports had been created between them. Without the second read, the rows would show no
    // subject and no assignee.
    let builds = 0;
    const moved: PageSource = {
      ...newest,
      name: 'moved_between_statements',
      statement: () => (builds++ === 0 ? newest.statement() : oldest.statement()),
    };
    const items = await loadListItems(db, moved, { oneStatement: false });
    expect(builds).toBe(3);
    expect(items).toEqual(await loadListItems(db, newest));
    expect(items.every((item) => item.subjects.length > 0)).toBe(true);
    expect(items.some((item) => item.assignees.length > 0)).toBe(true);
  });

  it('reads a first page in one statement as in three (decision 0065)', async () => {
    const { db } = t.ctx;
    const orders = [undefined, { signalementAt: 'asc' }, { code: 'desc' }, { echeance: 'asc' }] as const;
    const items = [];
    for (const order of orders) {
      const source = await sourceOf({ order }, { ...first, order });
      if (!source || 'ids' in source) throw new Error('a first page found again');
      const three = await loadListItems(db, source, { oneStatement: false });
      expect(three, JSON.stringify(order)).toHaveLength(PAGE_SIZE_SIGNALEMENTS);
      expect(await loadListItems(db, source, { oneStatement: true }), JSON.stringify(order)).toEqual(three);
      items.push(...three);
    }
    // Every part was compared with values: references set and unset, flags, due days, subjects, assignees.
    expect(items.some((item) => item.canalPrincipal === null)).toBe(true);
    expect(items.some((item) => item.canalPrincipal !== null)).toBe(true);
    expect(items.some((item) => item.niveau === null)).toBe(true);
    expect(items.some((item) => item.niveau !== null)).toBe(true);
    expect(items.some((item) => item.isTreated)).toBe(true);
    expect(items.some((item) => !item.isTreated)).toBe(true);
    expect(items.some((item) => item.echeance !== null)).toBe(true);
    expect(items.every((item) => item.subjects.length > 0)).toBe(true);
    expect(items.some((item) => item.subjects.length > 1)).toBe(true);
    expect(items.some((item) => item.assignees.length === 2)).toBe(true);
  });

  it('answers the same rows on tRPC as on REST', async () => {
    const input = encodeURIComponent(JSON.stringify({ page: 1, itemsPerPage: 20 }));
    const trpc = await t.app.inject({ url: `/trpc/signalements.list?input=${input}`, headers: { cookie } });
    expect(trpc.statusCode, trpc.body).toBe(200);
    const { items, total } = trpc.json().result.data;
    expect(total).toBe(REPORTS);
    expect(items).toEqual((await restPage()).json().member);
  });

  it('keeps whole reports in the JSON export, each as its own representation', async () => {
    const res = await t.app.inject({ url: '/api/signalements/export/list', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const { member } = res.json() as { member: Array<{ '@id': string }> };
    expect(member).toHaveLength(REPORTS);
    for (const item of member) {
      const detail = await t.app.inject({ url: item['@id'], headers: { cookie } });
      expect(JSON.stringify(item)).toBe(detail.body);
    }
  });

  it('reads one to three ids by statements of their own as a list of ids reads them (decisions 0066 and 0068)', async () => {
    const { db } = t.ctx;
    const ids = (
      await db.rows<{ id: unknown }>(sql`select id from signalements order by id desc limit 5`)
    ).map((row) => Number(row.id));
    // Five ids: the list's statements; then one, two and three, in another order too, each its own.
    const items = await loadListItems(db, { ids });
    const reports = await loadSignalements(db, ids, PLAN_VIEWER);
    expect(items).toHaveLength(5);
    for (const few of [ids.slice(0, 1), ids.slice(1, 3), ids.slice(2, 5), [ids[4]!, ids[0]!, ids[2]!]]) {
      const at = few.map((id) => ids.indexOf(id));
      expect(await loadListItems(db, { ids: few }), JSON.stringify(few)).toEqual(at.map((i) => items[i]));
      expect(await loadSignalements(db, few, PLAN_VIEWER), JSON.stringify(few)).toEqual(
        at.map((i) => reports[i]),
      );
    }
  });

  // Last of this file: it creates a report, and the tests above count REPORTS.
  it('reads the whole list’s total in the one statement of a first page, and the list answers it (decision 0067)', async () => {
    const { db } = t.ctx;
    const source = await sourceOf({}, first);
    if (!source) throw new Error('a first page found again');
    // No parameter: PostgreSQL plans the statement once per connection (decisions 0065 and 0067).
    expect(pageStatement(db, db.read, { ...source, wholeTotal: true }).toSQL().params).toEqual([]);
    const count = async () =>
      Number((await db.rows<{ n: unknown }>(sql`select count(*) as n from signalements`))[0]!.n);
    const whole = await count();
    expect(whole).toBeGreaterThan(PAGE_SIZE_SIGNALEMENTS);
    expect(await wholeListTotal(db)).toBe(whole);
    // Asked for, the one statement reads it; not asked for, or a page in three statements, it is not read.
    const one = await loadListPage(db, { ...source, wholeTotal: true }, { oneStatement: true });
    expect(one.total).toBe(whole);
    expect(one.items).toEqual(await loadListItems(db, source, { oneStatement: false }));
    expect((await loadListPage(db, source, { oneStatement: true })).total).toBeUndefined();
    expect(
      (await loadListPage(db, { ...source, wholeTotal: true }, { oneStatement: false })).total,
    ).toBeUndefined();
    // The list as it opens answers the whole total on both engines (read with the page where the dialect
    // reads it in one statement, counted beside it otherwise), and a report created since.
    const listed = async () =>
      (await listPage(t.ctx, PLAN_VIEWER, first, (page) => loadListPage(db, page))).total;
    expect(await listed()).toEqual({ n: whole, exact: true });
    await createReport(t, cookie);
    expect(await count()).toBe(whole + 1);
    expect(await listed()).toEqual({ n: whole + 1, exact: true });
  });
});
