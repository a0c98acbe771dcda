// The administrators' side of the access log (decision 0015, "Access log and alerts"): list with filters
// (user, report, kind, Madagascar days), pagination and exact total; administrators only; the xlsx export and
// its own entry; and the table itself refuses UPDATE, DELETE (and TRUNCATE on PostgreSQL) whatever the
// caller.
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AccessLogKind } from '#shared/constants';
import type { AccessLogPageDto } from '#shared/dto/journal';
import { testEngines } from '#tests/helpers/db';
import { serverSuite } from '#tests/helpers/suite';
import { accessLogRows, userId } from '#tests/helpers/journal';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { exportJournalXlsx } from './service';

describe.each(await testEngines())('journal des accès on %s', (engine) => {
  const { app: t, admin, user } = serverSuite(engine, { user: { nomPrenom: 'Rakoto Agent' } });

  beforeAll(async () => {
    const agent = await userId(t, user.code);
    const entry = (
      at: string,
      kind: AccessLogKind,
      signalement: string | null,
      details: Record<string, unknown>,
      who: number | null = agent,
    ) => ({
      at: new Date(at),
      kind,
      userId: who,
      userEmail: who === null ? 'inconnu@example.mg' : 'agent@example.mg',
      address: '41.188.10.7',
      signalementCode: signalement,
      details,
    });
    await t.db.transaction((tx) =>
      tx.insert(t.db.t.accessLog).values([
        // 2026-03-09 23:59:59 in Madagascar, then the first and last instants of 2026-03-10, then 2026-03-11 00:00.
        entry('2026-03-09T20:59:59.000Z', 'lecture_personnes', 'SIG-A', { personnes: 'sources', nombre: 3 }),
        entry('2026-03-09T21:00:00.000Z', 'lecture_personnes', 'SIG-B', { personnes: 'auteurs', nombre: 2 }),
        entry('2026-03-10T20:59:59.999Z', 'export', null, { format: 'xlsx', filtres: {}, lignes: 120 }),
        entry('2026-03-10T21:00:00.000Z', 'echec_connexion', null, { motif: 'compte_inconnu' }, null),
        // A typed e-mail that a spreadsheet would run as a formula.
        {
          ...entry('2026-03-11T05:00:00.000Z', 'echec_connexion', null, { motif: 'compte_inconnu' }, null),
          userEmail: '=HYPERLINK("http://x")',
        },
      ]),
    );
  });

  const list = async (filters: Record<string, string>, page = 1, cookie = admin.cookie) => {
    const input = encodeURIComponent(JSON.stringify({ page, filters }));
    return t.app.inject({ url: `/trpc/journal.list?input=${input}`, headers: { cookie } });
  };
  const page = async (filters: Record<string, string>, n = 1): Promise<AccessLogPageDto> => {
    const res = await list(filters, n);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result.data;
  };

  it('lists the entries newest first with the user, the e-mail at the time and a French description', async () => {
    const { items, total, pageSize } = await page({ du: '2026-03-09', au: '2026-03-11' });
    expect(pageSize).toBe(50);
    expect(total).toBe(5);
    expect(items.map((i) => i.at)).toEqual([
      '2026-03-11T05:00:00.000Z',
      '2026-03-10T21:00:00.000Z',
      '2026-03-10T20:59:59.999Z',
      '2026-03-09T21:00:00.000Z',
      '2026-03-09T20:59:59.000Z',
    ]);
    expect(items[4]).toMatchObject({
      kind: 'lecture_personnes',
      utilisateur: { code: user.code, nomPrenom: 'Rakoto Agent', email: 'agent@example.mg' },
      email: 'agent@example.mg',
      address: '41.188.10.7',
      signalement: 'SIG-A',
      description: 'Sources (3)',
    });
    expect(items[2]!.description).toBe('Export xlsx : 120 lignes');
    expect(items[1]).toMatchObject({
      utilisateur: null,
      email: 'inconnu@example.mg',
      description: 'Compte inconnu',
    });
  });

  it('filters by Madagascar day: du and au are whole days in UTC+3', async () => {
    const day = await page({ du: '2026-03-10', au: '2026-03-10' });
    expect(day.items.map((i) => i.at)).toEqual(['2026-03-10T20:59:59.999Z', '2026-03-09T21:00:00.000Z']);
    expect((await page({ au: '2026-03-09' })).items.map((i) => i.signalement)).toEqual(['SIG-A']);
    expect((await page({ du: '2026-03-11', au: '2026-03-11' })).total).toBe(2);
  });

  it('filters by user code, report code and kind; empty strings are no filter; an inverted period is refused', async () => {
    const mine = await page({ utilisateur: user.code, au: '2026-03-11' });
    expect(mine.total).toBe(3);
    expect((await page({ utilisateur: 'USR-INCONNU' })).total).toBe(0);
    expect((await page({ signalement: 'SIG-B' })).items.map((i) => i.description)).toEqual([
      'Auteurs présumés (2)',
    ]);
    expect((await page({ kind: 'echec_connexion', au: '2026-03-11' })).total).toBe(2);
    expect((await page({ kind: 'export', utilisateur: '', signalement: '', au: '2026-03-11' })).total).toBe(
      1,
    );
    const inverted = await list({ du: '2026-03-11', au: '2026-03-10' });
    expect(inverted.statusCode).toBe(400);
    expect(inverted.json().error.message).toBe(
      'La date de fin doit être postérieure ou égale à la date de début.',
    );
  });

  it('paginates 50 at a time with the exact total', async () => {
    const agent = await userId(t, user.code);
    await t.db.transaction((tx) =>
      tx.insert(t.db.t.accessLog).values(
        Array.from({ length: 55 }, (_, i) => ({
          at: new Date(Date.UTC(2026, 0, 5, 8, 0, i)),
          kind: 'connexion' as const,
          userId: agent,
          userEmail: 'agent@example.mg',
          address: null,
          signalementCode: null,
          details: { etape: 'mot_de_passe' },
        })),
      ),
    );
    const filters = { kind: 'connexion', du: '2026-01-05', au: '2026-01-05' };
    const first = await page(filters, 1);
    const second = await page(filters, 2);
    expect([first.total, second.total]).toEqual([55, 55]);
    expect([first.items.length, second.items.length]).toEqual([50, 5]);
    expect(second.page).toBe(2);
    const ids = new Set([...first.items, ...second.items].map((i) => i.id));
    expect(ids.size).toBe(55);
    expect(first.items[0]!.description).toBe('Connexion (mot de passe)');
  });

  it('refuses the log, its alerts, marking an alert and the export to a user who is not an administrator', async () => {
    expect((await list({}, 1, user.cookie)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ url: '/trpc/journal.alerts', headers: { cookie: user.cookie } })).statusCode,
    ).toBe(403);
    const mark = await t.app.inject({
      method: 'POST',
      url: '/trpc/journal.markAlertSeen',
      headers: { cookie: user.cookie, ...SAME_ORIGIN },
      payload: { id: 1 },
    });
    expect(mark.statusCode).toBe(403);
    expect(
      (await t.app.inject({ url: '/api/journal-acces/export/xlsx', headers: { cookie: user.cookie } }))
        .statusCode,
    ).toBe(403);
  });

  it('exports the filtered log as xlsx in Madagascar time, guards formulas, and logs the export itself', async () => {
    const before = (await accessLogRows(t)).length;
    const res = await t.app.inject({
      url: '/api/journal-acces/export/xlsx?du=2026-03-09&au=2026-03-11',
      headers: { cookie: admin.cookie, 'x-forwarded-for': '41.188.40.4' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-total-count']).toBe('5');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="journal-des-acces-\d{4}-\d{2}-\d{2}\.xlsx"$/,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Journal des accès')!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([
      'Date',
      'Utilisateur',
      'Email',
      'Adresse',
      'Type',
      'Signalement',
      'Détail',
    ]);
    expect(sheet.actualRowCount).toBe(6);
    // Newest first; the last row is 2026-03-09 23:59:59 in Madagascar.
    const last = sheet.getRow(6);
    expect((last.getCell(1).value as Date).toISOString()).toBe('2026-03-09T23:59:59.000Z');
    expect(last.getCell(1).numFmt).toBe('dd/mm/yyyy hh:mm:ss');
    expect((last.values as unknown[]).slice(2)).toEqual([
      `Rakoto Agent (${user.code})`,
      'agent@example.mg',
      '41.188.10.7',
      'Lecture des personnes',
      'SIG-A',
      'Sources (3)',
    ]);
    expect(sheet.getRow(2).getCell(3).value).toBe('=HYPERLINK("http://x")');
    expect(sheet.getRow(2).getCell(3).type).toBe(ExcelJS.ValueType.String);
    const info = workbook.getWorksheet('Informations')!;
    expect(info.getColumn(1).values).toEqual(
      expect.arrayContaining(['Du : 09/03/2026', 'Au : 11/03/2026', '5 entrée(s) exportée(s) sur 5']),
    );

    const rows = await accessLogRows(t);
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({
      kind: 'export',
      userEmail: 'admin@example.mg',
      address: '41.188.40.4',
      signalementCode: null,
    });
    expect(rows.at(-1)!.details).toEqual({
      objet: 'journal',
      format: 'xlsx',
      filtres: { du: '2026-03-09', au: '2026-03-11' },
      lignes: 5,
    });
  });

  it('caps the xlsx export at its limit, keeps the newest entries and says so in the file', async () => {
    const u = t.db.t.utilisateurs;
    const [adminUser] = await t.db.read.select().from(u).where(eq(u.email, 'admin@example.mg'));
    const actor = {
      id: adminUser!.id,
      code: adminUser!.code,
      email: adminUser!.email,
      nomPrenom: adminUser!.nomPrenom,
      isEnabled: true,
      lastConnectionAt: null,
      role: { code: 'ROLE_ADMIN', designation: 'Administrateur' },
      twoFactorEnrolled: true,
    };
    const { buffer, rows } = await exportJournalXlsx(t.ctx, actor, { du: '2026-03-09', au: '2026-03-11' }, 3);
    expect(rows).toBe(3);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Journal des accès')!;
    expect(sheet.actualRowCount).toBe(5);
    expect(sheet.getRow(4).getCell(7).value).toBe('Export xlsx : 120 lignes');
    const note =
      'Export limité aux 3 entrées les plus récentes sur 5 : précisez les filtres pour obtenir le reste.';
    expect(sheet.getRow(5).getCell(1).value).toBe(note);
    expect(workbook.getWorksheet('Informations')!.getColumn(1).values).toContain(note);
    expect((await accessLogRows(t, 'export')).at(-1)!.details).toMatchObject({
      objet: 'journal',
      lignes: 3,
      tronque: true,
      total: 5,
    });
  });

  it('refuses to change or delete an entry by raw SQL (and to truncate the table on PostgreSQL)', async () => {
    const before = await accessLogRows(t);
    // Drizzle wraps the driver's error: the trigger's message is in its cause.
    const refusal = async (statement: ReturnType<typeof sql>) => {
      const error = await t.db.execute(statement).then(
        () => null,
        (e: Error) => e,
      );
      return `${error?.message} ${(error?.cause as Error | undefined)?.message}`;
    };
    expect(await refusal(sql`update access_log set kind = 'connexion', address = null`)).toMatch(
      /append-only/,
    );
    expect(await refusal(sql`delete from access_log`)).toMatch(/append-only/);
    if (engine === 'postgres') expect(await refusal(sql`truncate access_log`)).toMatch(/append-only/);
    expect(await accessLogRows(t)).toEqual(before);
  });
});
