import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import {
  overviewDistribution,
  overviewPerDay,
  overviewSeries,
  overviewSummary,
  overviewTop,
} from './overview';
import { periodWindows } from './periods';
import { businessCalendar, DEFAULT_BUSINESS_TIME_ZONE } from '#shared/calendar';
import { dayNumber } from '#shared/calendar';
import { eq, inArray } from 'drizzle-orm';
import { perDay } from './service';
import { insertFixture } from './test-fixture';

const MADAGASCAR = businessCalendar(DEFAULT_BUSINESS_TIME_ZONE);

describe('period windows', () => {
  it('compares the month to date with the same stretch of the previous month, in Madagascar days (UTC+3)', () => {
    const w = periodWindows(MADAGASCAR, 'month', new Date('2025-03-10T06:00:00Z'));
    expect(w.current).toEqual({
      start: new Date('2025-02-28T21:00:00Z'),
      end: new Date('2025-03-10T06:00:00Z'),
    });
    expect(w.previous).toEqual({
      start: new Date('2025-01-31T21:00:00Z'),
      end: new Date('2025-02-10T06:00:00Z'),
    });
    expect(w.series.map((b) => b.day)).toEqual([
      '2024-04-01',
      '2024-05-01',
      '2024-06-01',
      '2024-07-01',
      '2024-08-01',
      '2024-09-01',
      '2024-10-01',
      '2024-11-01',
      '2024-12-01',
      '2025-01-01',
      '2025-02-01',
      '2025-03-01',
    ]);
    // The daily chart covers at least the last 30 days.
    expect(w.days).toEqual({
      first: new Date('2025-02-09T00:00:00Z'),
      last: new Date('2025-03-10T00:00:00Z'),
    });
  });

  it('starts weeks on Monday and never lets the previous window run into the current one', () => {
    const sunday = periodWindows(MADAGASCAR, 'week', new Date('2025-03-09T20:00:00Z'));
    // 23:00 on Sunday 9 March in Madagascar: still the week of Monday 3 March (00:00 local = 21:00 UTC).
    expect(sunday.current.start).toEqual(new Date('2025-03-02T21:00:00Z'));
    expect(sunday.previous.start).toEqual(new Date('2025-02-23T21:00:00Z'));
    // 00:30 on Monday 10 March in Madagascar, still Sunday in UTC: a new week.
    const monday = periodWindows(MADAGASCAR, 'week', new Date('2025-03-09T21:30:00Z'));
    expect(monday.current.start).toEqual(new Date('2025-03-09T21:00:00Z'));
    expect(periodWindows(MADAGASCAR, 'day', new Date('2025-03-09T21:30:00Z')).series.at(-1)!.day).toBe(
      '2025-03-10',
    );
    const march31 = periodWindows(MADAGASCAR, 'month', new Date('2025-03-31T12:00:00Z'));
    expect(march31.previous.end).toEqual(new Date('2025-02-28T21:00:00Z'));
    const year = periodWindows(MADAGASCAR, 'year', new Date('2025-06-01T00:00:00Z'));
    expect(year.current.start).toEqual(new Date('2024-12-31T21:00:00Z'));
    expect(year.series.map((b) => b.day)).toEqual([
      '2021-01-01',
      '2022-01-01',
      '2023-01-01',
      '2024-01-01',
      '2025-01-01',
    ]);
    expect(year.days.first).toEqual(new Date('2025-01-01T00:00:00Z'));
  });
});

