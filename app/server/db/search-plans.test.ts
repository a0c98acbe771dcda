// The list's search on PostgreSQL (decision 0023): the plans it reaches are read from EXPLAIN, not timed. On
// 120,000 reports whose search texts hold a common word (7 %) and a rare one (0.01 %), after ANALYZE:
// - a rare word is read through the trigram index (pg_trgm), for the page and for the bounded count;
// - a common word's page is read in date order through signalements_signalement_at_idx and stops after a
//   page (no sort of every match); its bounded count is a scan that stops at the cap, without the
//   trigram bitmap (which would first collect every match);
// - the density check tells the two apart;
// - a search's count and page are sent side by side, rare word or common (decision 0030);
// - all of this with the exact-source-name condition, which every search by a user carries (decision 0015).
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_COUNT_CAP } from '#shared/constants';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '#tests/helpers/db';
import { pgStatementsOf } from '#tests/helpers/pg-statements';
import { explainNodes, PLAN_VIEWER, type PlanNode } from '#tests/helpers/plans';
import { seed } from './seed/index';
import {
  boundedCountQuery,
  DENSE_SEARCH,
  listPage,
  pageQuery,
  resolveFilters,
  searchStrategy,
} from '../domains/signalements/queries';
import { createUser } from '../domains/utilisateurs/service';
import { countSearchInTexts, isDenseSearch, searchTextsCount } from './search';

const REPORTS = 120_000;
const viewer = PLAN_VIEWER;

