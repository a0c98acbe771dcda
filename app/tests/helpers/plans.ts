// Query plans read from EXPLAIN (the plan tests: due days, the search, the dashboard's counts), not timed: one
// helper for both engines, so every plan test reads them alike.
import { sql, type SQL } from 'drizzle-orm';
import type { Engine, ReadOnlyDatabase } from '#server/db/client';
import type { SessionUser } from '#server/domains/auth/session';
import { seed } from '#server/db/seed/index';
import { createTestDatabase, type TestDatabase } from './db';

/** A statement, or a query builder that gives one. */
type Explained = SQL | { getSQL(): SQL };
const statement = (query: Explained): SQL => ('getSQL' in query ? query.getSQL() : query);

/**
 * The plan as text, one line per step: PostgreSQL's `EXPLAIN`, SQLite's `EXPLAIN QUERY PLAN` details
 * (« SEARCH signalements USING INDEX … », « USE TEMP B-TREE FOR ORDER BY »).
 */
export async function explainText(db: ReadOnlyDatabase, query: Explained): Promise<string> {
  if (db.engine === 'postgres') {
    const rows = await db.rows<{ 'QUERY PLAN': string }>(sql`explain ${statement(query)}`);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  }
  const rows = await db.rows<{ detail: string }>(sql`explain query plan ${statement(query)}`);
  return rows.map((r) => r.detail).join('\n');
}

/** A node of PostgreSQL's JSON plan. */
export interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Scan Direction'?: string;
  Plans?: PlanNode[];
}
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

/** Every node of PostgreSQL's plan (`EXPLAIN (FORMAT JSON)`), the root first, depth first. */
export async function explainNodes(db: ReadOnlyDatabase, query: Explained): Promise<PlanNode[]> {
  if (db.engine !== 'postgres') throw new Error('explainNodes: PostgreSQL only');
  const [row] = await db.rows<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    sql`explain (format json) ${statement(query)}`,
  );
  return nodes(row!['QUERY PLAN'][0]!.Plan);
}

/** The viewer of the plan tests' list queries: a plain user, the first account of their database. */
export const PLAN_VIEWER: SessionUser = {
  id: 1,
  code: 'USR-PLAN',
  email: 'plan@example.mg',
  nomPrenom: 'Plan',
  isEnabled: true,
  lastConnectionAt: null,
  role: { code: 'ROLE_USER', designation: 'Utilisateur' },
  twoFactorEnrolled: false,
};

/** A database of the plan tests: migrated, seeded, with PLAN_VIEWER's account (the first user). */
export async function planDatabase(engine: Engine): Promise<TestDatabase> {
  const t = await createTestDatabase(engine);
  await seed(t.db);
  await t.db.execute(
    sql`insert into utilisateurs (code, email, nom_prenom, role_id)
        select ${PLAN_VIEWER.code}, ${PLAN_VIEWER.email}, ${PLAN_VIEWER.nomPrenom}, min(id) from utilisateur_roles`,
  );
  return t;
}
