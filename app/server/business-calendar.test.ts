// One business calendar (decision 0018). A report made at 23:30 and one at 00:30 in Madagascar
// (20:30 and 21:30 UTC, the same UTC day) fall on two different days everywhere: list filters, export
// cells, dashboard counts and per-day series, period analysis, the public summary, the partner e-mail;
// the per-day counters of an older database are rebuilt by the migration; another APP_TIMEZONE rebuilds them.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { migrate as migrateSqlite } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BUSINESS_TIME_ZONE } from '#shared/calendar';
import { createTestApp, sessionCookie, type TestApp } from '#tests/helpers/app';
import { PG_ADMIN_URL, testEngines } from '#tests/helpers/db';
import { createReport } from '#tests/helpers/signalements';
import { buildApp } from './app';
import { loadConfig } from './config';
import { createAppContext } from './context';
import { storedOffsets, syncBusinessCalendar } from './db/business-calendar';
import { openDatabase, type Engine } from './db/client';
import { overviewPerDay } from './domains/dashboard/overview';
import { PATHS } from './paths';

const LATE = '2025-11-20T20:30:00.000Z'; // 23:30 on Thursday 20 November in Madagascar
const EARLY = '2025-11-20T21:30:00.000Z'; // 00:30 on Friday 21 November in Madagascar

describe('APP_TIMEZONE', () => {
  it('defaults to Madagascar and refuses an unknown zone with a French message naming the variable', () => {
    expect(loadConfig({}).APP_TIMEZONE).toBe('Indian/Antananarivo');
    expect(loadConfig({ APP_TIMEZONE: 'Europe/Paris' }).APP_TIMEZONE).toBe('Europe/Paris');
    expect(() => loadConfig({ APP_TIMEZONE: 'Mars/Olympus' })).toThrow(
      /APP_TIMEZONE: fuseau horaire inconnu/,
    );
  });
});

