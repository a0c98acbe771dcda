import { dispositionFileName, saveBlob } from '#web/lib/download';
import { toIsoDate } from '#web/lib/format';
import { ensureOk } from '#web/lib/http-errors';
import { toExportQuery, type ListFilters } from './list-url';

export const EXPORT_URL = '/api/signalements/export/xlsx';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface ExportProgress {
  /** Rows in the file, from X-Total-Count; null until the response headers arrive. */
  rows: number | null;
  bytes: number;
}

/** The file name the server gave (RFC 6266, plain or UTF-8 form), else signalements_{today}.xlsx. */
export function fileNameFrom(disposition: string | null, today = new Date()): string {
  return dispositionFileName(disposition) ?? `signalements_${toIsoDate(today)}.xlsx`;
}

/** '850 o', '12,4 Ko', '3,1 Mo' (French units). */
export function formatBytes(bytes: number): string {
  const format = (n: number) => new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 }).format(n);
  if (bytes < 1024) return `${bytes} o`;
  if (bytes < 1024 * 1024) return `${format(bytes / 1024)} Ko`;
  return `${format(bytes / (1024 * 1024))} Mo`;
}

export interface ExportOptions {
  /** « Inclure les notes internes »: a last column with the internal notes (off by default). */
  notesInternes?: boolean;
}

/** The export's URL: the current filters, and `notesInternes=true` only when the box is ticked. */
export function exportUrl(filters: ListFilters, options: ExportOptions = {}): string {
  const query = [toExportQuery(filters), options.notesInternes ? 'notesInternes=true' : '']
    .filter(Boolean)
    .join('&');
  return `${EXPORT_URL}${query ? `?${query}` : ''}`;
}

/**
 * Downloads the xlsx of the current filters: streamed by the server, read chunk by chunk so the button
 * can show how far it got, then handed to the browser as a blob. Resolves with the number of rows; a refused
 * answer rejects with a DownloadError in French (the server's message, else its status's reason).
 */
export async function downloadExport(
  filters: ListFilters,
  onProgress: (progress: ExportProgress) => void,
  options: ExportOptions = {},
): Promise<number> {
  const response = await ensureOk(await fetch(exportUrl(filters, options), { credentials: 'include' }));
  const header = response.headers.get('X-Total-Count');
  const rows = header !== null && Number.isFinite(Number(header)) ? Number(header) : null;
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  onProgress({ rows, bytes });
  const reader = response.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.byteLength;
      onProgress({ rows, bytes });
    }
  } else {
    const buffer = new Uint8Array(await response.arrayBuffer());
    chunks.push(buffer);
    onProgress({ rows, bytes: buffer.byteLength });
  }
  const blob = new Blob(chunks, { type: response.headers.get('Content-Type') ?? XLSX_TYPE });
  saveBlob(blob, fileNameFrom(response.headers.get('Content-Disposition')));
  return rows ?? 0;
}
