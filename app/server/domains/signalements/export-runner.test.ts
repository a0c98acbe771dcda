// The xlsx export runs on threads of its own: at most MAX_CONCURRENT_EXPORTS at a time (later ones wait),
// each workbook complete and readable, and a download abandoned stops its thread.
import ExcelJS from 'exceljs';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { createReport } from '#tests/helpers/signalements';
import type { SessionUser } from '../auth/session';
import { exportIds } from './export';
import { exportThreads, MAX_CONCURRENT_EXPORTS, xlsxInThread } from './export-runner';

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
  let ids: number[];
  let codes: string[];
  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('agent@example.mg');
    const cookie = await t.login('agent@example.mg');
    codes = [];
    for (let i = 0; i < 3; i++) codes.push(await createReport(t, cookie, { signalementAt: `2025-03-1${i}` }));
    ids = await exportIds(t.ctx, {});
  });
  afterAll(async () => t?.close());

  it(`runs at most ${MAX_CONCURRENT_EXPORTS} threads at once and completes every workbook`, async () => {
    const streams = Array.from({ length: MAX_CONCURRENT_EXPORTS + 2 }, () =>
      xlsxInThread({ config: t.config, databaseUrl: t.db.url, actor, ids }),
    );
    expect(exportThreads()).toBe(MAX_CONCURRENT_EXPORTS);
    const files = await Promise.all(streams.map(collect));
    for (const file of files) {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(file as never);
      const sheet = workbook.getWorksheet('Signalements')!;
      expect(sheet.rowCount).toBe(1 + codes.length);
      expect(sheet.getRow(2).getCell(1).value).toBe(codes[codes.length - 1]);
    }
    await expect.poll(exportThreads).toBe(0);
  });

  it('stops the thread of an abandoned download, and of one abandoned while waiting', async () => {
    const streams = Array.from({ length: MAX_CONCURRENT_EXPORTS + 1 }, () =>
      xlsxInThread({ config: t.config, databaseUrl: t.db.url, actor, ids }),
    );
    for (const stream of streams) stream.destroy();
    await expect.poll(exportThreads).toBe(0);
    // The slots are free again.
    expect(
      (await collect(xlsxInThread({ config: t.config, databaseUrl: t.db.url, actor, ids })))
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
  });
});
