// The deadline filters and the sort by due day read the due-day index (docs/decisions/0032), on both
// engines: the plans are read from EXPLAIN, not timed. 60,000 reports, one in ten open with a due day spread
// over two years, the others without one (NO_DUE_DAY), after ANALYZE:
// - « En retard » and « À échéance sous 7 jours »: a range of signalements_due_day_idx, for the page and
//   for the bounded count, with no sort of the matches;
// - the sort by due day: the page read in the index's order and stopped after a page (no sort step).
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayNumber } from '#shared/calendar';
import { LIST_COUNT_CAP, NO_DUE_DAY } from '#shared/constants';
import { testEngines, type TestDatabase } from '#tests/helpers/db';
import { explainText, PLAN_VIEWER, planDatabase } from '#tests/helpers/plans';
import { boundedCountQuery, pageQuery, resolveFilters } from '../domains/signalements/queries';
import type { ListFilters } from '../domains/signalements/list-filters';

const REPORTS = 60_000;
const TODAY = dayNumber('2026-11-26');
const viewer = PLAN_VIEWER;

describe.each(await testEngines())('due-day plans on %s', (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await planDatabase(engine);
    await t.db.transaction(async () => {
      // Open reports every tenth, due from a year ago to a year ahead; the others have no deadline.
      const due = sql.raw(
        `case when g % 10 = 0 then ${TODAY - 365} + (g * 7919) % 730 else ${NO_DUE_DAY} end`,
      );
      const rows =
        engine === 'postgres'
          ? sql`select 'SIG-PLAN-' || g, timestamptz '2025-01-01' + g * interval '1 minute', ${due}, g % 10 <> 0 from generate_series(1, ${REPORTS}) as g`
          : sql`with recursive s(g) as (select 1 union all select g + 1 from s where g < ${REPORTS})
                select 'SIG-PLAN-' || g, 1735689600000 + g * 60000, ${due}, g % 10 <> 0 from s`;
      await t.db.execute(
        sql`insert into signalements (code, signalement_at, due_day, is_treated, created_by_id, partenaire_id)
            select r.*, (select min(id) from utilisateurs), (select min(id) from partenaires) from (${rows}) as r`,
      );
    });
    await t.db.execute(sql`analyze`);
  }, 120_000);
  afterAll(async () => t?.drop());

  const plan = (query: { getSQL(): SQL }) => explainText(t.db, query);
  const resolved = (f: ListFilters) =>
    resolveFilters({ ...t.ctx, clock: { now: () => new Date('2026-11-26T09:00:00Z') } }, f, viewer);
  const noSort = (text: string) =>
    expect(text).not.toMatch(engine === 'postgres' ? /^\s*(->\s*)?(Incremental )?Sort\b/m : /TEMP B-TREE/);

  for (const echeance of ['en_retard', 'sous_7_jours'] as const) {
    it(`reads « ${echeance} » as a range of the due-day index, page and bounded count`, async () => {
      const r = await resolved({ echeance });
      const page = await plan(
        pageQuery(t.db, r, viewer, { page: 1, itemsPerPage: 20, order: { echeance: 'asc' } }, 'index'),
      );
      expect(page).toContain('signalements_due_day_idx');
      noSort(page);
      const count = await plan(boundedCountQuery(t.db, r, viewer, LIST_COUNT_CAP, 'index'));
      expect(count).toContain('signalements_due_day_idx');
    });
  }

  it('reads « En retard » in the list order from the date index alone, never from the table', async () => {
    const r = await resolved({ echeance: 'en_retard' });
    const page = await plan(pageQuery(t.db, r, viewer, { page: 1, itemsPerPage: 20 }, 'index'));
    // Whichever index the planner takes, the due day is in it: the reports that are not yet due are
    // skipped in the index (the newest are never due, and there are many of them).
    if (page.includes('signalements_signalement_at_idx')) {
      expect(page).toMatch(
        engine === 'postgres'
          ? /Index Only Scan Backward using signalements_signalement_at_idx/
          : /COVERING INDEX signalements_signalement_at_idx/,
      );
    } else {
      expect(page).toContain('signalements_due_day_idx');
    }
  });

  it('reads a page sorted by due day in the index order, without sorting every report', async () => {
    const r = await resolved({});
    for (const direction of ['asc', 'desc'] as const) {
      const page = await plan(
        pageQuery(t.db, r, viewer, { page: 1, itemsPerPage: 20, order: { echeance: direction } }, 'index'),
      );
      expect(page).toContain('signalements_due_day_idx');
      noSort(page);
    }
  });
});
