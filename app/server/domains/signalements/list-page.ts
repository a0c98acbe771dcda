// The list's page: its order and its slice (order, limit, offset) of the reports the filters keep
// (list-filters.ts); the totals are queries.ts's.
import { asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { PAGE_SIZE_SIGNALEMENTS } from '#shared/constants';
import type { ReadOnlyDatabase } from '#server/db/client';
import type { SessionUser } from '../auth/session';
import { filterWhere, type ListFilters } from './list-filters';
import type { ResolvedFilters } from './list-filters-resolve';

/** The statement of one page of the list: the ids, in the list's order. */
export function pageQuery(
  db: ReadOnlyDatabase,
  r: ResolvedFilters,
  viewer: SessionUser,
  q: { order?: ListFilters['order']; page: number; itemsPerPage: number },
  strategy: 'index' | 'scan',
) {
  const s = db.t.signalements;
  // Common words read in an indexed order: the trigram index kept out of the plan, as for the bounded
  // count (PostgreSQL's estimate for several common words is their product, low enough to prefer the
  // bitmap of every match and a sort). Sorted by partner, no index gives the order: the bitmap stays.
  const byIndexedOrder = Object.keys(q.order ?? {})[0] !== 'partenaire.designation';
  const searchStrategy = strategy === 'scan' && byIndexedOrder ? 'sequential' : strategy;
  return db.read
    .select({ id: s.id })
    .from(s)
    .where(filterWhere(db, r, { mode: 'page', searchStrategy, viewer }))
    .orderBy(...orderBy(db, q.order))
    .limit(q.itemsPerPage)
    .offset((q.page - 1) * q.itemsPerPage);
}

/**
 * Which reports a page holds, for its loader: the ids its statement answered, in the list's order, or, for
 * the list as it opens (the first page of the whole list, of the usual size, in an order an index gives),
 * that statement itself, which each of the loader's statements finds again as a sub-select: the rows are
 * then read beside the total instead of after the page, one round trip fewer. Its text depends on the order
 * alone (`name`), and holds no parameter, so that PostgreSQL plans each of those statements once per
 * connection (docs/decisions/0063-first-page-in-one-wave.md).
 */
export type PageSource =
  | { ids: number[] }
  | {
      name: string;
      statement: () => SQL;
      order: () => SQL[];
      /** The whole list's total is asked with the page (listPage, decision 0067). */
      wholeTotal?: true;
    };

/**
 * The orders an index gives, each as its part of a prepared statement's name ([a-z_], prepared.ts). Sorted
 * by partner, a page sorts every report: read once, by the ids' path.
 */
export const ORDER_NAMES: Record<string, string> = {
  signalementAt: 'date',
  code: 'code',
  echeance: 'echeance',
};

/**
 * The PageSource of a page when it is the list as it opens (PageSource); else null. Only a page whose own
 * statement (pageQuery) would have no condition: whatever a filter or a rule adds to the page, the page
 * is then read by the ids' path, never found again without it.
 */
export function firstPageSource(
  db: ReadOnlyDatabase,
  r: ResolvedFilters,
  viewer: SessionUser,
  q: { order?: ListFilters['order']; page: number; itemsPerPage: number },
): Extract<PageSource, { name: string }> | null {
  if (q.page !== 1 || q.itemsPerPage !== PAGE_SIZE_SIGNALEMENTS) return null;
  if (filterWhere(db, r, { mode: 'page', searchStrategy: 'index', viewer }) !== undefined) return null;
  const [field, direction] = Object.entries(q.order ?? {})[0] ?? ['signalementAt', 'desc'];
  // Own keys only: an order the schema did not check (« constructor ») is no index's.
  const orderName = Object.hasOwn(ORDER_NAMES, field) ? ORDER_NAMES[field] : undefined;
  if (!orderName) return null;
  const dir = direction === 'asc' ? 'asc' : 'desc';
  const order = () => orderBy(db, { [field]: dir } as ListFilters['order']);
  const s = db.t.signalements;
  return {
    name: `first_page_${orderName}_${dir}`,
    // The size as a constant of the text: a LIMIT parameter would be costed in PostgreSQL's generic plan
    // as a tenth of the table, so each run would be planned again (decision 0063).
    statement: () =>
      sql`select ${s.id} from ${s} order by ${sql.join(order(), sql`, `)} limit ${sql.raw(String(PAGE_SIZE_SIGNALEMENTS))}`,
    order,
  };
}

/** The page's ids in the list's order (tests, benchmarks: the list's loader finds the page itself). */
export async function pageIds(db: ReadOnlyDatabase, page: PageSource): Promise<number[]> {
  if ('ids' in page) return page.ids;
  const rows = await db.rows<{ id: unknown }>(page.statement());
  return rows.map((row) => Number(row.id));
}

/** ORDER BY for the list: one field of §7, ties broken by id so pages never overlap. */
export function orderBy(db: ReadOnlyDatabase, order: ListFilters['order']) {
  const { signalements: s, partenaires } = db.t;
  const [field, direction] = (Object.entries(order ?? {})[0] ?? ['signalementAt', 'desc']) as [
    string,
    'asc' | 'desc',
  ];
  const dir = direction === 'asc' ? asc : desc;
  switch (field) {
    case 'code':
      return [dir(s.code)];
    case 'partenaire.designation':
      return [
        dir(
          db.read
            .select({ d: partenaires.designation })
            .from(partenaires)
            .where(eq(partenaires.id, s.partenaireId)),
        ),
        dir(s.signalementAt),
        dir(s.id),
      ];
    case 'echeance':
      // The due-day index (due_day, id): reports without a deadline hold NO_DUE_DAY, last in ascending
      // order (docs/decisions/0032).
      return [dir(s.dueDay), dir(s.id)];
    default:
      return [dir(s.signalementAt), dir(s.id)];
  }
}
