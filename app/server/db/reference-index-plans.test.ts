// A filter on a report's reference (partner, creator, place, channel, status, level, result) is read from its
// index alone, id included (docs/decisions/0060): its page in the list's order and, beside another filter,
// its bounded count. SQLite's indexes carry the rowid; PostgreSQL's carry it once the id is their last column,
// without which every match was fetched from the table (9,000 pages for a partner and a subject at 1,000,000
// reports). The plans are read from EXPLAIN, not timed: 60,000 reports over ten partners, one in three
// with the subject FRAUDE, after VACUUM ANALYZE (PostgreSQL reads an index alone on pages it knows visible).
// PostgreSQL's pool plans without parallel workers: at 1,000,000 reports a parallel hash of the partner's
// reports took 90 ms where its index read until the cap takes 8 (server/db/postgres/open.ts).
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_COUNT_CAP } from '#shared/constants';
import { testEngines, type TestDatabase } from '#tests/helpers/db';
import { explainText, PLAN_VIEWER, planDatabase } from '#tests/helpers/plans';
import { boundedCountQuery, pageQuery, resolveFilters } from '../domains/signalements/queries';
import type { ListFilters } from '../domains/signalements/list-filters';

const REPORTS = 60_000;
const PARTNERS = 10;
const partner = 'PLAN2';
const viewer = PLAN_VIEWER;

describe.each(await testEngines())('reference index plans on %s', (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await planDatabase(engine);
    await t.db.transaction(async () => {
      for (let i = 1; i <= PARTNERS; i++) {
        await t.db.execute(
          sql`insert into partenaires (code, designation, initial, color)
              values (${`PLAN${i}`}, ${`Partenaire ${i}`}, 'P', '#123456')`,
        );
      }
      const rows =
        engine === 'postgres'
          ? sql`select g, timestamptz '2025-01-01' + g * interval '1 minute' as at from generate_series(1, ${REPORTS}) as g`
          : sql`with recursive s(g) as (select 1 union all select g + 1 from s where g < ${REPORTS})
                select g, 1735689600000 + g * 60000 as at from s`;
      // The reports spread over the partners in turn, as the demo data spreads them.
      await t.db.execute(
        sql`insert into signalements (id, code, signalement_at, created_by_id, partenaire_id)
            select r.g, 'SIG-PLAN-' || r.g, r.at, (select min(id) from utilisateurs),
                   (select id from partenaires where code = 'PLAN' || (1 + r.g % ${sql.raw(String(PARTNERS))}))
            from (${rows}) as r`,
      );
      await t.db.execute(
        sql`insert into signalement_subjects (signalement_id, subject_id)
            select id, (select id from subjects where code = 'FRAUDE') from signalements where id % 3 = 0`,
      );
    });
    await t.db.execute(engine === 'postgres' ? sql`vacuum analyze` : sql`analyze`);
  }, 120_000);
  afterAll(async () => t?.drop());

  const plan = (query: { getSQL(): SQL }) => explainText(t.db, query);
  const resolved = (f: ListFilters) => resolveFilters(t.ctx, f, viewer);
  // Read from the partner's index alone, never from the table (no heap fetch on PostgreSQL, a covering
  // index on SQLite).
  const indexAlone = (text: string) => {
    expect(text).toMatch(
      engine === 'postgres'
        ? /Index Only Scan (Backward )?using signalements_partenaire_idx/
        : /COVERING INDEX signalements_partenaire_idx/,
    );
    expect(text).not.toMatch(engine === 'postgres' ? /Seq Scan on signalements/ : /SCAN signalements\b/);
  };

  it('reads the page of a partner and a subject from the partner’s index alone, in the list order', async () => {
    const r = await resolved({ 'partenaire.code': [partner], 'subjects.code': ['FRAUDE'] });
    const page = await plan(pageQuery(t.db, r, viewer, { page: 1, itemsPerPage: 20 }, 'index'));
    indexAlone(page);
  });

  it('counts a partner and a subject up to the cap from the partner’s index alone', async () => {
    const r = await resolved({ 'partenaire.code': [partner], 'subjects.code': ['FRAUDE'] });
    indexAlone(await plan(boundedCountQuery(t.db, r, viewer, LIST_COUNT_CAP, 'index')));
  });

  it.runIf(engine === 'postgres')('plans without parallel workers on the pool’s connections', async () => {
    const [row] = await t.db.rows<{ max_parallel_workers_per_gather: string }>(
      sql`show max_parallel_workers_per_gather`,
    );
    expect(row!.max_parallel_workers_per_gather).toBe('0');
    const r = await resolved({ 'partenaire.code': [partner], 'subjects.code': ['FRAUDE'] });
    expect(await plan(boundedCountQuery(t.db, r, viewer, LIST_COUNT_CAP, 'index'))).not.toMatch(
      /Gather|Parallel/,
    );
  });

  it('reads the page of one partner from its index alone', async () => {
    const r = await resolved({ 'partenaire.code': [partner] });
    indexAlone(await plan(pageQuery(t.db, r, viewer, { page: 1, itemsPerPage: 20 }, 'index')));
  });
});
