import type { JournalFilters } from '#shared/schemas/journal';
import { dispositionFileName, saveBlob } from '#web/lib/download';
import { businessToday } from '#web/lib/format';
import { filtersQuery } from './journal-url';
import { JOURNAL_TEXT } from './journal-text';

export const JOURNAL_EXPORT_URL = '/api/journal-acces/export/xlsx';

/** The REST facade's error body is { status, message } with a French message; anything else: the status. */
async function failureMessage(response: Response): Promise<string> {
  try {
    const body: unknown = await response.json();
    if (
      body &&
      typeof body === 'object' &&
      'message' in body &&
      typeof body.message === 'string' &&
      body.message
    ) {
      return body.message;
    }
  } catch {
    // Not JSON: the status says enough.
  }
  return JOURNAL_TEXT.httpError(response.status);
}

/** Downloads the xlsx of the filtered log (the server logs the export itself). Resolves with its row count. */
export async function downloadJournalExport(filters: JournalFilters): Promise<number> {
  const query = filtersQuery(filters);
  const response = await fetch(`${JOURNAL_EXPORT_URL}${query ? `?${query}` : ''}`, {
    credentials: 'include',
  });
  if (!response.ok) throw new Error(await failureMessage(response));
  const header = response.headers.get('X-Total-Count');
  const rows = header !== null && Number.isFinite(Number(header)) ? Number(header) : 0;
  const blob = await response.blob();
  const fileName =
    dispositionFileName(response.headers.get('Content-Disposition')) ??
    `journal-des-acces-${businessToday()}.xlsx`;
  saveBlob(blob, fileName);
  return rows;
}
