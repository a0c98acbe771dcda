// The list's page: its order and its slice (order, limit, offset) of the reports the filters keep
// (list-filters.ts); the totals are queries.ts's.
import { asc, desc, eq } from 'drizzle-orm';
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