describe.each(await testEngines())('period analysis on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
    const u1 = await t.user('agent@example.mg', 'ROLE_USER', 'Rabe Hery');
    const u2 = await t.user('analyste@example.mg', 'ROLE_ANALYSTE', 'Rasoa Vola');
    await insertFixture(t.db, { u1, u2 });
    // Rabe Hery handles R1 (open, due on 20 March); Rasoa Vola R2 and R3 (treated in March, R3 closed after
    // 7 days) and R5 (closed in February). R4 (open, no niveau hence no due day) has nobody.
    const { t: tables } = t.db;
    const users = new Map(
      (
        await t.db.read
          .select({ id: tables.utilisateurs.id, code: tables.utilisateurs.code })
          .from(tables.utilisateurs)
          .where(inArray(tables.utilisateurs.code, [u1, u2]))
      ).map((u) => [u.code, u.id]),
    );
    const reports = new Map(
      (
        await t.db.read
          .select({ id: tables.signalements.id, code: tables.signalements.code })
          .from(tables.signalements)
      ).map((r) => [r.code, r.id]),
    );
    const assign = (code: string, user: string) => ({
      signalementId: reports.get(code)!,
      userId: users.get(user)!,
      assignedAt: new Date('2025-03-01T00:00:00Z'),
    });
    await t.db.transaction(async (tx) => {
      await tx
        .insert(tables.signalementAssignees)
        .values([assign('SIG-T-1', u1), assign('SIG-T-2', u2), assign('SIG-T-3', u2), assign('SIG-T-5', u2)]);
      await tx
        .update(tables.signalements)
        .set({ dueDay: dayNumber('2025-03-20') })
        .where(eq(tables.signalements.code, 'SIG-T-1'));
    });
  });
  afterAll(async () => t?.close());

  // March 2025 holds R1..R4; the previous window (all of February, capped at 1 March) holds R5.
  // 00:00 on 31 March in Madagascar.
  const END_OF_MARCH = new Date('2025-03-30T21:00:00Z');

  it('sums up the month against the previous one, with the status split and mean days to close', async () => {
    const s = await overviewSummary(t.ctx, 'month', END_OF_MARCH);
    expect(s.current).toEqual({ dateStart: '2025-03-01', dateEnd: '2025-03-30' });
    expect(s.previous).toEqual({ dateStart: '2025-02-01', dateEnd: '2025-02-28' });
    expect(s.totals).toEqual({
      received: { value: 4, previous: 1 },
      treated: { value: 2, previous: 1 },
      inProgress: { value: 2, previous: 0 },
      closed: { value: 1, previous: 1 },
      // R3 closed after 7 days; R5 after 2.
      avgResolutionDays: { value: 7, previous: 2 },
    });
    // R4 has no statut (waiting), R1 is NOUVEAU (open), R2 and R3 are treated.
    expect(s.status).toEqual({ waiting: 1, inProgress: 1, resolved: 2 });
  });

  it('raises urgent, overdue (past the stored due day), unassigned and untriaged alerts', async () => {
    const s = await overviewSummary(t.ctx, 'month', new Date('2025-04-10T00:00:00Z'));
    expect(s.alerts).toEqual([
      { id: 'urgent', type: 'urgent', count: 1, message: '1 signalement non traité de niveau « Critique »' },
      {
        id: 'overdue',
        type: 'overdue',
        count: 1,
        message: '1 signalement non traité en retard (délai de traitement dépassé)',
      },
      { id: 'unassigned', type: 'info', count: 1, message: '1 signalement non traité « Non assigné »' },
      { id: 'info', type: 'info', count: 1, message: '1 signalement non traité sans niveau de gravité' },
    ]);
    // 03:00 on 20 March in Madagascar: R1's due day itself is still on time.
    const onDueDay = await overviewSummary(t.ctx, 'month', new Date('2025-03-20T00:00:00Z'));
    expect(onDueDay.alerts.find((a) => a.id === 'overdue')!.count).toBe(0);
    // 00:00 on 21 March in Madagascar (20 March in UTC): one day late.
    const nextDay = await overviewSummary(t.ctx, 'month', new Date('2025-03-20T21:00:00Z'));
    expect(nextDay.alerts.find((a) => a.id === 'overdue')!.count).toBe(1);
  });

  it('draws the evolution: reports received per month and how many of them are treated', async () => {
    const series = await overviewSeries(t.ctx, 'month', END_OF_MARCH);
    expect(series).toHaveLength(12);
    expect(series.at(-1)).toEqual({ date: '2025-03-01', complaints: 4, resolved: 2 });
    expect(series.at(-2)).toEqual({ date: '2025-02-01', complaints: 1, resolved: 1 });
    expect(series.slice(0, -2).every((p) => p.complaints === 0 && p.resolved === 0)).toBe(true);
  });

  it('distributes the period by region, district, commune, subject, channel and project', async () => {
    const d = (dimension: Parameters<typeof overviewDistribution>[2]) =>
      overviewDistribution(t.ctx, 'month', dimension, END_OF_MARCH);
    expect(await d('region')).toEqual({
      total: 4,
      items: [
        expect.objectContaining({ designation: 'Analamanga', count: 2 }),
        expect.objectContaining({ designation: 'Vakinankaratra', count: 1 }),
      ],
    });
    expect((await d('district')).items.map((i) => i.count)).toEqual([2]);
    expect((await d('commune')).items.map((i) => i.count)).toEqual([1]);
    expect((await d('subject')).items).toEqual([
      { code: 'CORRUPTION', designation: 'Corruption', count: 3 },
      { code: 'DETOURNEMENT', designation: 'Détournement de deniers publics', count: 1 },
      { code: 'FRAUDE', designation: 'Fraude', count: 1 },
    ]);
    expect((await d('canal')).items).toEqual([
      { code: 'TELEPHONE', designation: 'Téléphone', count: 2 },
      { code: 'EMAIL', designation: 'Email', count: 1 },
    ]);
    expect((await d('project')).items).toEqual([
      { code: 'PRJ-T-1', designation: 'PAS — Projet d’appui social', count: 1 },
    ]);
    expect(await overviewDistribution(t.ctx, 'week', 'region', new Date('2024-06-01T00:00:00Z'))).toEqual({
      total: 0,
      items: [],
    });
  });

  it('ranks assignees overdue first, and partners by reports received with their mean days to close', async () => {
    const top = await overviewTop(t.ctx, 'month', END_OF_MARCH);
    // Rabe Hery has handled nothing but has an overdue report: he shows before Rasoa Vola, who handled two.
    expect(top.users).toEqual([
      {
        name: 'Rabe Hery',
        email: 'agent@example.mg',
        role: 'Utilisateur',
        complaintsHandled: 0,
        avgResolutionTime: null,
        openCases: 1,
        overdueCases: 1,
      },
      {
        name: 'Rasoa Vola',
        email: 'analyste@example.mg',
        role: 'Analyste',
        complaintsHandled: 2,
        avgResolutionTime: 7,
        openCases: 0,
        overdueCases: 0,
      },
    ]);
    // The year adds R5 (closed after 2 days) to Rasoa Vola's; on 15 March Rabe Hery's report is not yet late,
    // yet his open report still puts him first (open load before reports handled).
    const year = await overviewTop(t.ctx, 'year', new Date('2025-03-15T12:00:00Z'));
    expect(year.users.map((u) => [u.name, u.complaintsHandled, u.avgResolutionTime, u.overdueCases])).toEqual(
      [
        ['Rabe Hery', 0, null, 0],
        ['Rasoa Vola', 3, 4.5, 0],
      ],
    );
    expect(top.partners).toEqual([
      {
        code: 'IVY',
        designation: 'Ivorary',
        color: '#3b82f6',
        complaintsReceived: 3,
        avgResolutionTime: null,
      },
      {
        code: 'TST',
        designation: 'Partenaire Test',
        color: '#10b981',
        complaintsReceived: 1,
        avgResolutionTime: 7,
      },
    ]);
  });

  it('counts reports per day over the period and at least 30 days', async () => {
    const days = await overviewPerDay(t.ctx, 'week', new Date('2025-03-05T12:00:00Z'));
    const keys = Object.keys(days);
    expect(keys).toHaveLength(30);
    expect(keys[0]).toBe('2025-02-04');
    expect(keys.at(-1)).toBe('2025-03-05');
    expect(days['2025-02-28']).toBe(1);
    expect(days['2025-03-01']).toBe(2);
    expect(days['2025-03-05']).toBe(1);
    expect(Object.values(days).reduce((a, b) => a + b, 0)).toBe(5);
  });

  it('takes today from the context clock when no instant is given (every door passes its context)', async () => {
    const at = new Date('2025-03-05T12:00:00Z');
    const ctx = { ...t.ctx, clock: { now: () => at } };
    expect(await overviewPerDay(ctx, 'week')).toEqual(await overviewPerDay(t.ctx, 'week', at));
    expect(await overviewSummary(ctx, 'month')).toEqual(await overviewSummary(t.ctx, 'month', at));
    expect(await overviewSeries(ctx, 'month')).toEqual(await overviewSeries(t.ctx, 'month', at));
    expect(await overviewTop(ctx, 'year')).toEqual(await overviewTop(t.ctx, 'year', at));
    expect(await overviewDistribution(ctx, 'year', 'region')).toEqual(
      await overviewDistribution(t.ctx, 'year', 'region', at),
    );
    // The daily chart without bounds ends on the clock's day when no report is later.
    const later = { ...t.ctx, clock: { now: () => new Date('2025-06-01T22:00:00Z') } };
    expect(Object.keys(await perDay(later)).at(-1)).toBe('2025-06-02');
  });

  it('serves the analysis through tRPC to a logged-in user only', async () => {
    const url = `/trpc/dashboard.overview.summary?input=${encodeURIComponent(JSON.stringify({ period: 'year' }))}`;
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    const cookie = await t.login('agent@example.mg');
    const res = await t.app.inject({ url, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data.period).toBe('year');
    const bad = await t.app.inject({
      url: `/trpc/dashboard.overview.summary?input=${encodeURIComponent(JSON.stringify({ period: 'decade' }))}`,
      headers: { cookie },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('La période doit valoir day, week, month ou year.');
  });
});