describe.skipIf(!(await postgresAvailable()))('search query plans on PostgreSQL', () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase('postgres');
    await seed(t.db);
    await createUser(t.db, {
      email: 'plan@example.mg',
      nomPrenom: 'Plan',
      roleCode: 'ROLE_USER',
      password: 'mot-de-passe-de-test-42',
    });
    // Plain rows in one statement, triggers off (their counters play no part in these plans).
    await t.db.transaction(async (tx) => {
      await t.db.rows(sql`set local session_replication_role = replica`, tx);
      await t.db.rows(
        sql`
      insert into signalements (code, signalement_at, created_by_id, partenaire_id, search_text)
      select 'SIG-PLAN-' || g, timestamptz '2025-01-01' + g * interval '1 minute',
             (select min(id) from utilisateurs), (select min(id) from partenaires),
             'rapport ' || md5(g::text) || ' commune ' || md5((g * 7)::text)
               || case when g % 14 = 0 then ' detournement de fonds' else '' end
               || case when g % 10000 = 7 then ' ravelomanantsoa' else '' end
      from generate_series(1, ${REPORTS}) as g`,
        tx,
      );
      // The triggers off, the narrow copy of the texts (decision 0064) is filled as the migration does.
      await t.db.rows(
        sql`insert into signalement_search_texts (id, search_text) select id, search_text from signalements`,
        tx,
      );
    });
    // Statistics from every row rather than ANALYZE's random sample, so that the planner's estimates (and
    // the plans this file checks) are the same on every run.
    await t.db.transaction(async () => {
      await t.db.execute(sql`set local default_statistics_target = 10000`);
      await t.db.execute(sql`analyze signalements`);
      await t.db.execute(sql`analyze signalement_search_texts`);
    });
  }, 120_000);
  afterAll(async () => t?.drop());

  const explain = (query: { getSQL(): SQL }) => explainNodes(t.db, query);
  const usesTrigram = (plan: PlanNode[]) =>
    plan.some((n) => n['Index Name'] === 'signalements_search_trgm_idx');

  it('tells a common word from a rare one', async () => {
    const common = await resolveFilters(t.ctx, { search: 'detournement' }, viewer);
    const rare = await resolveFilters(t.ctx, { search: 'ravelomanantsoa' }, viewer);
    expect(await isDenseSearch(t.db, common.search!.plan, DENSE_SEARCH)).toBe(true);
    expect(await isDenseSearch(t.db, rare.search!.plan, DENSE_SEARCH)).toBe(false);
    expect(await searchStrategy(t.db, common)).toBe('scan');
    expect(await searchStrategy(t.db, rare)).toBe('index');
  });

  it('reads a rare word through the trigram index, for the page and the bounded count', async () => {
    const rare = await resolveFilters(t.ctx, { search: 'ravelomanantsoa' }, viewer);
    expect(
      usesTrigram(await explain(pageQuery(t.db, rare, viewer, { page: 1, itemsPerPage: 20 }, 'index'))),
    ).toBe(true);
    expect(usesTrigram(await explain(boundedCountQuery(t.db, rare, viewer, LIST_COUNT_CAP, 'index')))).toBe(
      true,
    );
  });

  it("reads a common word's page in date order through its index, stopping after one page", async () => {
    for (const search of ['detournement', 'detournement fonds']) {
      const common = await resolveFilters(t.ctx, { search }, viewer);
      const plan = await explain(pageQuery(t.db, common, viewer, { page: 1, itemsPerPage: 20 }, 'scan'));
      expect(plan[0]!['Node Type'], search).toBe('Limit');
      const scan = plan.find((n) => n['Index Name'] === 'signalements_signalement_at_idx');
      expect(scan, `${search}: ${JSON.stringify(plan.map((n) => n['Node Type']))}`).toMatchObject({
        'Node Type': 'Index Scan',
        'Scan Direction': 'Backward',
      });
      expect(
        plan.some((n) => n['Node Type'] === 'Sort'),
        search,
      ).toBe(false);
    }
  });

  /** Each word tested with strpos on `table`'s search text (decision 0062). */
  const strposOn = (table: string) =>
    new RegExp(`strpos\\("${table}"\\."search_text" collate "C", \\$\\d+\\) > 0`, 'g');

  it('counts a common word up to the cap by a scan that stops there, without the trigram bitmap', async () => {
    const common = await resolveFilters(t.ctx, { search: 'detournement fonds' }, viewer);
    const plan = await explain(boundedCountQuery(t.db, common, viewer, LIST_COUNT_CAP, 'sequential'));
    expect(usesTrigram(plan)).toBe(false);
    expect(plan.some((n) => n['Node Type'] === 'Limit')).toBe(true);
    // Each word by strpos, not LIKE (decision 0062).
    const statement = boundedCountQuery(t.db, common, viewer, LIST_COUNT_CAP, 'sequential').toSQL().sql;
    expect(statement.match(strposOn('signalements'))).toHaveLength(2);
    expect(statement).not.toMatch(/search_text"( collate "C")? like/);
    const [row] = await boundedCountQuery(t.db, common, viewer, LIST_COUNT_CAP, 'sequential');
    expect(row!.n).toBe(LIST_COUNT_CAP + 1);
  });

  it('counts a common word alone in the narrow copy of the texts, as the reports’ table counts it (decision 0064)', async () => {
    const q = { search: 'detournement fonds', page: 1, itemsPerPage: 20 };
    await listPage(t.ctx, viewer, q);
    const { value, sent } = await pgStatementsOf(() => listPage(t.ctx, viewer, q));
    const counts = sent.filter((statement) => statement.text.includes('"signalement_search_texts"'));
    expect(counts).toHaveLength(1);
    const count = counts[0]!;
    expect(count.text.match(strposOn('signalement_search_texts'))).toHaveLength(2);
    expect(count.text).not.toMatch(/"signalements"/);
    expect(value.total).toEqual({ n: LIST_COUNT_CAP, exact: false });
    // A scan of the copy that stops at the cap, without the trigram bitmap.
    const r = await resolveFilters(t.ctx, { search: q.search }, viewer);
    const plan = await explainNodes(
      t.db,
      searchTextsCount(t.db, r.search!.plan, r.search!.named, LIST_COUNT_CAP + 1)!,
    );
    expect(plan.map((n) => n['Node Type'])).toEqual(['Aggregate', 'Limit', 'Seq Scan']);
    expect(plan[2]!['Relation Name']).toBe('signalement_search_texts');
    // The same reports as the reports' table, where the count is exact: a rare word, with and without a
    // source's exact name among the matches.
    for (const [search, named] of [
      ['ravelomanantsoa', undefined],
      ['ravelomanantsoa', [1, 2, 3]],
      ['detournement fonds', undefined],
    ] as const) {
      const r = await resolveFilters(t.ctx, { search }, viewer);
      r.search!.named = named ? [...named] : undefined;
      const cap = REPORTS;
      const inTexts = await countSearchInTexts(t.db, r.search!.plan, r.search!.named, cap + 1);
      const [inReports] = await boundedCountQuery(t.db, r, viewer, cap, 'sequential');
      expect(inTexts, `${search} ${JSON.stringify(named)}`).toBe(inReports!.n);
      expect(inTexts).toBeGreaterThan(0);
    }
  });

  /** The statements that read the search words in the reports (the density check reads `recent`). */
  const readingWords = <S extends { text: string }>(sent: S[]) =>
    sent.filter((statement) =>
      /"signalements"\."search_text" like|strpos\("(signalements|signalement_search_texts)"\."search_text"/.test(
        statement.text,
      ),
    );

  /** The search's count and page were sent before either answered: the request waits for the slower only. */
  const sideBySide = async (search: string, expected: { n: number; exact: boolean }) => {
    const q = { search, page: 1, itemsPerPage: 20 };
    // Once first, so that the pool holds idle connections for both statements.
    await listPage(t.ctx, viewer, q);
    const { value, sent } = await pgStatementsOf(() => listPage(t.ctx, viewer, q));
    const words = readingWords(sent);
    expect(words, search).toHaveLength(2);
    const firstAnswer = Math.min(...words.map((w) => w.answeredAt ?? Infinity));
    expect(
      words.every((w) => w.sentAt < firstAnswer),
      search,
    ).toBe(true);
    expect(value.total, search).toEqual(expected);
  };

  it('tests the words of the density check with strpos, never LIKE (decision 0062)', async () => {
    const q = { search: 'detournement fonds', page: 1, itemsPerPage: 20 };
    const { sent } = await pgStatementsOf(() => listPage(t.ctx, viewer, q));
    const density = sent.filter((statement) => statement.text.includes('"recent"'));
    expect(density).toHaveLength(1);
    expect(density[0]!.text.match(strposOn('recent'))).toHaveLength(2);
    expect(density[0]!.text).not.toMatch(/ like /);
  });

  it("sends a common word's bounded count and its page side by side", async () => {
    await sideBySide('detournement fonds', { n: LIST_COUNT_CAP, exact: false });
  });

  it("sends a rare word's count and its page side by side", async () => {
    // 120,000 reports, one in 10,000 holds the word.
    await sideBySide('ravelomanantsoa', { n: 12, exact: true });
  });
});
