// The list's rows on PostgreSQL read each reference of a page's reports by its key (decision 0030): the
// pool's connections plan with random_page_cost = 1.1 (server/db/postgres/open.ts). With PostgreSQL's
// default (4), the same statement for a page of 20 reports hashed the whole communes table (1,579 rows)
// on every request. The plans are read from EXPLAIN, not timed; the default's plan is read as a control.
// The list's first page's rows, subjects and assignees, each with the page as a sub-select (decision 0063),
// read that page first and its reports by key, never a whole table.
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines, type TestDatabase } from '#tests/helpers/db';
import { PAGE_SIZE_SIGNALEMENTS } from '#shared/constants';
import { explainNodes, PLAN_VIEWER, planDatabase } from '#tests/helpers/plans';
import { resolveFilters } from '../domains/signalements/list-filters-resolve';
import { firstPageSource } from '../domains/signalements/list-page';
import { firstPageStatements, pageStatement, selectListRows } from '../domains/signalements/list-row';

const REPORTS = 5_000;
const engines = (await testEngines()).filter((engine) => engine === 'postgres');

describe.skipIf(engines.length === 0)('the list rows’ plan on postgres', () => {
  let t: TestDatabase;
  let ids: number[];
  beforeAll(async () => {
    t = await planDatabase('postgres');
    await t.db.transaction(async () => {
      // Each report in a commune of its own district and region, as the demo data places them.
      await t.db.execute(
        sql`insert into signalements (code, signalement_at, created_by_id, partenaire_id, commune_id, district_id, region_id)
            select 'SIG-PLAN-' || g, timestamptz '2025-01-01' + g * interval '1 minute',
                   (select min(id) from utilisateurs), (select min(id) from partenaires), c.id, d.id, d.region_id
            from generate_series(1, ${REPORTS}) as g
            join communes c on c.id = (select min(id) from communes) + g % 1500
            join districts d on d.id = c.district_id`,
      );
      // A subject for every report, an assignee for every other one: tables a plan could hash whole.
      await t.db.execute(
        sql`insert into signalement_subjects (signalement_id, subject_id)
            select s.id, (select min(id) from subjects) from signalements s`,
      );
      await t.db.execute(
        sql`insert into signalement_assignees (signalement_id, user_id, assigned_at)
            select s.id, (select min(id) from utilisateurs), now() from signalements s where s.id % 2 = 0`,
      );
    });
    await t.db.execute(sql`analyze`);
    const s = t.db.t.signalements;
    const page = await t.db.read.select({ id: s.id }).from(s).orderBy(s.id).limit(20);
    ids = page.map((r) => r.id);
  }, 120_000);
  afterAll(async () => t?.drop());

  const communes = async () => {
    const nodes = await explainNodes(
      t.db,
      selectListRows(t.db, t.db.read).where(inArray(t.db.t.signalements.id, ids)),
    );
    return nodes.filter((n) => JSON.stringify({ ...n, Plans: undefined }).includes('"communes'));
  };

  it('plans with random_page_cost = 1.1 on the pool’s connections', async () => {
    const [row] = await t.db.rows<{ random_page_cost: string }>(sql`show random_page_cost`);
    expect(row!.random_page_cost).toBe('1.1');
  });

  it('reads the communes of a page of 20 reports by key, where the default cost hashed the whole table', async () => {
    const read = await communes();
    expect(read.map((n) => n['Node Type'])).toEqual(['Index Scan']);
    expect(read[0]!['Index Name']).toBe('communes_pkey');
    // The control: the same statement under PostgreSQL's default reads every commune.
    const fallback = await t.db.transaction(async () => {
      await t.db.execute(sql`set local random_page_cost = 4`);
      return communes();
    });
    expect(fallback.map((n) => n['Node Type'])).toEqual(['Seq Scan']);
  });

  it('reads the first page’s rows, subjects and assignees by key, the page first', async () => {
    const db = t.db;
    const r = await resolveFilters(t.ctx, {}, PLAN_VIEWER);
    const page = firstPageSource(db, r, PLAN_VIEWER, { page: 1, itemsPerPage: PAGE_SIZE_SIGNALEMENTS });
    if (!page || 'ids' in page) throw new Error('a first page of the whole list');
    const of = firstPageStatements(db, db.read, page);
    const statements = {
      rows: of.rows(),
      subjects: of.subjects(),
      assignees: of.assignees(),
      // The three as one statement (decision 0065), and with the whole list's total, PostgreSQL's first page
      // of the whole list (decision 0067).
      'one statement': pageStatement(db, db.read, page),
      'one statement and the total': pageStatement(db, db.read, { ...page, wholeTotal: true }),
    };
    for (const [name, statement] of Object.entries(statements)) {
      const nodes = await explainNodes(db, statement);
      const reports = ['signalements', 'signalement_subjects', 'signalement_assignees'];
      const wholeReads = nodes.filter(
        (n) => n['Node Type'] === 'Seq Scan' && reports.includes(n['Relation Name'] ?? ''),
      );
      expect(wholeReads, name).toEqual([]);
      // The page itself: the list's order read from the date index.
      expect(
        nodes.some((n) => n['Index Name'] === 'signalements_signalement_at_idx'),
        name,
      ).toBe(true);
    }
  });
});
