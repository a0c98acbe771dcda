// JSON-LD shapes of the REST facade (Hydra-style collections as API Platform returns them) and the
// §7 query-string conventions: page, itemsPerPage, order[field]=dir, field[]=a&field[]=b.
import { z } from 'zod';
import { invalid, MESSAGES } from '../errors';
import { isForbiddenKey } from './input-guard';

export interface Collection<T> {
  '@context': string;
  '@id': string;
  '@type': 'Collection';
  totalItems: number;
  /**
   * Only on lists that may stop counting (the reports, decision 0022): false when totalItems is a lower
   * bound (there are more than totalItems matches); the view then has no `last`.
   */
  totalItemsExact?: boolean;
  member: T[];
  view?: {
    '@id': string;
    '@type': 'PartialCollectionView';
    first: string;
    last?: string;
    next?: string;
    previous?: string;
  };
}

function withPage(path: string, query: URLSearchParams, page: number): string {
  const q = new URLSearchParams(query);
  q.set('page', String(page));
  return `${path}?${q.toString()}`;
}

export function collection<T>(
  resource: string,
  url: string,
  items: T[],
  total: number,
  paging?: { page: number; itemsPerPage: number; totalExact?: boolean },
): Collection<T> {
  const [path = url, search = ''] = url.split('?');
  const result: Collection<T> = {
    '@context': `/api/contexts/${resource}`,
    '@id': path,
    '@type': 'Collection',
    totalItems: total,
    ...(paging?.totalExact === undefined ? {} : { totalItemsExact: paging.totalExact }),
    member: items,
  };
  if (paging) {
    const query = new URLSearchParams(search);
    const exact = paging.totalExact !== false;
    const last = Math.max(1, Math.ceil(total / paging.itemsPerPage));
    result.view = {
      '@id': withPage(path, query, paging.page),
      '@type': 'PartialCollectionView',
      first: withPage(path, query, 1),
      ...(exact ? { last: withPage(path, query, last) } : {}),
      ...(!exact || paging.page < last ? { next: withPage(path, query, paging.page + 1) } : {}),
      ...(paging.page > 1 ? { previous: withPage(path, query, paging.page - 1) } : {}),
    };
  }
  return result;
}

/**
 * Normalises a parsed query string: `order[field]` → { order: { field } }, `a[after]` → { a: { after } },
 * `field[]` → arrays. Fastify's default parser leaves bracketed keys as they are.
 */
export function parseQuery(raw: Record<string, unknown>): Record<string, unknown> {
  // No prototype anywhere, and keys aimed at Object.prototype refused (the query-string parser
  // already refuses them; this keeps the function safe on its own).
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(raw)) {
    const list = key.match(/^(.+)\[\]$/);
    const nested = key.match(/^([^[]+)\[([^\]]+)\]$/);
    const names = list ? [list[1]!] : nested ? [nested[1]!, nested[2]!] : [key];
    if (names.some(isForbiddenKey)) throw invalid(MESSAGES.forbiddenKey);
    if (list) {
      out[list[1]!] = Array.isArray(value) ? value : [value];
    } else if (nested) {
      const group = (out[nested[1]!] ??= Object.create(null)) as Record<string, unknown>;
      group[nested[2]!] = value;
    } else {
      out[key] = value;
    }
  }
  return out;
}

export const paginationSchema = (defaultSize: number, maxSize = 500) =>
  z.object({
    page: z.coerce.number().int().min(1, { message: 'La page doit être un entier positif.' }).default(1),
    itemsPerPage: z.coerce
      .number()
      .int()
      .min(1, { message: "Le nombre d'éléments par page doit être un entier positif." })
      .max(maxSize, { message: `Au plus ${maxSize} éléments par page.` })
      .default(defaultSize),
  });
