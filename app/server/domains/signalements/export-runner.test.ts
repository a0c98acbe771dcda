// The xlsx export runs on threads of its own: each counts the reports of its filters first, then writes
// them once started; at most MAX_CONCURRENT_EXPORTS at a time (later ones wait), each workbook complete and
// readable, and an export cancelled or a download abandoned stops its thread.
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Transferred } from '#server/db/threads/transferred';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { createReport } from '#tests/helpers/signalements';
import type { SessionUser } from '../auth/session';
import { exportThreads, MAX_CONCURRENT_EXPORTS, openXlsxExport } from './export-runner';
import type { ExportJob } from './export-thread';

const actor: SessionUser = {
  id: 1,
  code: 'USR-TEST',
  email: 'agent@example.mg',
  twoFactorEnrolled: false,
  nomPrenom: 'Rakoto Jean',
  isEnabled: true,
  lastConnectionAt: null,
  role: { code: 'ROLE_USER', designation: 'Utilisateur' },
};

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe.each(await testEngines())('xlsx export threads on %s', (engine) => {
  let t: TestApp;
  let codes: string[];
  const job = (job: Partial<ExportJob> = {}): ExportJob => ({
    config: t.config,
    databaseUrl: t.db.url,
    actor,
    filters: {},
    now: Date.now(),
    ...job,
  });
  const written = async (job: ExportJob) => collect((await openXlsxExport(job)).start());
  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('agent@example.mg');
    const cookie = await t.login('agent@example.mg');
    codes = [];
    for (let i = 0; i < 3; i++) codes.push(await createReport(t, cookie, { signalementAt: `2025-03-1${i}` }));
  });
  afterAll(async () => t?.close());

  it('counts the reports its filters keep before it writes them, in the list order', async () => {
    const all = await openXlsxExport(job());
    const some = await openXlsxExport(job({ filters: { signalementAt: { after: { day: '2025-03-11' } } } }));
    expect([all.rows, some.rows]).toEqual([3, 2]);
    const file = await collect(some.start());
    all.cancel();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file as never);
    const sheet = workbook.getWorksheet('Signalements')!;
    expect([2, 3].map((r) => sheet.getRow(r).getCell(1).value)).toEqual([codes[2], codes[1]]);
    // None kept: a workbook of its header row alone.
    const none = await openXlsxExport(job({ filters: { signalementAt: { after: { day: '2031-01-01' } } } }));
    expect(none.rows).toBe(0);
    const empty = new ExcelJS.Workbook();
    await empty.xlsx.load((await collect(none.start())) as never);
    expect(empty.getWorksheet('Signalements')!.rowCount).toBe(1);
    await expect.poll(exportThreads).toBe(0);
  });

  it('counts every byte its thread hands over, so their memory is returned as they are sent', async () => {
    // transferred.ts returns the chunks' memory every RELEASE_BYTES received: the runner must count them all.
    const received = vi.spyOn(Transferred.prototype, 'received');
    try {
      const file = await written(job());
      const counted = received.mock.calls.reduce((n, [bytes]) => n + bytes, 0);
      expect(file.length).toBeGreaterThan(0);
      expect(counted).toBe(file.length);
    } finally {
      received.mockRestore();
    }
  });

  it('rejects an export whose thread fails before its count, and frees its slot', async () => {
    const elsewhere = engine === 'sqlite' ? 'file:/nonexistent/folder/x.db' : `${t.db.url}_absente`;
    await expect(openXlsxExport(job({ databaseUrl: elsewhere }))).rejects.toThrow();
    await expect.poll(exportThreads).toBe(0);
    expect((await written(job())).subarray(0, 2).toString()).toBe('PK');
  });

  it(`runs at most ${MAX_CONCURRENT_EXPORTS} threads at once and completes every workbook`, async () => {
    const opening = Array.from({ length: MAX_CONCURRENT_EXPORTS + 2 }, () => written(job()));
    await expect.poll(exportThreads).toBe(MAX_CONCURRENT_EXPORTS);
    const files = await Promise.all(opening);
    for (const file of files) {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(file as never);
      const sheet = workbook.getWorksheet('Signalements')!;
      expect(sheet.rowCount).toBe(1 + codes.length);
      expect(sheet.getRow(2).getCell(1).value).toBe(codes[codes.length - 1]);
    }
    await expect.poll(exportThreads).toBe(0);
  });

  it('writes reports with the longest description allowed, batched to fit its capped heap', async () => {
    // 1,200 reports dated before the others, each with a description of 20,000 characters outside Latin-1
    // (two bytes each in the thread's heap): batches of a thousand of them stopped the thread on its limit.
    const insert =
      engine === 'sqlite'
        ? `with recursive g(n) as (select 1 union all select n + 1 from g where n < 1200)
           insert into signalements (code, signalement_at, created_by_id, partenaire_id, description)
           select 'SIG-LONG-' || n, ${Date.UTC(2024, 5, 1)} + n * 60000, (select min(id) from utilisateurs),
                  (select min(id) from partenaires), replace(printf('%.*c', 20000, 'x'), 'x', 'ŝ')
           from g`
        : `insert into signalements (code, signalement_at, created_by_id, partenaire_id, description)
           select 'SIG-LONG-' || n, timestamptz '2024-06-01' + n * interval '1 minute',
                  (select min(id) from utilisateurs), (select min(id) from partenaires), repeat('ŝ', 20000)
           from generate_series(1, 1200) as n`;
    await t.db.execute(sql.raw(insert));
    const xlsx = await openXlsxExport(job({ filters: { signalementAt: { before: { day: '2024-12-31' } } } }));
    expect(xlsx.rows).toBe(1200);
    const file = await collect(xlsx.start());
    // Complete: the zip's end-of-central-directory record closes the file.
    expect(file.subarray(0, 2).toString()).toBe('PK');
    expect(file.subarray(-22, -18)).toEqual(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  });

  it('stops the thread of an export cancelled after its count, and of a download abandoned', async () => {
    const exports = await Promise.all(
      Array.from({ length: MAX_CONCURRENT_EXPORTS }, () => openXlsxExport(job())),
    );
    expect(exportThreads()).toBe(MAX_CONCURRENT_EXPORTS);
    exports[0]!.cancel();
    exports[1]!.start().destroy();
    await expect.poll(exportThreads).toBe(0);
    // The slots are free again.
    expect((await written(job())).subarray(0, 2).toString()).toBe('PK');
  });
});
