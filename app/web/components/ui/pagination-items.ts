import { MAX_PAGE_LINKS } from '#shared/constants';

export type PageItem = number | 'ellipsis-start' | 'ellipsis-end';

/** Number of pages for `totalItems`; an empty list still has one page ('Page 1 sur 1'). */
export function pageCount(totalItems: number, pageSize: number): number {
  return Math.max(1, Math.ceil(Math.max(0, totalItems) / Math.max(1, pageSize)));
}

/**
 * The page links of spec §2: at most `max` page numbers. With more pages, the first and the last stay
 * reachable and an ellipsis stands for each hidden run: 1 2 3 4 … 10, 1 … 4 5 6 … 10, 1 … 7 8 9 10.
 */
export function pageItems(page: number, totalPages: number, max = MAX_PAGE_LINKS): PageItem[] {
  const total = Math.max(1, Math.floor(totalPages));
  const current = Math.min(Math.max(1, Math.floor(page)), total);
  if (total <= max) return range(1, total);
  // Two slots go to the first and last pages; the middle window holds the rest.
  const inner = Math.max(1, max - 2);
  if (current <= inner) return [...range(1, max - 1), 'ellipsis-end', total];
  if (current > total - inner) return [1, 'ellipsis-start', ...range(total - max + 2, total)];
  const before = Math.floor((inner - 1) / 2);
  const start = current - before;
  return [1, 'ellipsis-start', ...range(start, start + inner - 1), 'ellipsis-end', total];
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let n = from; n <= to; n++) out.push(n);
  return out;
}
