// A search whose words no report holds (SQLite: a word in no token of the word index, server/db/search.ts
// matchesNothing) can still find the reports of a source so named (decision 0015): those are read by their ids,
// not by walking the list's order. « false or id in (…) » walked the whole date index, 40–140 ms at 1,000,000
// reports for « toliara ». The plans are read from EXPLAIN, not timed: 60,000 reports, after ANALYZE; the
// statement is the same whether a source bears the name or not (an empty list then).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_COUNT_CAP } from '#shared/constants';
import { testEngines, type TestDatabase } from '#tests/helpers/db';
import { explainText, PLAN_VIEWER, planDatabase } from '#tests/helpers/plans';
import { boundedCountQuery, pageQuery, resolveFilters } from '../domains/signalements/queries';
import { matchesNothing } from './search';

const REPORTS = 60_000;
const viewer = PLAN_VIEWER;
const engines = (await testEngines()).filter((engine) => engine === 'sqlite');

describe.skipIf(engines.length === 0)('a search whose words no report holds, on sqlite', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await planDatabase('sqlite');
    await t.db.execute(
      sql`insert into signalements (code, signalement_at, created_by_id, partenaire_id)
          select 'SIG-PLAN-' || g, 1735689600000 + g * 60000, (select min(id) from utilisateurs),
                 (select min(id) from partenaires)
          from (with recursive s(g) as (select 1 union all select g + 1 from s where g < ${REPORTS})
                select g from s)`,
    );
    await t.db.execute(sql`analyze`);
  }, 120_000);
  afterAll(async () => t?.drop());

  const resolved = async (named: number[]) => {
    const r = await resolveFilters(t.ctx, { search: 'toliara' }, viewer);
    expect(matchesNothing(r.search!.plan)).toBe(true);
    return { ...r, search: { ...r.search!, named } };
  };

  it('reads the page of the reports of a source so named by their ids, whether there are some or none', async () => {
    for (const named of [[], [42]]) {
      const r = await resolved(named);
      const page = pageQuery(t.db, r, viewer, { page: 1, itemsPerPage: 20 }, 'index');
      const text = await explainText(t.db, page);
      expect(text).toMatch(/SEARCH signalements USING INTEGER PRIMARY KEY/);
      expect(text).not.toMatch(/SCAN signalements|signalements_signalement_at_idx/);
      expect((await page).map((row) => row.id)).toEqual(named);
      const count = await explainText(t.db, boundedCountQuery(t.db, r, viewer, LIST_COUNT_CAP, 'index'));
      expect(count).not.toMatch(/SCAN signalements\b/);
    }
  });
});