describe.each(await testEngines())('business calendar at the day boundary on %s', (engine) => {
  let t: TestApp;
  let cookie: string;
  let late: string;
  let early: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    await t.user('agent@example.mg', 'ROLE_USER', 'Agent Calendrier');
    cookie = await t.login('agent@example.mg');
    late = await createReport(t, cookie, { signalementAt: LATE });
    early = await createReport(t, cookie, { signalementAt: EARLY });
  });
  afterAll(async () => t?.close());

  const get = async (url: string) => {
    const res = await t.app.inject({ url, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const codesOn = async (day: string) =>
    (await get(`/api/signalements?signalementAt[after]=${day}&signalementAt[before]=${day}`))
      .json()
      .member.map((s: { code: string }) => s.code);

  it('filters the list by Madagascar day: 23:30 on the 20th, 00:30 on the 21st', async () => {
    expect(await codesOn('2025-11-20')).toEqual([late]);
    expect(await codesOn('2025-11-21')).toEqual([early]);
    expect(
      (await get('/api/signalements?signalementAt[before]=2025-11-20'))
        .json()
        .member.map((s: { code: string }) => s.code),
    ).toEqual([late]);
  });

  it('reads a bare day sent by a form as that Madagascar day', async () => {
    const code = await createReport(t, cookie, { signalementAt: '2025-11-22' });
    const item = (await get(`/api/signalements/${code}`)).json();
    expect(item.signalementAt).toBe('2025-11-21T21:00:00.000Z');
    expect(await codesOn('2025-11-22')).toEqual([code]);
    await t.db.execute(sql`delete from ${t.db.t.signalements} where ${t.db.t.signalements.code} = ${code}`);
  });

  it('writes the Madagascar day in the export cells', async () => {
    const res = await get('/api/signalements/export/xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Signalements')!;
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    const dayOf = new Map<string, string>();
    for (let r = 2; r <= sheet.actualRowCount; r++) {
      const row = sheet.getRow(r);
      const date = row.getCell(headers.indexOf('Date du signalement') + 1).value as Date;
      dayOf.set(String(row.getCell(headers.indexOf('Code') + 1).value), date.toISOString().slice(0, 16));
    }
    expect(dayOf.get(late)).toBe('2025-11-20T23:30');
    expect(dayOf.get(early)).toBe('2025-11-21T00:30');
  });

  it('counts the dashboard per Madagascar day, per-day series and ranges alike', async () => {
    const perDay = (
      await get('/api/dashboard/signalement-per-jour?dateStart=2025-11-19&dateEnd=2025-11-22')
    ).json();
    expect(perDay).toEqual({ '2025-11-19': 0, '2025-11-20': 1, '2025-11-21': 1, '2025-11-22': 0 });
    expect(
      (await get('/api/dashboard/key-metrics?dateStart=2025-11-21&dateEnd=2025-11-21')).json(),
    ).toMatchObject({ total: 1 });
    expect(
      (await get('/api/dashboard/key-metrics?dateStart=2025-11-20&dateEnd=2025-11-20')).json(),
    ).toMatchObject({ total: 1 });
  });

  it('counts the period analysis per Madagascar day', async () => {
    // 06:00 on the 21st in Madagascar: 'today' is the 21st.
    const days = await overviewPerDay(t.ctx, 'day', new Date('2025-11-21T03:00:00Z'));
    expect(days['2025-11-20']).toBe(1);
    expect(days['2025-11-21']).toBe(1);
    expect(Object.keys(days).at(-1)).toBe('2025-11-21');
  });

  it('tells the public summary and the partner e-mail which day it was', async () => {
    const resume = (await get(`/api/resume/signalements-details/${early}`)).json();
    expect(resume).toMatchObject({ signalementAt: EARLY, timeZone: 'Indian/Antananarivo' });
    const input = encodeURIComponent(JSON.stringify({ code: early }));
    const mail = await get(`/trpc/signalements.defaultMailContent?input=${input}`);
    expect(JSON.stringify(mail.json())).toContain('reçu le 21/11/2025');
  });

  it('rebuilds the counts when the server starts with another zone, and back', async () => {
    const perDayUrl = '/api/dashboard/signalement-per-jour?dateStart=2025-11-20&dateEnd=2025-11-21';
    // A restart with APP_TIMEZONE=UTC on the same database: a context of its own, the same sessions.
    const config = { ...t.config, APP_TIMEZONE: 'UTC' };
    const utc = await buildApp({ ctx: createAppContext(config, { db: t.db, cipher: t.ctx.cipher }) });
    const getUtc = async (url: string) => {
      const res = await utc.inject({ url, headers: { cookie } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    try {
      expect(await syncBusinessCalendar(t.db, 'UTC')).toMatchObject({
        rebuilt: true,
        previousZone: 'Indian/Antananarivo',
      });
      expect((await storedOffsets(t.db)).zone).toBe('UTC');
      expect(await getUtc(perDayUrl)).toEqual({ '2025-11-20': 2, '2025-11-21': 0 });
      const list = await getUtc(
        '/api/signalements?signalementAt[after]=2025-11-20&signalementAt[before]=2025-11-20',
      );
      expect(list.member.map((s: { code: string }) => s.code)).toEqual([early, late]);
    } finally {
      await utc.close();
      await syncBusinessCalendar(t.db, DEFAULT_BUSINESS_TIME_ZONE);
    }
    expect((await get(perDayUrl)).json()).toEqual({ '2025-11-20': 1, '2025-11-21': 1 });
    // Nothing to do when the zone is unchanged.
    expect(await syncBusinessCalendar(t.db, DEFAULT_BUSINESS_TIME_ZONE)).toMatchObject({ rebuilt: false });
  });
});

describe.each(await testEngines())('the threads of a server in another zone on %s', (engine) => {
  it('cut the list and write the export cells by the days of APP_TIMEZONE, not Madagascar', async () => {
    // The task and export threads build their context, calendar included, from the server's configuration.
    const t = await createTestApp(engine, { APP_TIMEZONE: 'UTC' });
    try {
      await t.user('agent@example.mg', 'ROLE_USER', 'Agent Calendrier');
      const cookie = await t.login('agent@example.mg');
      const late = await createReport(t, cookie, { signalementAt: LATE });
      const early = await createReport(t, cookie, { signalementAt: EARLY });
      const get = async (url: string) => {
        const res = await t.app.inject({ url, headers: { cookie } });
        expect(res.statusCode, res.body).toBe(200);
        return res;
      };
      const list = await get(
        '/api/signalements?signalementAt[after]=2025-11-20&signalementAt[before]=2025-11-20',
      );
      expect(list.json().member.map((s: { code: string }) => s.code)).toEqual([early, late]);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(
        (await get('/api/signalements/export/xlsx')).rawPayload as unknown as ArrayBuffer,
      );
      const sheet = workbook.getWorksheet('Signalements')!;
      const headers = (sheet.getRow(1).values as unknown[]).slice(1);
      const cells = new Map<string, string>();
      for (let r = 2; r <= sheet.actualRowCount; r++) {
        const row = sheet.getRow(r);
        const date = row.getCell(headers.indexOf('Date du signalement') + 1).value as Date;
        cells.set(String(row.getCell(headers.indexOf('Code') + 1).value), date.toISOString().slice(0, 16));
      }
      expect(cells.get(late)).toBe('2025-11-20T20:30');
      expect(cells.get(early)).toBe('2025-11-20T21:30');
    } finally {
      await t.close();
    }
  });
});

describe.each(await testEngines())('two servers in one process, in two zones, on %s', (engine) => {
  // The zone is each context's (server/context.ts), never the process's: two apps built side by side with
  // different APP_TIMEZONE, asked at the same time, each answer by their own days. A zone held by a module
  // would give both the same days.
  const KIRITIMATI = 'Pacific/Kiritimati'; // UTC+14: 20:30 and 21:30 UTC are both the 21st there
  let madagascar: TestApp;
  let kiritimati: TestApp;
  const cookies = new Map<TestApp, string>();
  const codes = new Map<TestApp, { late: string; early: string }>();
  beforeAll(async () => {
    [madagascar, kiritimati] = await Promise.all([
      createTestApp(engine),
      createTestApp(engine, { APP_TIMEZONE: KIRITIMATI }),
    ]);
    for (const t of [madagascar, kiritimati]) {
      await t.user('agent@example.mg', 'ROLE_USER', 'Agent Calendrier');
      const cookie = await t.login('agent@example.mg');
      cookies.set(t, cookie);
      codes.set(t, {
        late: await createReport(t, cookie, { signalementAt: LATE }),
        early: await createReport(t, cookie, { signalementAt: EARLY }),
      });
    }
  });
  afterAll(async () => {
    await madagascar?.close();
    await kiritimati?.close();
  });

  const get = async (t: TestApp, url: string) => {
    const res = await t.app.inject({ url, headers: { cookie: cookies.get(t)! } });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  /** Both apps asked at once. */
  const both = <T>(ask: (t: TestApp) => Promise<T>) => Promise.all([ask(madagascar), ask(kiritimati)]);

  it('tells who-am-i and the public summary their own zone', async () => {
    const [mg, ki] = await both(async (t) => (await get(t, '/api/utilisateur/who-am-i')).json().timeZone);
    expect([mg, ki]).toEqual([DEFAULT_BUSINESS_TIME_ZONE, KIRITIMATI]);
    const login = await kiritimati.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'agent@example.mg', password: 'mot-de-passe-de-test-42' },
    });
    expect(sessionCookie(login)).toMatch(/^session=/);
    expect(login.json().timeZone).toBe(KIRITIMATI);
    const summaries = await both(
      async (t) => (await get(t, `/api/resume/signalements-details/${codes.get(t)!.early}`)).json().timeZone,
    );
    expect(summaries).toEqual([DEFAULT_BUSINESS_TIME_ZONE, KIRITIMATI]);
  });

  it('filters the list by its own days', async () => {
    const on21 = await both(async (t) =>
      (await get(t, '/api/signalements?signalementAt[after]=2025-11-21&signalementAt[before]=2025-11-21'))
        .json()
        .member.map((s: { code: string }) => s.code),
    );
    expect(on21).toEqual([
      [codes.get(madagascar)!.early],
      [codes.get(kiritimati)!.early, codes.get(kiritimati)!.late],
    ]);
  });

  it('counts the dashboard by its own days', async () => {
    const perDay = await both(async (t) =>
      (await get(t, '/api/dashboard/signalement-per-jour?dateStart=2025-11-20&dateEnd=2025-11-21')).json(),
    );
    expect(perDay).toEqual([
      { '2025-11-20': 1, '2025-11-21': 1 },
      { '2025-11-20': 0, '2025-11-21': 2 },
    ]);
  });

  it('writes the export cells, on the export thread, in its own wall clock', async () => {
    const cells = await both(async (t) => {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(
        (await get(t, '/api/signalements/export/xlsx')).rawPayload as unknown as ArrayBuffer,
      );
      const sheet = workbook.getWorksheet('Signalements')!;
      const headers = (sheet.getRow(1).values as unknown[]).slice(1);
      const byCode = new Map<string, string>();
      for (let r = 2; r <= sheet.actualRowCount; r++) {
        const row = sheet.getRow(r);
        const date = row.getCell(headers.indexOf('Date du signalement') + 1).value as Date;
        byCode.set(String(row.getCell(headers.indexOf('Code') + 1).value), date.toISOString().slice(0, 16));
      }
      return byCode.get(codes.get(t)!.late);
    });
    expect(cells).toEqual(['2025-11-20T23:30', '2025-11-21T10:30']);
  });
});

/** A migrations folder holding every migration before the business calendar. */
function migrationsBeforeCalendar(engine: Engine): { dir: string; folder: string } {
  const dir = mkdtempSync(join(tmpdir(), 'signalements-migrations-'));
  const folder = join(dir, 'migrations');
  cpSync(PATHS.migrations[engine], folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((e) => e.tag.endsWith('_business_calendar'));
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalPath, JSON.stringify(journal));
  return { dir, folder };
}

const OLD_ROWS = [
  `insert into utilisateur_roles (code, designation) values ('ROLE_USER', 'Utilisateur')`,
  `insert into utilisateurs (code, email, nom_prenom, role_id) values ('U1', 'u1@example.mg', 'Agent', 1)`,
  `insert into partenaires (code, designation, initial, color) values ('P1', 'Partenaire', 'PA', '#000000')`,
];

describe.each(await testEngines())('the business-calendar migration on %s', (engine) => {
  it('rebuilds the per-day counters of an existing database on Madagascar days', async () => {
    const { dir, folder } = migrationsBeforeCalendar(engine);
    const at = (iso: string) => (engine === 'sqlite' ? String(Date.parse(iso)) : `'${iso}'`);
    const reports = [
      `insert into signalements (code, signalement_at, created_by_id, partenaire_id) values ('SIG-LATE', ${at(LATE)}, 1, 1)`,
      `insert into signalements (code, signalement_at, created_by_id, partenaire_id) values ('SIG-EARLY', ${at(EARLY)}, 1, 1)`,
    ];
    const dayOf = (iso: string) => Math.floor(Date.parse(iso) / 86_400_000);
    let url: string;
    let dropPg: (() => Promise<void>) | undefined;
    if (engine === 'sqlite') {
      url = `file:${join(dir, 'old.db')}`;
      const conn = new BetterSqlite3(join(dir, 'old.db'));
      migrateSqlite(drizzleSqlite(conn), { migrationsFolder: folder });
      for (const statement of [...OLD_ROWS, ...reports]) conn.exec(statement);
      // eslint-disable-next-line no-restricted-syntax -- a raw better-sqlite3 connection on the old schema, not the query builder
      const old = conn.prepare(`select day, n from signalement_day_counts where dimension = 'total'`).all();
      expect(old).toEqual([{ day: dayOf(LATE), n: 2 }]);
      conn.close();
    } else {
      const name = `signalements_test_cal_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const u = new URL(PG_ADMIN_URL);
      u.pathname = `/${name}`;
      url = u.toString();
      dropPg = async () => {
        const client = new pg.Client({ connectionString: PG_ADMIN_URL });
        await client.connect();
        await client.query(`drop database if exists ${name} with (force)`);
        await client.end();
      };
      const pool = new pg.Pool({ connectionString: url });
      await migratePg(drizzlePg(pool), { migrationsFolder: folder });
      for (const statement of [...OLD_ROWS, ...reports]) await pool.query(statement);
      const old = await pool.query(`select day, n from signalement_day_counts where dimension = 'total'`);
      expect(old.rows).toEqual([{ day: dayOf(LATE), n: 2 }]);
      await pool.end();
    }
    const db = openDatabase(url);
    try {
      await db.migrate();
      const rows = await db.rows<{ day: number; n: number }>(
        sql`select day, n from signalement_day_counts where dimension = 'total' order by day`,
      );
      expect(rows.map((r) => ({ day: Number(r.day), n: Number(r.n) }))).toEqual([
        { day: dayOf('2025-11-20T00:00:00Z'), n: 1 },
        { day: dayOf('2025-11-21T00:00:00Z'), n: 1 },
      ]);
      expect((await storedOffsets(db)).zone).toBe('Indian/Antananarivo');
    } finally {
      await db.close();
      await dropPg?.();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
