import { useState } from 'react';
import { DownloadIcon } from '#web/components/ui/more-icons';
import { useToast } from '#web/components/ui/toast';
import { formatNumber } from '#web/lib/format';
import { downloadFailureMessage } from '#web/lib/http-errors';
import { TOASTS } from '../labels';
import { downloadExport, formatBytes, type ExportProgress } from './export';
import type { ListFilters } from './list-url';

/**
 * 'Exporter' → the xlsx of the current filters, with the §8 toasts and a live byte count meanwhile. The box
 * « Inclure les notes internes » adds them in a last column (docs/decisions/0029-internal-notes.md).
 */
export function ExportButton({ filters }: { filters: ListFilters }) {
  const toast = useToast();
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [notesInternes, setNotesInternes] = useState(false);

  const run = async () => {
    setProgress({ rows: null, bytes: 0 });
    try {
      const rows = await downloadExport(filters, setProgress, { notesInternes });
      toast.success(TOASTS.exported(rows));
    } catch (error) {
      toast.error(TOASTS.exportFailed(downloadFailureMessage(error)));
    } finally {
      setProgress(null);
    }
  };

  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex flex-wrap items-center justify-end gap-3">
        <label className="label cursor-pointer gap-2 text-sm">
          <input
            type="checkbox"
            className="checkbox checkbox-sm"
            checked={notesInternes}
            disabled={progress !== null}
            onChange={(event) => setNotesInternes(event.target.checked)}
            data-testid="export-notes"
          />
          Inclure les notes internes
        </label>
        <button
          type="button"
          className="btn btn-outline"
          disabled={progress !== null}
          aria-busy={progress !== null}
          data-testid="export-button"
          onClick={() => void run()}
        >
          {progress ? (
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
          ) : (
            <DownloadIcon />
          )}
          {progress ? 'Export en cours...' : 'Exporter'}
        </button>
      </div>
      {progress && (
        <p
          role="status"
          aria-live="polite"
          className="text-xs text-base-content/70"
          data-testid="export-progress"
        >
          {progress.rows === null
            ? 'Préparation du fichier...'
            : `${formatNumber(progress.rows)} signalement(s) · ${formatBytes(progress.bytes)} reçus`}
        </p>
      )}
    </div>
  );
}
