import { useState } from 'react';
import { PAGE_SIZE_SIGNALEMENTS } from '#shared/constants';
import { apiFilters, type ListFilters } from '../list-url';
import { BULK_TEXTS } from './bulk-texts';
import { BulkDialog, type BulkSelectionInput } from './bulk-dialog';
import { BulkToolbar, type BulkKind } from './bulk-toolbar';
import { SelectionBanner } from './selection-banner';
import type { BulkSelection } from './use-bulk-selection';

/**
 * The bulk actions above the list (docs/decisions/0035-bulk-actions.md): the banner that extends the
 * selection to the filter, the toolbar while something is selected, and the action's dialog. The server
 * decides who may act; a refusal shows in the dialog before anything is confirmed.
 */
export function BulkActions({
  selection,
  filters,
  total,
  totalExact,
}: {
  selection: BulkSelection;
  filters: ListFilters;
  total: number;
  totalExact: boolean;
}) {
  const [kind, setKind] = useState<BulkKind | null>(null);
  const count = selection.wholeFilter ? total : selection.codes.size;
  const input: BulkSelectionInput = selection.wholeFilter
    ? { filtre: apiFilters(filters) }
    : { codes: [...selection.codes] };
  if (count === 0 && kind === null) return null;
  return (
    <div className="flex flex-col gap-2">
      <BulkToolbar
        label={
          selection.wholeFilter && !totalExact ? BULK_TEXTS.selectedUncounted : BULK_TEXTS.selected(count)
        }
        onAction={setKind}
      />
      <SelectionBanner
        selection={selection}
        pageSize={PAGE_SIZE_SIGNALEMENTS}
        total={total}
        totalExact={totalExact}
      />
      <BulkDialog
        key={kind ?? ''}
        kind={kind}
        selection={input}
        onClose={() => setKind(null)}
        onDone={selection.clear}
      />
    </div>
  );
}
