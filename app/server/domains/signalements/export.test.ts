import { addBusinessDays, businessDay, DEFAULT_BUSINESS_TIME_ZONE } from '#shared/calendar';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { createReport, mergePatch } from '#tests/helpers/signalements';
import { safeCell } from './export';
import { exportThreads } from './export-runner';

describe('formula-injection guard', () => {
  it.each(['=HYPERLINK("http://x")', '+33', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd'])(
    'writes %j as text, unchanged',
    (value) => {
      expect(safeCell(value)).toEqual({ value, text: true });
    },
  );
  it('leaves ordinary values alone', () => {
    expect(safeCell('Détournement')).toEqual({ value: 'Détournement', text: false });
    expect(safeCell(-3)).toEqual({ value: -3, text: false });
  });
});

describe.each(await testEngines())('report export on %s', (engine) => {
  let t: TestApp;
  let cookie: string;
  let first: string;
  let second: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('agent@example.mg', 'ROLE_USER', 'Agent Export');
    cookie = await t.login('agent@example.mg');
    first = await createReport(t, cookie, {
      signalementAt: '2025-01-10',
      subjects: ['/api/subjects/CORRUPTION', '/api/subjects/FRAUDE'],
    });
    second = await createReport(t, cookie, { signalementAt: '2025-02-20' });
    // Open with a niveau: a due day (Critique, 7 business days); `first` is closed, so it has none.
    const niveau = await mergePatch(t, cookie, `/api/signalements/${second}`, {
      niveau: '/api/niveaux/CRITIQUE',
    });
    expect(niveau.statusCode, niveau.body).toBe(200);
    await mergePatch(t, cookie, `/api/signalements/${first}`, {
      description: '=HYPERLINK("http://evil.example","clic")',
      preuves: ['@malveillant', 'photo'],
      statut: '/api/statuts/CLOTURE',
    });
    for (const name of ['Auteur Un', 'Auteur Deux']) {
      await t.app.inject({
        method: 'POST',
        url: '/api/presume_auteurs',
        headers: { cookie },
        payload: { nomPrenom: name, signalement: `/api/signalements/${first}` },
      });
    }
  });
  afterAll(async () => t?.close());

  const download = async (query = '') => {
    const res = await t.app.inject({ url: `/api/signalements/export/xlsx${query}`, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    return { res, sheet: workbook.getWorksheet('Signalements')! };
  };

  it('streams an xlsx named signalements_{date}.xlsx with French headers and one row per report', async () => {
    const { res, sheet } = await download();
    const today = businessDay(new Date(), DEFAULT_BUSINESS_TIME_ZONE);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="signalements_${today}.xlsx"`);
    expect(res.headers['x-total-count']).toBe('2');
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(headers).toEqual(
      expect.arrayContaining([
        'Code',
        'Date du signalement',
        'Partenaire',
        'Objets',
        'Région',
        'Auteurs présumés',
        'Sources',
        'Victimes',
      ]),
    );
    expect(sheet.actualRowCount).toBe(3);
    const col = (name: string) => headers.indexOf(name) + 1;
    const row = sheet.getRow(3);
    expect(row.getCell(col('Code')).value).toBe(first);
    expect(row.getCell(col('Objets')).value).toBe('Corruption, Fraude');
    expect(row.getCell(col('Auteurs présumés')).value).toBe(2);
    expect(row.getCell(col('Statut')).value).toBe('Clôturé');
    expect(row.getCell(col('Traité')).value).toBe('Oui');
    const date = row.getCell(col('Date du signalement'));
    expect(date.value).toBeInstanceOf(Date);
    expect((date.value as Date).toISOString().slice(0, 10)).toBe('2025-01-10');
    expect(date.numFmt).toBe('dd/mm/yyyy');
    expect(sheet.getRow(2).getCell(col('Code')).value).toBe(second);
  });

  it('writes the due day in an « Échéance » date column, empty without a deadline', async () => {
    const { sheet } = await download();
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    const echeance = headers.indexOf('Échéance') + 1;
    expect(echeance).toBeGreaterThan(0);
    const due = sheet.getRow(2).getCell(echeance);
    expect(due.value).toBeInstanceOf(Date);
    // The business day itself (Thursday 20 February 2025 + 7 business days), whatever the zone's offset.
    expect((due.value as Date).toISOString()).toBe(`${addBusinessDays('2025-02-20', 7)}T00:00:00.000Z`);
    expect(addBusinessDays('2025-02-20', 7)).toBe('2025-03-03');
    expect(due.numFmt).toBe('dd/mm/yyyy');
    expect(sheet.getRow(3).getCell(headers.indexOf('Code') + 1).value).toBe(first);
    expect(sheet.getRow(3).getCell(echeance).value).toBeNull();
  });

  it('writes cells that could run as formulas as string cells with the exact text, no apostrophe', async () => {
    const { sheet } = await download();
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    const description = sheet.getRow(3).getCell(headers.indexOf('Description') + 1);
    expect(description.type).toBe(ExcelJS.ValueType.String);
    expect(description.value).toBe('=HYPERLINK("http://evil.example","clic")');
    expect(description.formula).toBeUndefined();
    expect(description.numFmt).toBe('@');
  });

  it('applies the list filters', async () => {
    const { res, sheet } = await download('?signalementAt[after]=2025-02-01');
    expect(res.headers['x-total-count']).toBe('1');
    expect(sheet.actualRowCount).toBe(2);
    // A search: the thread finds the report by its code, the sources' names by the key's blind index.
    const found = await download(`?search=${second}`);
    expect(found.res.headers['x-total-count']).toBe('1');
    expect(found.sheet.getRow(2).getCell(1).value).toBe(second);
  });

  it('exports the JSON list without pagination', async () => {
    const res = await t.app.inject({
      url: '/api/signalements/export/list?itemsPerPage=1',
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.totalItems).toBe(2);
    expect(body.member.map((m: { code: string }) => m.code)).toEqual([second, first]);
    expect(body.member.map((m: { echeance: string | null }) => m.echeance)).toEqual(['2025-03-03', null]);
  });

  it('sends nothing of an export the access log cannot hold, and stops its thread', async () => {
    const failing =
      engine === 'sqlite'
        ? [
            "create trigger log_failure before insert on access_log when new.kind = 'export' begin select raise(abort, 'panne injectée'); end",
          ]
        : [
            "create function log_failure() returns trigger language plpgsql as $$ begin if new.kind = 'export' then raise exception 'panne injectée'; end if; return new; end $$",
            'create trigger log_failure before insert on access_log for each row execute function log_failure()',
          ];
    for (const statement of failing) await t.db.execute(sql.raw(statement));
    try {
      const res = await t.app.inject({ url: '/api/signalements/export/xlsx', headers: { cookie } });
      expect(res.statusCode).toBe(500);
      expect(res.headers['content-type']).toMatch(/json/);
      expect(res.headers['x-total-count']).toBeUndefined();
      expect(res.body).not.toContain('PK');
    } finally {
      await t.db.execute(sql.raw('drop trigger log_failure' + (engine === 'sqlite' ? '' : ' on access_log')));
      if (engine !== 'sqlite') await t.db.execute(sql.raw('drop function log_failure()'));
    }
    // Its thread was stopped: its slot is free, and the next export is written whole.
    await expect.poll(exportThreads).toBe(0);
    const { res } = await download();
    expect(res.headers['x-total-count']).toBe('2');
  });

  it('requires a session', async () => {
    expect((await t.app.inject({ url: '/api/signalements/export/xlsx' })).statusCode).toBe(401);
  });
});
