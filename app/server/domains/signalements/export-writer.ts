// The xlsx export's writer, on exceljs's public streaming API only (docs/decisions/0031): run on the export's
// thread (export-thread.ts), so exceljs is loaded there and not in the serving thread. The sheet's columns and
// cell values are export.ts's.
import ExcelJS from 'exceljs';
import { Transform, type PassThrough } from 'node:stream';
import { wallClockReader, type BusinessCalendar } from '#shared/calendar';
import {
  COLUMNS,
  FORMULA_START,
  NOTES_COLUMN,
  type CellCalendar,
  type ExportOptions,
  type ExportRow,
} from './export';

/** One style object per kind of cell (exceljs indexes a style once per object); text: FORMULA_START. */
const PLAIN_STYLE: Partial<ExcelJS.Style> = {};
const DATE_STYLE: Partial<ExcelJS.Style> = { numFmt: 'dd/mm/yyyy' };
const TEXT_STYLE: Partial<ExcelJS.Style> = { numFmt: '@' };

/** The streaming writer's settings (scripts/bench-export-ceiling.ts times exceljs alone with the same). */
export const XLSX_WRITER_OPTIONS = {
  useStyles: true,
  useSharedStrings: false,
  // Level 1, zlib's fastest: the size exceljs's default already gave (25.9 MB for 100,000 reports);
  // level 6 makes the file about a fifth smaller for more time on the zip's thread.
  zip: { zlib: { level: 1 } },
};

/** Compressed bytes the writer may hold ahead of the reader before it waits (about 2,000 rows). */
export const XLSX_HIGH_WATER = 512 * 1024;
/**
 * Rows written between two turns of the event loop. exceljs's streaming writer takes no backpressure
 * (its row.commit() returns nothing) and its zip entry is compressed by zlib off the thread, one chunk
 * per turn of the event loop: a turn every 16 rows (about 40 KB of sheet XML, less than one 64 KB chunk)
 * lets the compression keep up with the rows, so the uncompressed sheet never piles up in front of it.
 */
const ROWS_PER_TURN = 16;

/**
 * Rows the writer may add without the compression giving back a byte (about 2.4 MB of sheet XML): on a
 * busy machine zlib's thread may fall behind the rows, and this bounds what waits in front of it.
 */
const ROWS_AHEAD_OF_ZIP = 1000;

/** Resolves at the next `event` of `stream`, or when it closes. */
function next(stream: Transform, event: 'data' | 'zipped') {
  return new Promise<void>((resolve) => {
    const done = () => {
      stream.off(event, done).off('close', done);
      resolve();
    };
    stream.on(event, done).on('close', done);
  });
}

/** Until `stream` has read below `limit`, or is gone. */
async function drained(stream: Transform, limit: number) {
  while (stream.readableLength > limit && !stream.destroyed) await next(stream, 'data');
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes the workbook of `batches` to `out` with exceljs's public streaming writer only. The zip comes out
 * into a buffer of its own (`zipped`, piped to `out`), large enough that the zip writer never waits on it:
 * the bytes not yet read are all in `zipped`, where the writer sees them, and it stops adding rows while
 * more than XLSX_HIGH_WATER of them wait (a slow download slows the export instead of filling memory).
 */
export async function writeXlsx(
  out: PassThrough,
  batches: AsyncIterable<ExportRow[]>,
  calendar: BusinessCalendar,
  options: ExportOptions = {},
): Promise<number> {
  const columns = options.notesInternes ? [...COLUMNS, NOTES_COLUMN] : COLUMNS;
  const cells: CellCalendar = { wallClock: wallClockReader(calendar.zone) };
  // Counts the rows written since the zip last came out (ROWS_AHEAD_OF_ZIP).
  let rowsAhead = 0;
  const zipped = new Transform({
    highWaterMark: 8 * XLSX_HIGH_WATER,
    transform(chunk: Buffer, _encoding, callback) {
      rowsAhead = 0;
      this.emit('zipped');
      callback(null, chunk);
    },
  });
  zipped.pipe(out);
  out.once('close', () => zipped.destroy());
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: zipped, ...XLSX_WRITER_OPTIONS });
  workbook.creator = 'Signalements';
  const sheet = workbook.addWorksheet('Signalements', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({
    header: c.header,
    width: c.width,
    style: c.date ? DATE_STYLE : {},
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  const styles = columns.map((c) => (c.date ? DATE_STYLE : PLAIN_STYLE));
  let written = 0;
  for await (const rows of batches) {
    for (const r of rows) {
      const values = columns.map((column) => column.value(r, cells));
      const row = sheet.addRow(values);
      for (let i = 0; i < values.length; i++) {
        // One style object per kind of cell: exceljs indexes a style once per object, not once per cell
        // (safeCell's test, without its object per cell).
        const value = values[i];
        row.getCell(i + 1).style =
          typeof value === 'string' && FORMULA_START.test(value) ? TEXT_STYLE : styles[i]!;
      }
      row.commit();
      rowsAhead++;
      if (++written % ROWS_PER_TURN === 0) {
        await turn();
        await drained(zipped, XLSX_HIGH_WATER);
        while (rowsAhead > ROWS_AHEAD_OF_ZIP && !zipped.destroyed) await next(zipped, 'zipped');
        // The download is gone (closed or failed): nobody will read the rest.
        if (zipped.destroyed) throw new Error('Export abandonné : le téléchargement est fermé.');
      }
    }
  }
  sheet.commit();
  await workbook.commit();
  return written;
}
