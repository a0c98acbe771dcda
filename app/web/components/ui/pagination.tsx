import { MAX_PAGE_LINKS } from '#shared/constants';
import { formatNumber } from '#web/lib/format';
import { ChevronLeftIcon, ChevronRightSmallIcon } from './more-icons';
import { pageCount, pageItems } from './pagination-items';

export interface PaginationProps {
  /** 1-based current page. */
  page: number;
  totalItems: number;
  /** False when totalItems is a lower bound (the report list stops counting, decision 0022). */
  totalExact?: boolean;
  pageSize: number;
  onPageChange: (page: number) => void;
  /** False when the page already shows its own total line (the journal's), so the total is not said twice. */
  showTotal?: boolean;
  'data-testid'?: string;
}

/**
 * Spec §2: 'Total: N élément(s)' and 'Page X sur Y'; with more than one page, at most 5 page numbers
 * (ellipsis for the others) between previous and next buttons. When the total is a lower bound, both
 * lines say « plus de » and the next button stays enabled past the last page known.
 */
export function Pagination({
  page,
  totalItems,
  totalExact = true,
  pageSize,
  onPageChange,
  showTotal = true,
  'data-testid': testId = 'pagination',
}: PaginationProps) {
  const totalPages = pageCount(totalItems, pageSize);
  const current = Math.min(Math.max(1, page), totalPages);
  return (
    <div
      className={`flex flex-col items-center gap-3 text-sm sm:flex-row ${showTotal ? 'justify-between' : 'justify-end'}`}
      data-testid={testId}
    >
      {showTotal && (
        <p className="text-base-content/70" data-testid="pagination-total">
          Total: {totalExact ? '' : 'plus de '}
          {formatNumber(totalItems)} élément(s)
        </p>
      )}
      <div className="flex flex-wrap items-center justify-center gap-3">
        <span className="text-base-content/70" data-testid="pagination-page">
          Page {formatNumber(current)} sur {totalExact ? '' : 'plus de '}
          {formatNumber(totalPages)}
        </span>
        {totalPages > 1 && (
          <nav aria-label="Pagination" className="join">
            <button
              type="button"
              className="join-item btn btn-sm"
              disabled={current <= 1}
              onClick={() => onPageChange(current - 1)}
            >
              <ChevronLeftIcon />
              <span className="sr-only sm:not-sr-only">Page précédente</span>
            </button>
            {pageItems(current, totalPages, MAX_PAGE_LINKS).map((item) =>
              typeof item === 'number' ? (
                <button
                  key={item}
                  type="button"
                  className={`join-item btn btn-sm ${item === current ? 'btn-primary' : ''}`}
                  aria-label={`Page ${item}`}
                  aria-current={item === current ? 'page' : undefined}
                  onClick={() => item !== current && onPageChange(item)}
                >
                  {item}
                </button>
              ) : (
                <span key={item} className="join-item btn btn-sm btn-disabled" aria-hidden="true">
                  …
                </span>
              ),
            )}
            <button
              type="button"
              className="join-item btn btn-sm"
              disabled={totalExact && current >= totalPages}
              onClick={() => onPageChange(current + 1)}
            >
              <span className="sr-only sm:not-sr-only">Page suivante</span>
              <ChevronRightSmallIcon />
            </button>
          </nav>
        )}
      </div>
    </div>
  );
}
