// The xlsx writer's ceiling, beside bench:reports' export: the same sheet (its 32 columns, its styles,
// exceljs's public streaming writer at the export's settings) written from rows held in memory, so no
// database, thread or download takes part. Two figures: our writer (export-writer.ts: the cells' values,
// their styles, exceljs, the zip) and exceljs alone (the same values computed beforehand, then only
// addRow, the shared style objects and commit). The second bounds what any change on our side can reach.
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { businessCalendar, wallClockReader } from '#shared/calendar';
import { COLUMNS, type ExportRow } from '#server/domains/signalements/export';
import { writeXlsx, XLSX_WRITER_OPTIONS } from '#server/domains/signalements/export-writer';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A report as the export's batches give it, with values of a plausible size. */
function syntheticRow(i: number): ExportRow {
  const at = new Date(Date.UTC(2025, 0, 1) + i * 61_000);
  return {
    item: {
      code: `SIG-2025-${String(i).padStart(6, '0')}`,
      signalementAt: at,
      createdAt: at,
      closeAt: i % 3 === 0 ? at : null,
      lastActionAt: at,
      echeance: '2026-01-15',
      partenaire: { designation: 'Bureau indépendant anti-corruption' },
      canalPrincipal: { designation: 'Téléphone' },
      autreCanalPrincipal: null,
      subjects: [{ designation: 'Corruption' }, { designation: 'Détournement de fonds' }],
      autreObject: null,
      projects: [{ sigle: 'PRJ', designation: 'Projet de gouvernance locale' }],
      region: { designation: 'Analamanga' },
      district: { designation: 'Antananarivo Renivohitra' },
      commune: { designation: 'Antananarivo I' },
      fokontany: 'Isotry',
      niveau: { designation: 'Élevé' },
      statut: { designation: 'En cours de traitement' },
      resultat: null,
      isTreated: false,
      isInternalResponsability: i % 2 === 0,
      isConfict: false,
      isRecurrent: i % 5 === 0,
      isAnonyme: i % 4 === 0,
      description:
        'Un agent aurait demandé une somme pour accélérer un dossier de permis de construire, ' +
        'puis aurait refusé de délivrer un reçu au demandeur.',
      actionProvisoires: ['Appel au responsable du service'],
      preuves: ['Reçu manuscrit'],
      createdBy: { nomPrenom: 'Rakotomalala Hery', email: 'hery@example.mg' },
      canEdit: true,
    },
    counts: { auteurs: 1, sources: 1, victimes: 2 },
  };
}

async function* inBatches(rows: ExportRow[]) {
  for (let i = 0; i < rows.length; i += 1000) yield rows.slice(i, i + 1000);
}

/** exceljs alone: the values computed beforehand, the writer at the export's settings. */
async function exceljsAlone(values: unknown[][], dateColumns: boolean[]): Promise<void> {
  const out = new PassThrough();
  out.resume();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, ...XLSX_WRITER_OPTIONS });
  const sheet = workbook.addWorksheet('Signalements');
  const date: Partial<ExcelJS.Style> = { numFmt: 'dd/mm/yyyy' };
  const plain: Partial<ExcelJS.Style> = {};
  sheet.columns = COLUMNS.map((c) => ({ header: c.header, width: c.width }));
  sheet.getRow(1).commit();
  let n = 0;
  for (const row of values) {
    const added = sheet.addRow(row);
    for (let i = 0; i < row.length; i++) added.getCell(i + 1).style = dateColumns[i] ? date : plain;
    added.commit();
    // As the export's writer: a turn of the event loop now and then, so the zip keeps up.
    if (++n % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  sheet.commit();
  await workbook.commit();
}

export interface WriterCeiling {
  rows: number;
  /** export-writer.ts from rows in memory. */
  writerRowsPerSecond: number;
  /** exceljs alone, the values computed beforehand. */
  exceljsRowsPerSecond: number;
}

/** Both figures, medians of `runs` after one warm-up of each. */
export async function writerCeiling(rows = 30_000, runs = 3): Promise<WriterCeiling> {
  const calendar = businessCalendar('Indian/Antananarivo');
  const data = Array.from({ length: rows }, (_, i) => syntheticRow(i));
  const cells = { wallClock: wallClockReader(calendar.zone) };
  const values = data.map((r) => COLUMNS.map((c) => c.value(r, cells)));
  const dateColumns = COLUMNS.map((c) => c.date === true);
  const timed = async (run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    return rows / ((performance.now() - started) / 1000);
  };
  const ours = () => {
    const out = new PassThrough();
    out.resume();
    return writeXlsx(out, inBatches(data), calendar);
  };
  const alone = () => exceljsAlone(values, dateColumns);
  await ours();
  await alone();
  const writer: number[] = [];
  const library: number[] = [];
  for (let i = 0; i < runs; i++) {
    writer.push(await timed(ours));
    library.push(await timed(alone));
  }
  return { rows, writerRowsPerSecond: median(writer), exceljsRowsPerSecond: median(library) };
}
