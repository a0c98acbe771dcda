// The access log cannot be flooded and has a retention (decision 0015, "Flooding", "Retention"): log-ins
// refused by the limiter are counted per address (one row for the first refusal of a window, one summary row
// for the rest); the hourly purge deletes entries older than ACCESS_LOG_RETENTION_DAYS business days and logs
// what it removed; no other DELETE gets through the triggers, on either engine.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, businessDay, businessDayStart, DEFAULT_BUSINESS_TIME_ZONE } from '#shared/calendar';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { accessLogRows } from '#tests/helpers/journal';
import { purgeExpired } from '../mail/retention';
import { recordAccess } from './append';
import { flushLoginRefusals, REFUSAL_WINDOW_MS } from './refusals';
import { purgeAccessLog } from './retention';

const DAY = 24 * 60 * 60_000;

describe.each(await testEngines())('access log flood and retention on %s', (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(engine, { ACCESS_LOG_RETENTION_DAYS: '365' });
    await t.user('cible@example.mg', 'ROLE_USER', 'Rabe Cible');
  });
  afterAll(async () => t?.close());

  /** The statement fails with the trigger's message (drizzle wraps the driver's error as its cause). */
  const refused = async (statement: string) => {
    const error: unknown = await t.db.execute(sql.raw(statement)).then(
      () => null,
      (e: unknown) => e,
    );
    const cause = (error as { cause?: { message?: string } } | null)?.cause?.message ?? String(error);
    expect(cause).toMatch(/append-only|access_log_purge/);
  };
  const entry = (at: Date, marque: string) =>
    recordAccess(
      t.db,
      {
        kind: 'connexion',
        userId: null,
        email: null,
        address: null,
        details: { etape: 'mot_de_passe', marque },
      },
      undefined,
      at,
    );

  it('writes a bounded number of rows for 1,000 refused log-ins from one address, then one summary row', async () => {
    const address = '41.188.70.7';
    const login = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'x-forwarded-for': address },
        payload: { email: 'cible@example.mg', password: 'pas-le-bon-mot-de-passe' },
      });
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1000; i++) {
      const { statusCode } = await login();
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 401: 5, 429: 995 });
    const fromAddress = async () =>
      (await accessLogRows(t, 'echec_connexion')).filter((r) => r.address === address);
    const rows = await fromAddress();
    // Five wrong passwords, then the first refusal of the window; the 994 others are only counted.
    expect(rows.map((r) => r.details.motif)).toEqual([
      ...Array(5).fill('mot_de_passe_incorrect'),
      'trop_de_tentatives',
    ]);

    // Once the window is over (the hourly maintenance, or the server's stop), one summary row.
    expect(await flushLoginRefusals(t.ctx.journal.refusals, t.db, Date.now() + REFUSAL_WINDOW_MS)).toBe(1);
    const after = await fromAddress();
    expect(after).toHaveLength(7);
    expect(after[6]!.details).toMatchObject({ motif: 'trop_de_tentatives', refus: 994, fenetreMinutes: 15 });
    expect(after[6]!.userId).toBeNull();
  });

  it('refuses a plain DELETE, UPDATE or TRUNCATE of the log, and a purge marker under 30 days', async () => {
    await entry(new Date(Date.now() - 800 * DAY), 'ancienne');
    await refused('DELETE FROM access_log');
    await refused("UPDATE access_log SET address = 'x'");
    if (engine === 'postgres') await refused('TRUNCATE access_log');
    // Even the purge's own marker cannot be set to spare nothing but the last days.
    const recent =
      engine === 'postgres' ? "now() - interval '1 day'" : 'cast(unixepoch() * 1000 as integer) - 86400000';
    await refused(`UPDATE access_log_purge SET cutoff = ${recent}`);
    await refused('DELETE FROM access_log_purge');
    expect((await accessLogRows(t)).some((r) => r.details.marque === 'ancienne')).toBe(true);
  });

  it('purges with the hourly maintenance only the entries older than the retention in business days, and logs it', async () => {
    const now = new Date();
    const firstKept = addDays(businessDay(now, DEFAULT_BUSINESS_TIME_ZONE), -365);
    const start = businessDayStart(firstKept, DEFAULT_BUSINESS_TIME_ZONE);
    await entry(new Date(start.getTime() - 1), 'veille');
    await entry(start, 'premier-jour');
    await entry(new Date(start.getTime() + DAY / 2), 'dans-la-periode');
    const before = (await accessLogRows(t)).length;

    const purged = await purgeExpired(t.ctx, undefined, now);
    expect(purged.accessLog.entries).toBe(2);
    const rows = await accessLogRows(t);
    const marks = rows.map((r) => r.details.marque).filter(Boolean);
    expect(marks).toEqual(['premier-jour', 'dans-la-periode']);
    expect(rows).toHaveLength(before - 2 + 1);
    const [purge] = await accessLogRows(t, 'purge');
    expect(purge!.details).toEqual({ supprimees: 2, avant: firstKept, conservationJours: 365 });

    // The marker was cleared: a plain DELETE is refused again, and a second purge finds nothing.
    await refused('DELETE FROM access_log');
    const [marker] = await t.db.read.select().from(t.db.t.accessLogPurge);
    expect(marker).toEqual({ id: 1, cutoff: null });
    expect(await purgeAccessLog(t.ctx.journal, t.ctx.calendar, t.db, now)).toEqual({
      entries: 0,
      refusals: 0,
    });
  });

  it('shows the purge on the Journal des accès screen in French', async () => {
    await t.user('admin@example.mg', 'ROLE_ADMIN', 'Rasoa Admin');
    const admin = await t.login('admin@example.mg');
    const input = encodeURIComponent(JSON.stringify({ page: 1, filters: { kind: 'purge' } }));
    const res = await t.app.inject({ url: `/trpc/journal.list?input=${input}`, headers: { cookie: admin } });
    expect(res.statusCode, res.body).toBe(200);
    const day = addDays(businessDay(new Date(), DEFAULT_BUSINESS_TIME_ZONE), -365)
      .split('-')
      .reverse()
      .join('/');
    expect(res.json().result.data.items[0].description).toBe(
      `Purge des entrées antérieures au ${day} (conservation 365 jours) : 2 entrées supprimées`,
    );
  });
});
