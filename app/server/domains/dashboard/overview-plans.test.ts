// The staff figures and the alerts of the period analysis read indexes, not the whole table
// (docs/decisions/0012), on both engines: the plans are read from EXPLAIN, not timed. 30,000 reports over
// three years, nearly all with a niveau, one in ten open (half without statut, half of a statut of kind open) with a due day, the
// others closed; three in four assigned to one of ten users; after ANALYZE.
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayNumber } from '#shared/calendar';
import { NO_DUE_DAY } from '#shared/constants';
import { createTestDatabase, testEngines, type TestDatabase } from '#tests/helpers/db';
import { explainText } from '#tests/helpers/plans';
import { seed } from '#server/db/seed/index';
import { alertsSql, statutIdsSql, topUsersSql, type StatutIds } from './overview-queries';

const REPORTS = 30_000;
const TODAY = dayNumber('2026-11-26');

describe.each(await testEngines())('period analysis plans on %s', (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
    await seed(t.db);
    await t.db.transaction(async () => {
      await t.db.execute(
        sql`insert into utilisateurs (code, email, nom_prenom, role_id)
            select 'USR-PLAN-' || n, 'plan' || n || '@example.mg', 'Plan ' || n, (select min(id) from utilisateur_roles)
            from (select 1 as n union all select 2 union all select 3 union all select 4 union all select 5
              union all select 6 union all select 7 union all select 8 union all select 9 union all select 10) as u`,
      );
      const statut = sql.raw(`case when g % 20 = 0 then null
        when g % 20 = 10 then (select min(id) from statuts where kind = 'open')
        else (select min(id) from statuts where kind = 'closed') end`);
      const due = sql.raw(
        `case when g % 10 = 0 then ${TODAY - 365} + (g * 7919) % 730 else ${NO_DUE_DAY} end`,
      );
      const niveau = sql.raw(`case when g % 50 = 0 then null else (select min(id) from niveaux) end`);
      const rows =
        engine === 'postgres'
          ? sql`select 'SIG-PLAN-' || g, timestamptz '2024-01-01' + g * interval '50 minutes', ${statut}, ${due}, g % 10 <> 0, ${niveau} from generate_series(1, ${REPORTS}) as g`
          : sql`with recursive s(g) as (select 1 union all select g + 1 from s where g < ${REPORTS})
                select 'SIG-PLAN-' || g, 1704067200000 + g * 3000000, ${statut}, ${due}, g % 10 <> 0, ${niveau} from s`;
      await t.db.execute(
        sql`insert into signalements (code, signalement_at, statut_id, due_day, is_treated, niveau_id, created_by_id, partenaire_id)
            select r.*, (select min(id) from utilisateurs), (select min(id) from partenaires) from (${rows}) as r`,
      );
      await t.db.execute(
        sql`insert into signalement_assignees (signalement_id, user_id, assigned_at)
            select s.id, u.id, s.signalement_at from signalements as s
            join utilisateurs as u on u.code = 'USR-PLAN-' || (1 + s.id % 10)
            where s.id % 4 <> 0`,
      );
    });
    await t.db.execute(sql`analyze`);
  }, 120_000);
  afterAll(async () => t?.drop());

  const plan = (query: SQL) => explainText(t.db, query);
  const statuts = async (): Promise<StatutIds> => {
    const rows = await t.db.rows(statutIdsSql(t.db));
    const ids = (open: boolean) => rows.filter((r) => (r.kind === 'open') === open).map((r) => Number(r.id));
    return { open: ids(true), done: ids(false) };
  };
  const noFullScan = (text: string) =>
    expect(text).not.toMatch(engine === 'postgres' ? /Seq Scan on signalements\b/ : /\bSCAN signalements\b/);

  it('counts the alerts from the niveau, due-day and statut indexes', async () => {
    const text = await plan(alertsSql(t.db, TODAY, await statuts()));
    noFullScan(text);
    expect(text).toContain('signalements_due_day_idx');
    expect(text).toContain('signalements_statut_idx');
  });

  it('ranks the staff from the month of the signalement_at range and the open reports of the statut index', async () => {
    const range = { start: new Date('2025-06-01T00:00:00Z'), end: new Date('2025-06-20T00:00:00Z') };
    const text = await plan(topUsersSql(t.db, range, TODAY, await statuts()));
    noFullScan(text);
    expect(text).toContain('signalements_statut_idx');
  });

  it('counts what a plain reading of the rows counts', async () => {
    const [row] = await t.db.rows(alertsSql(t.db, TODAY, await statuts()));
    const [plain] = await t.db.rows(
      sql`select
        (select count(*) from signalements as s where s.is_treated = ${engine === 'postgres' ? sql`false` : sql`0`}
          and not exists (select 1 from signalement_assignees as a where a.signalement_id = s.id)) as unassigned,
        (select count(*) from signalements as s where s.due_day < ${TODAY}) as overdue`,
    );
    const unassigned = t.db.dialect.count(plain?.unassigned);
    expect(unassigned).toBeGreaterThan(0);
    expect(t.db.dialect.count(row?.unassigned)).toBe(unassigned);
    expect(t.db.dialect.count(row?.overdue)).toBe(t.db.dialect.count(plain?.overdue));
  });
});
