// Alerts on unusual reading (decision 0015, "Alerts"), driven by a scripted burst: a user who opens the
// people of ACCESS_ALERT_READS reports within the window raises one alert, seen by administrators in
// journal.alerts and sent to every enabled administrator through the outbox; a large export raises
// an `export_massif` alert.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { businessDay, businessDayStart, DEFAULT_BUSINESS_TIME_ZONE } from '#shared/calendar';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { SAME_ORIGIN } from '#tests/helpers/report-fixture';
import { createReport } from '#tests/helpers/signalements';
import type { AccessAlertDto } from '#shared/dto/journal';

describe.each(await testEngines())('alerts on unusual reading on %s', (engine) => {
  let t: TestApp;
  let creator: string;
  let admin: string;
  let burstCode: string;
  const reports: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(engine, {
      ACCESS_ALERT_READS: '5',
      ACCESS_ALERT_EXPORT_MIN_ROWS: '4',
      ACCESS_ALERT_EXPORT_SHARE: '0.5',
      PUBLIC_URL: 'https://signalements.example.mg',
    });
    await t.user('createur@example.mg', 'ROLE_USER', 'Rabe Createur');
    burstCode = await t.user('rafale@example.mg', 'ROLE_USER', 'Rakoto Rafale');
    await t.user('admin@example.mg', 'ROLE_ADMIN', 'Rasoa Admin');
    await t.user('admin2@example.mg', 'ROLE_ADMIN', 'Ravelo Admin');
    const disabled = await t.user('ancien@example.mg', 'ROLE_ADMIN', 'Rajao Ancien');
    const u = t.db.t.utilisateurs;
    await t.db.transaction((tx) => tx.update(u).set({ isEnabled: false }).where(eq(u.code, disabled)));
    creator = await t.login('createur@example.mg');
    admin = await t.login('admin@example.mg');
    for (let i = 0; i < 7; i++) reports.push(await createReport(t, creator));
  });
  afterAll(async () => t?.close());

  const alerts = async (cookie = admin): Promise<AccessAlertDto[]> => {
    const res = await t.app.inject({ url: '/trpc/journal.alerts', headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result.data;
  };
  const alertMails = async () => {
    const o = t.db.t.mailOutbox;
    return t.db.read.select().from(o).where(eq(o.kind, 'access-alert'));
  };
  const readAuthors = async (cookie: string, report: string) => {
    const res = await t.app.inject({ url: `/api/signalements/${report}/auteurs`, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('raises one alert and one e-mail per enabled administrator when a user opens the people of 5 reports', async () => {
    const reader = await t.login('rafale@example.mg');
    for (const report of reports.slice(0, 4)) await readAuthors(reader, report);
    // Reading the same report again does not count twice.
    await readAuthors(reader, reports[0]!);
    expect(await alerts()).toEqual([]);
    expect(await alertMails()).toEqual([]);

    await readAuthors(reader, reports[4]!);
    const [alert, ...others] = await alerts();
    expect(others).toEqual([]);
    expect(alert).toMatchObject({
      kind: 'lecture_massive',
      utilisateur: { code: burstCode, nomPrenom: 'Rakoto Rafale', email: 'rafale@example.mg' },
      message: 'a consulté les personnes de 5 signalements en 10 minutes',
      details: { signalements: 5, fenetreMinutes: 10, seuil: 5 },
    });
    const mails = await alertMails();
    expect(mails.map((m) => m.to).sort()).toEqual(['admin2@example.mg', 'admin@example.mg']);
    for (const mail of mails) {
      expect(mail.subject).toBe("Signalements : alerte d'accès inhabituel (Rakoto Rafale)");
      expect(mail.text).toContain(
        'Rakoto Rafale (rafale@example.mg, ' +
          burstCode +
          ') a consulté les personnes de 5 signalements en 10 minutes',
      );
      expect(mail.text).toContain(
        `https://signalements.example.mg/admin/journal-acces?utilisateur=${burstCode}`,
      );
    }

    // A sixth report within the window: still one alert, no new e-mail.
    await readAuthors(reader, reports[5]!);
    expect(await alerts()).toHaveLength(1);
    expect(await alertMails()).toHaveLength(2);
  });

  it('keeps an alert on the dashboard until an administrator marks it seen; an unknown alert is 404', async () => {
    const [alert] = await alerts();
    const mark = (id: number) =>
      t.app.inject({
        method: 'POST',
        url: '/trpc/journal.markAlertSeen',
        headers: { cookie: admin, ...SAME_ORIGIN },
        payload: { id },
      });
    expect((await mark(alert!.id)).statusCode).toBe(200);
    expect(await alerts()).toEqual([]);
    const a = t.db.t.accessAlerts;
    const [row] = await t.db.read.select().from(a).where(eq(a.id, alert!.id));
    expect(row!.seenAt).toBeInstanceOf(Date);
    expect(row!.seenBy).not.toBeNull();
    const unknown = await mark(999_999);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('Alerte introuvable.');
  });

  it('raises an export_massif alert for an export of a large share of the reports, not for a small one', async () => {
    await t.user('exporte@example.mg', 'ROLE_USER', 'Randria Exporte');
    await t.user('petit@example.mg', 'ROLE_USER', 'Rabary Petit');
    const small = await t.login('petit@example.mg');
    const res = await t.app.inject({
      url: `/api/signalements/export/list?search=${reports[0]}`,
      headers: { cookie: small },
    });
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['x-total-count'])).toBeLessThan(4);
    expect((await alerts()).filter((a) => a.kind === 'export_massif')).toEqual([]);

    const big = await t.login('exporte@example.mg');
    const all = await t.app.inject({ url: '/api/signalements/export/xlsx', headers: { cookie: big } });
    expect(all.statusCode).toBe(200);
    const [alert] = (await alerts()).filter((a) => a.kind === 'export_massif');
    expect(alert).toMatchObject({
      utilisateur: { email: 'exporte@example.mg' },
      message: 'a exporté 7 signalements sur 7 (100 %) en xlsx',
      details: { format: 'xlsx', lignes: 7, total: 7 },
    });
    expect((await alertMails()).filter((m) => m.subject.includes('Randria Exporte'))).toHaveLength(2);
  });
});

// Decision 0015, "Alerts": daily totals on top of the sliding window, so that reading slowly or exporting in
// chunks does not evade the alerts; one alert per user, rule and business day; no administrator closes an
// alert about themselves. The clock (Date only) is set, so minutes pass without waiting and the business day
// (Madagascar time) is known.
describe.each(await testEngines())('alerts that slow reading does not evade on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let otherAdmin: string;
  const reports: string[] = [];
  const MINUTE = 60_000;
  // Noon of today's business day: the test's half hour stays within one business day.
  const noon =
    businessDayStart(
      businessDay(new Date(), DEFAULT_BUSINESS_TIME_ZONE),
      DEFAULT_BUSINESS_TIME_ZONE,
    ).getTime() +
    12 * 60 * MINUTE;
  const at = (minutes: number) => vi.setSystemTime(noon + minutes * MINUTE);

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(0);
    t = await createTestApp(engine, {
      ACCESS_ALERT_READS: '5',
      ACCESS_ALERT_WINDOW_MINUTES: '10',
      ACCESS_ALERT_DAILY_READS: '8',
      ACCESS_ALERT_EXPORT_MIN_ROWS: '4',
      ACCESS_ALERT_EXPORT_SHARE: '0.5',
      ACCESS_ALERT_DAILY_EXPORT_ROWS: '6',
    });
    await t.user('createur@example.mg', 'ROLE_USER', 'Rabe Createur');
    await t.user('lent@example.mg', 'ROLE_USER', 'Rakoto Lent');
    await t.user('morceaux@example.mg', 'ROLE_USER', 'Randria Morceaux');
    await t.user('admin@example.mg', 'ROLE_ADMIN', 'Rasoa Admin');
    await t.user('admin2@example.mg', 'ROLE_ADMIN', 'Ravelo Admin');
    const creator = await t.login('createur@example.mg');
    admin = await t.login('admin@example.mg');
    otherAdmin = await t.login('admin2@example.mg');
    for (let i = 0; i < 9; i++) reports.push(await createReport(t, creator));
  });
  afterAll(async () => {
    // The real clock back even when the app fails to close: the next file of this process reads it.
    try {
      await t?.close();
    } finally {
      vi.useRealTimers();
    }
  });

  const alertsAbout = async (email: string) => {
    const res = await t.app.inject({ url: '/trpc/journal.alerts', headers: { cookie: admin } });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().result.data as AccessAlertDto[]).filter((a) => a.utilisateur.email === email);
  };
  const readAuthors = async (cookie: string, report: string) => {
    const res = await t.app.inject({ url: `/api/signalements/${report}/auteurs`, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('raises a daily alert for 4 reports read every 11 minutes, below the window threshold, once a day', async () => {
    const reader = await t.login('lent@example.mg');
    for (const [i, report] of reports.slice(0, 7).entries()) {
      at(Math.floor(i / 4) * 11);
      await readAuthors(reader, report);
    }
    expect(await alertsAbout('lent@example.mg')).toEqual([]);
    at(11);
    await readAuthors(reader, reports[7]!);
    const [alert, ...others] = await alertsAbout('lent@example.mg');
    expect(others).toEqual([]);
    expect(alert).toMatchObject({
      kind: 'lecture_quotidienne',
      message: 'a consulté les personnes de 8 signalements dans la journée (seuil : 8)',
      details: { signalements: 8, seuil: 8, jour: businessDay(new Date(noon), DEFAULT_BUSINESS_TIME_ZONE) },
    });
    at(22);
    await readAuthors(reader, reports[8]!);
    expect(await alertsAbout('lent@example.mg')).toHaveLength(1);
  });

  it('raises the window alert once a day, not once per window', async () => {
    const reader = await t.login('lent@example.mg');
    for (const minutes of [30, 45]) {
      at(minutes);
      for (const report of reports.slice(0, 5)) await readAuthors(reader, report);
    }
    expect((await alertsAbout('lent@example.mg')).map((a) => a.kind).sort()).toEqual([
      'lecture_massive',
      'lecture_quotidienne',
    ]);
  });

  it('adds up the exports of the day: 5 one-report exports reach the share rule, 6 the daily rows', async () => {
    const exporter = await t.login('morceaux@example.mg');
    const exportOne = async (i: number) => {
      at(i * 3);
      const res = await t.app.inject({
        url: `/api/signalements/export/list?search=${reports[i]}`,
        headers: { cookie: exporter },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['x-total-count']).toBe('1');
    };
    for (let i = 0; i < 4; i++) await exportOne(i);
    expect(await alertsAbout('morceaux@example.mg')).toEqual([]);
    await exportOne(4);
    const [massive] = await alertsAbout('morceaux@example.mg');
    expect(massive).toMatchObject({
      kind: 'export_massif',
      message: 'a exporté 5 signalements sur 9 (56 %) en 5 exports dans la journée',
      details: { lignes: 5, exports: 5, total: 9 },
    });
    await exportOne(5);
    await exportOne(6);
    const kinds = (await alertsAbout('morceaux@example.mg')).map((a) => a.kind).sort();
    expect(kinds).toEqual(['export_massif', 'export_quotidien']);
  });

  it('refuses an administrator marking seen an alert about themselves, in French; another administrator may', async () => {
    const a = t.db.t.accessAlerts;
    const u = t.db.t.utilisateurs;
    const [me] = await t.db.read.select({ id: u.id }).from(u).where(eq(u.email, 'admin@example.mg'));
    const [row] = await t.db.transaction((tx) =>
      tx
        .insert(a)
        .values({
          kind: 'lecture_massive',
          userId: me!.id,
          details: { signalements: 5, fenetreMinutes: 10, seuil: 5 },
          createdAt: new Date(),
        })
        .returning({ id: a.id }),
    );
    const mark = (cookie: string) =>
      t.app.inject({
        method: 'POST',
        url: '/trpc/journal.markAlertSeen',
        headers: { cookie, ...SAME_ORIGIN },
        payload: { id: row!.id },
      });
    const own = await mark(admin);
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toBe(
      'Une alerte qui vous concerne doit être marquée vue par un autre administrateur.',
    );
    expect((await alertsAbout('admin@example.mg')).map((x) => x.id)).toContain(row!.id);
    expect((await mark(otherAdmin)).statusCode).toBe(200);
    expect((await alertsAbout('admin@example.mg')).map((x) => x.id)).not.toContain(row!.id);
  });
});
