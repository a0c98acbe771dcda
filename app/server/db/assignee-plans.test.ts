// « Assigné à » reads the assignees the way their number calls for (list-filters' 'assignees.code'), on
// both engines, read from EXPLAIN, not timed. 20,000 reports; one user holds every fifth (4,000, above
// DENSE_ASSIGNMENTS), another fifty:
// - the busy user's page walks the list's order and probes each report, stopping after a page: no sort;
// - the other's reports come from the (user_id, signalement_id) index, then are sorted.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testEngines, type TestDatabase } from '#tests/helpers/db';
import type { SessionUser } from '../domains/auth/session';
import { DENSE_ASSIGNMENTS } from '#server/domains/signalements/list-filters-resolve';
import { pageQuery, resolveFilters } from '../domains/signalements/queries';
import { seed } from './seed/index';

const REPORTS = 20_000;
const viewer: SessionUser = {
  id: 1,
  code: 'USR-BUSY',
  email: 'busy@example.mg',
  nomPrenom: 'Occupé',
  isEnabled: true,
  lastConnectionAt: null,
  role: { code: 'ROLE_USER', designation: 'Utilisateur' },
  twoFactorEnrolled: false,
};

describe.each(await testEngines())('« Assigné à » plans on %s', (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
    await seed(t.db);
    await t.db.transaction(async () => {
      await t.db.execute(
        sql`insert into utilisateurs (code, email, nom_prenom, role_id)
            select 'USR-BUSY', 'busy@example.mg', 'Occupé', min(id) from utilisateur_roles
            union all select 'USR-CALM', 'calm@example.mg', 'Calme', min(id) from utilisateur_roles`,
      );
      const rows =
        engine === 'postgres'
          ? sql`select 'SIG-ASG-' || g, timestamptz '2025-01-01' + g * interval '1 minute' from generate_series(1, ${REPORTS}) as g`
          : sql`with recursive s(g) as (select 1 union all select g + 1 from s where g < ${REPORTS})
                select 'SIG-ASG-' || g, 1735689600000 + g * 60000 from s`;
      await t.db.execute(
        sql`insert into signalements (code, signalement_at, created_by_id, partenaire_id)
            select r.*, (select min(id) from utilisateurs), (select min(id) from partenaires) from (${rows}) as r`,
      );
      await t.db.execute(
        sql`insert into signalement_assignees (signalement_id, user_id, assigned_at)
            select s.id, u.id, s.signalement_at from signalements as s, utilisateurs as u
            where (u.code = 'USR-BUSY' and s.id % 5 = 0) or (u.code = 'USR-CALM' and s.id % 400 = 1)`,
      );
    });
    await t.db.execute(sql`analyze`);
  }, 120_000);
  afterAll(async () => t?.drop());

  const plan = async (query: { getSQL(): ReturnType<typeof sql> }): Promise<string> => {
    if (engine === 'postgres') {
      const rows = await t.db.rows<{ 'QUERY PLAN': string }>(sql`explain ${query.getSQL()}`);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    }
    const rows = await t.db.rows<{ detail: string }>(sql`explain query plan ${query.getSQL()}`);
    return rows.map((r) => r.detail).join('\n');
  };
  const sorts = engine === 'postgres' ? /^\s*(->\s*)?(Incremental )?Sort\b/m : /TEMP B-TREE/;
  const pageOf = async (code: string) => {
    const r = await resolveFilters(t.ctx, { 'assignees.code': [code] }, viewer);
    return { r, text: await plan(pageQuery(t.db, r, viewer, { page: 1, itemsPerPage: 20 }, 'index')) };
  };

  it(`reads the page of a user holding more than ${DENSE_ASSIGNMENTS} reports in the list's order`, async () => {
    const { r, text } = await pageOf('USR-BUSY');
    expect(r.denseAssignments).toBe(true);
    expect(text).toContain('signalements_signalement_at_idx');
    expect(text).not.toMatch(sorts);
  });

  it('collects the reports of a user holding few from the assignees index', async () => {
    const { r, text } = await pageOf('USR-CALM');
    expect(r.denseAssignments).toBe(false);
    expect(text).toContain('signalement_assignees_user_idx');
  });
});
