// The xlsx writer's own guarantees, without a database: it uses exceljs's public streaming API only, and a
// download that is not read stops it after a bounded part of the file (memory stays flat whatever the
// number of rows), until the download is read again.
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it, vi } from 'vitest';
import { businessCalendar, DEFAULT_BUSINESS_TIME_ZONE, wallClockReader } from '#shared/calendar';
import type { SignalementDto } from '#shared/dto/signalements';
import type { ExportRow } from './export';
import { writeXlsx, XLSX_HIGH_WATER } from './export-writer';

function fakeRow(n: number): ExportRow {
  const ref = (code: string) => ({ '@id': `/api/x/${code}`, code, designation: `Désignation ${code}` });
  const item = {
    ...ref(`SIG-${n}`),
    '@type': 'Signalement',
    code: `SIG-${n}`,
    signalementAt: new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString(),
    createdAt: new Date(Date.UTC(2025, 0, 1) + n * 61_000).toISOString(),
    closeAt: null,
    lastActionAt: null,
    createdBy: { '@id': '/api/utilisateurs/U1', code: 'U1', email: 'a@b.mg', nomPrenom: 'Rakoto Jean' },
    partenaire: { ...ref('P1'), initial: 'P', color: '#000' },
    canalPrincipal: null,
    autreCanalPrincipal: null,
    autreObject: null,
    subjects: [ref('CORRUPTION')],
    region: null,
    district: null,
    commune: null,
    fokontany: null,
    projects: [],
    isTreated: false,
    echeance: null,
    isInternalResponsability: false,
    isConfict: false,
    isRecurrent: n % 2 === 0,
    isAnonyme: false,
    niveau: null,
    statut: null,
    resultat: null,
    // Text that varies from row to row, so the sheet compresses as real descriptions do.
    description: `Signalement ${n} : ${(n * 2_654_435_761).toString(36)} ${(n * 40_503).toString(16)}`,
    actionProvisoires: [],
    preuves: [],
    assignees: [],
    canEdit: false,
    canAssign: false,
    version: 1,
  } as SignalementDto;
  return { item, counts: { auteurs: n % 3, sources: 0, victimes: 1 } };
}

const calendar = businessCalendar(DEFAULT_BUSINESS_TIME_ZONE);

describe('xlsx writer', () => {
  it('uses only exceljs’s public streaming writer: no internals, no in-memory workbook', () => {
    // What the export once did to reach exceljs's internal zip entry, and what the check must refuse.
    const internals = /\._[A-Za-z]|\.pipes\b|new ExcelJS\.Workbook\b|\bwriteBuffer\b|as unknown as/;
    expect(internals.test('sheet.stream.pipes?.[0]._writableState.length')).toBe(true);
    for (const file of ['export.ts', 'export-writer.ts', 'export-thread.ts', 'export-runner.ts']) {
      const source = readFileSync(new URL(`./${file}`, import.meta.url), 'utf8');
      const code = source.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
      expect(code, file).not.toMatch(internals);
    }
    const exportSource = readFileSync(new URL('./export-writer.ts', import.meta.url), 'utf8');
    expect(exportSource).toContain('new ExcelJS.stream.xlsx.WorkbookWriter(');
  });

  it('leaves exceljs out of the serving thread: only the export thread’s writer imports it', () => {
    // A value import of exceljs in a module the server loads at start costs every server about 34 MB.
    const loads = /^import\s+(?!type\b)[^;]*from 'exceljs'/m;
    expect(loads.test("import ExcelJS from 'exceljs';")).toBe(true);
    expect(loads.test("import type ExcelJS from 'exceljs';")).toBe(false);
    const source = (file: string) => readFileSync(new URL(file, import.meta.url), 'utf8');
    for (const file of [
      'export.ts',
      'export-rows.ts',
      'export-runner.ts',
      'rest-export.ts',
      '../journal/service.ts',
    ])
      expect(source(file), file).not.toMatch(loads);
    expect(source('export-writer.ts')).toMatch(loads);
  });

  it('writes every row, readable, with dates as dates', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    async function* batches() {
      yield Array.from({ length: 50 }, (_, i) => fakeRow(i));
    }
    expect(await writeXlsx(out, batches(), calendar)).toBe(50);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.concat(chunks) as never);
    const sheet = workbook.getWorksheet('Signalements')!;
    expect(sheet.actualRowCount).toBe(51);
    expect(sheet.getRow(51).getCell(1).value).toBe('SIG-49');
    expect(sheet.getRow(2).getCell(2).value).toBeInstanceOf(Date);
    expect(sheet.getRow(2).getCell(2).numFmt).toBe('dd/mm/yyyy');
  });

  it('stops taking rows while the download is not read, and goes on when it is', async () => {
    let pulled = 0;
    let stop = false;
    async function* endless() {
      for (let n = 0; !stop; n += 100) {
        pulled += 100;
        yield Array.from({ length: 100 }, (_, i) => fakeRow(n + i));
      }
    }
    // The zone's table of offsets is built once per zone (seconds on a busy machine): built here, so the
    // writer's first rows are not mistaken for a stop.
    wallClockReader(DEFAULT_BUSINESS_TIME_ZONE);
    const out = new PassThrough();
    const writing = writeXlsx(out, endless(), calendar);
    writing.catch(() => {});
    // Nobody reads: the writer must stop, the download full, and take no row for a second (four looks
    // 300 ms apart). Without backpressure it takes rows forever (thousands a second) and this wait times out.
    let previous = -1;
    let still = 0;
    await vi.waitFor(
      () => {
        still = pulled === previous && out.readableLength >= out.readableHighWaterMark ? still + 1 : 0;
        previous = pulled;
        expect(still).toBeGreaterThanOrEqual(4);
      },
      { timeout: 30_000, interval: 300 },
    );
    // What it holds: the bytes not read (at most about XLSX_HIGH_WATER compressed) and the rows of one
    // batch; 20,000 rows would be about 2 MB compressed.
    expect(pulled).toBeLessThan(20_000);
    expect(out.readableLength).toBeLessThanOrEqual(XLSX_HIGH_WATER);
    // Read again: it takes rows again.
    const held = pulled;
    out.resume();
    await vi.waitFor(() => expect(pulled).toBeGreaterThan(held + 1_000), { timeout: 20_000 });
    stop = true;
    out.destroy();
    await expect(writing).rejects.toThrow();
  });
});
