import type { JournalFilters } from '#shared/schemas/journal';
import { dispositionFileName, saveBlob } from '#web/lib/download';
import { businessToday } from '#web/lib/format';
import { ensureOk } from '#web/lib/http-errors';
import { filtersQuery } from './journal-url';

export const JOURNAL_EXPORT_URL = '/api/journal-acces/export/xlsx';

/**
 * Downloads the xlsx of the filtered log (the server logs the export itself). Resolves with its row count;
 * a refused answer rejects with a DownloadError in French.
 */
export async function downloadJournalExport(filters: JournalFilters): Promise<number> {
  const query = filtersQuery(filters);
  const response = await ensureOk(
    await fetch(`${JOURNAL_EXPORT_URL}${query ? `?${query}` : ''}`, { credentials: 'include' }),
  );
  const header = response.headers.get('X-Total-Count');
  const rows = header !== null && Number.isFinite(Number(header)) ? Number(header) : 0;
  const blob = await response.blob();
  const fileName =
    dispositionFileName(response.headers.get('Content-Disposition')) ??
    `journal-des-acces-${businessToday()}.xlsx`;
  saveBlob(blob, fileName);
  return rows;
}
