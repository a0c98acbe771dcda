import { BULK_MAX } from '#shared/constants';
import { BULK_TEXTS } from './bulk-texts';
import type { BulkSelection } from './use-bulk-selection';

/**
 * Once the whole page is selected, offers every report of the filter (up to BULK_MAX), as mail clients
 * do; says so when the filter holds more. When the list's total is only bounded, the preview counts them.
 */
export function SelectionBanner({
  selection,
  pageSize,
  total,
  totalExact,
}: {
  selection: BulkSelection;
  pageSize: number;
  total: number;
  totalExact: boolean;
}) {
  if (!selection.allOnPage || (total <= pageSize && totalExact)) return null;
  const tooLarge = totalExact && total > BULK_MAX;
  return (
    <div
      className="flex flex-wrap items-center gap-2 rounded-box bg-base-200 px-3 py-2 text-sm"
      data-testid="selection-banner"
    >
      {selection.wholeFilter ? (
        <>
          <span>{totalExact ? BULK_TEXTS.filterSelected(total) : BULK_TEXTS.filterSelectedUncounted}</span>
          <button type="button" className="btn btn-link btn-sm" onClick={selection.clear}>
            {BULK_TEXTS.clearSelection}
          </button>
        </>
      ) : (
        <>
          <span>{BULK_TEXTS.pageSelected(selection.codes.size)}</span>
          {!tooLarge ? (
            <button
              type="button"
              className="btn btn-link btn-sm"
              onClick={selection.selectFilter}
              data-testid="select-filter"
            >
              {totalExact ? BULK_TEXTS.selectFilter(total) : BULK_TEXTS.selectFilterUncounted}
            </button>
          ) : (
            <span className="text-base-content/70">{BULK_TEXTS.filterTooLarge}</span>
          )}
        </>
      )}
    </div>
  );
}
