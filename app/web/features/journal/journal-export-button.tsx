import { useState } from 'react';
import type { JournalFilters } from '#shared/schemas/journal';
import { DownloadIcon } from '#web/components/ui/more-icons';
import { useToast } from '#web/components/ui/toast';
import { downloadFailureMessage } from '#web/lib/http-errors';
import { downloadJournalExport } from './journal-export';
import { JOURNAL_TEXT } from './journal-text';

/** 'Exporter (xlsx)': the log with the filters shown, as the report list's export does it. */
export function JournalExportButton({ filters }: { filters: JournalFilters }) {
  const toast = useToast();
  const [pending, setPending] = useState(false);

  const run = async () => {
    setPending(true);
    try {
      const rows = await downloadJournalExport(filters);
      toast.success(JOURNAL_TEXT.exported(rows));
    } catch (error) {
      toast.error(JOURNAL_TEXT.exportFailed(downloadFailureMessage(error)));
    } finally {
      setPending(false);
    }
  };

  return (
    <button
      type="button"
      className="btn btn-outline"
      disabled={pending}
      aria-busy={pending}
      data-testid="journal-export"
      onClick={() => void run()}
    >
      {pending ? (
        <span className="loading loading-spinner loading-sm" aria-hidden="true" />
      ) : (
        <DownloadIcon />
      )}
      {pending ? JOURNAL_TEXT.exporting : JOURNAL_TEXT.export}
    </button>
  );
}
