// The daily reminders (docs/decisions/0036-daily-reminders.md) on both engines, with the services' clock
// fixed: who gets which e-mail, nothing for someone with nothing due or with the reminder off, no person in
// any message, exactly once per business day with two servers on one database racing and across a restart,
// a failure before COMMIT leaving the day to the next look; and each user's own switch through both doors.
import { and, asc, eq, lte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayNumber } from '#shared/calendar';
import type { Config } from '#server/config';
import { openDatabase, type Database } from '#server/db/client';
import { createTestApp, type TestApp } from '#tests/helpers/app';
import { testEngines } from '#tests/helpers/db';
import { createReport } from '#tests/helpers/signalements';
import { sendDailyDigests, type DigestContext } from './digest';
import { startDigestScheduler } from './scheduler';

const VICTIME = 'Rabenandrasana Victime';

describe.each(await testEngines())('daily reminders on %s', (engine) => {
  let t: TestApp;
  let now = new Date('2026-11-26T09:00:00Z'); // Thursday 26 November 2026, 12:00 in Madagascar
  const clock = { now: () => now };
  const today = dayNumber('2026-11-26');
  const cookies: Record<string, string> = {};
  const codes: Record<string, string> = {};
  const ctx = (db: Database = t.db, config: Config = t.config): DigestContext => ({
    db,
    config,
    clock,
    calendar: t.ctx.calendar,
  });

  const userId = async (email: string) => {
    const u = t.db.t.utilisateurs;
    const [row] = await t.db.read.select({ id: u.id }).from(u).where(eq(u.email, email));
    return row!.id;
  };
  const setDueDay = (code: string, day: number) =>
    t.db.transaction((tx) =>
      tx.update(t.db.t.signalements).set({ dueDay: day }).where(eq(t.db.t.signalements.code, code)),
    );
  const assign = async (code: string, email: string) => {
    const s = t.db.t.signalements;
    const [report] = await t.db.read.select({ id: s.id }).from(s).where(eq(s.code, code));
    const user = await userId(email);
    await t.db.transaction((tx) =>
      tx
        .insert(t.db.t.signalementAssignees)
        .values({ signalementId: report!.id, userId: user, assignedAt: now }),
    );
  };
  const digests = async () => {
    const m = t.db.t.mailOutbox;
    return t.db.read
      .select({ to: m.to, subject: m.subject, text: m.text, html: m.html })
      .from(m)
      .where(eq(m.kind, 'digest'))
      .orderBy(asc(m.id));
  };
  const claimedDays = async () => {
    const d = t.db.t.dailyDigests;
    return (await t.db.read.select({ day: d.day, mails: d.mails }).from(d).orderBy(asc(d.day))).map((r) => [
      r.day,
      r.mails,
    ]);
  };
  const send = (cookie: string, method: 'GET' | 'PATCH' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: {
        cookie,
        'sec-fetch-site': 'same-origin',
        ...(method === 'PATCH' ? { 'content-type': 'application/merge-patch+json' } : {}),
      },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  beforeAll(async () => {
    t = await createTestApp(engine, {}, { clock });
    await t.user('chef@example.mg', 'ROLE_ADMIN', 'Rasoa Chef');
    await t.user('agent@example.mg', 'ROLE_USER', 'Rabe Agent');
    await t.user('calme@example.mg', 'ROLE_USER', 'Rakoto Calme');
    await t.user('silence@example.mg', 'ROLE_USER', 'Ravelo Silence');
    await t.user('parti@example.mg', 'ROLE_USER', 'Randria Parti');
    for (const email of ['chef@example.mg', 'agent@example.mg', 'silence@example.mg'])
      cookies[email] = await t.login(email);
    const agent = cookies['agent@example.mg']!;
    for (const name of ['retard', 'bientot', 'tard', 'sans', 'calme', 'silence', 'parti', 'orphelin'])
      codes[name] = await createReport(t, agent);
    const victime = await send(agent, 'POST', '/api/victimes', {
      signalement: `/api/signalements/${codes.retard}`,
      nomPrenom: VICTIME,
    });
    expect(victime.statusCode, victime.body).toBe(201);
    await setDueDay(codes.retard!, today - 2); // overdue by two days
    await setDueDay(codes.bientot!, today + 3); // due within three days
    await setDueDay(codes.tard!, today + 4); // not yet
    await setDueDay(codes.calme!, today + 10);
    await setDueDay(codes.silence!, today - 1);
    await setDueDay(codes.parti!, today);
    await setDueDay(codes.orphelin!, today - 5); // overdue, nobody's
    for (const name of ['retard', 'bientot', 'tard', 'sans']) await assign(codes[name]!, 'agent@example.mg');
    await assign(codes.calme!, 'calme@example.mg');
    await assign(codes.silence!, 'silence@example.mg');
    await assign(codes.parti!, 'parti@example.mg');
    // The reminder turned off by its owner (REST), and an account disabled by an administrator.
    const off = await send(cookies['silence@example.mg']!, 'PATCH', '/api/utilisateur/preferences', {
      recapitulatifQuotidien: false,
    });
    expect(off.statusCode, off.body).toBe(200);
    const u = t.db.t.utilisateurs;
    await t.db.transaction((tx) =>
      tx.update(u).set({ isEnabled: false }).where(eq(u.email, 'parti@example.mg')),
    );
  });
  afterAll(async () => t?.close());

  it('sends nothing before DIGEST_HOUR in the business time zone, and claims nothing', async () => {
    now = new Date('2026-11-26T03:59:00Z'); // 06:59 in Madagascar
    expect(await sendDailyDigests(ctx())).toBeNull();
    expect(await claimedDays()).toEqual([]);
    expect(await digests()).toEqual([]);
  });

  it('from the hour, queues one e-mail per assignee with something due and one per administrator', async () => {
    now = new Date('2026-11-26T04:00:00Z'); // 07:00 in Madagascar
    expect(await sendDailyDigests(ctx())).toEqual({ day: today, mails: 2 });
    expect(await claimedDays()).toEqual([[today, 2]]);
    const mails = await digests();
    // Not the one with nothing due within three days, nor the one who turned it off, nor a disabled account.
    expect(mails.map((m) => m.to).sort()).toEqual(['agent@example.mg', 'chef@example.mg']);
    const agent = mails.find((m) => m.to === 'agent@example.mg')!;
    expect(agent.subject).toBe('Signalements : récapitulatif du jour (2 à traiter, 1 en retard)');
    expect(agent.text).toContain(`${codes.retard} — `);
    expect(agent.text).toContain('échéance le 24/11/2026 : En retard de 2 jours');
    expect(agent.text).toContain(`${codes.bientot} — `);
    expect(agent.text).toContain('échéance le 29/11/2026 : Échéance dans 3 jours');
    expect(agent.text).toContain(`http://localhost:3000/admin/signalement/detail/${codes.retard}`);
    expect(agent.text).toMatch(/Mes dossiers : http:\/\/localhost:3000\/admin\/signalement\/list\?assigne=/);
    for (const name of ['tard', 'sans', 'calme', 'silence', 'parti'])
      expect(agent.text).not.toContain(codes[name]);
    expect(agent.html).toContain(
      `<a href="http://localhost:3000/admin/signalement/detail/${codes.bientot}" style="color:#2563eb">${codes.bientot}</a>`,
    );
    expect(agent.html).toContain('<strong>En retard de 2 jours</strong>');
    const chef = mails.find((m) => m.to === 'chef@example.mg')!;
    // Only « orphelin » has nobody; the overdue ones of the disabled account and of the switch off count too.
    expect(chef.text).toContain(`Signalements ouverts non assignés : 1 — ${codes.orphelin}.`);
    expect(chef.text).toContain('/admin/signalement/list?assigne=aucun');
    expect(chef.text).toContain(
      `Signalements en retard : 3 — ${codes.orphelin}, ${codes.retard}, ${codes.silence}.`,
    );
    expect(chef.text).toContain('/admin/signalement/list?echeance=en_retard');
    // Codes, partners and niveaux only: never a person of a report.
    for (const mail of mails) {
      expect(mail.text).not.toContain(VICTIME);
      expect(mail.html).not.toContain(VICTIME);
    }
  });

  it('sends the day once: again later that day, or from a second server on the same database', async () => {
    now = new Date('2026-11-26T15:00:00Z');
    expect(await sendDailyDigests(ctx())).toBeNull();
    const other = openDatabase(t.config.DATABASE_URL);
    try {
      expect(await sendDailyDigests(ctx(other))).toBeNull();
    } finally {
      await other.close();
    }
    expect((await digests()).length).toBe(2);
  });

  // A SQLite database is served by one process (claimServer): there, two looks of that process race.
  it('two servers racing at the hour: exactly one queues the day', async () => {
    now = new Date('2026-11-27T04:00:30Z'); // Friday 27, 07:00 in Madagascar
    const other = engine === 'postgres' ? openDatabase(t.config.DATABASE_URL) : t.db;
    try {
      const runs = await Promise.all([sendDailyDigests(ctx()), sendDailyDigests(ctx(other))]);
      expect(runs.filter((r) => r !== null)).toEqual([{ day: today + 1, mails: 2 }]);
    } finally {
      if (other !== t.db) await other.close();
    }
    expect(await claimedDays()).toEqual([
      [today, 2],
      [today + 1, 2],
    ]);
    expect((await digests()).length).toBe(4);
  });

  it('a failure before COMMIT claims nothing; the next look, after a restart, sends the day', async () => {
    now = new Date('2026-11-28T05:00:00Z'); // Saturday 28, 08:00 in Madagascar
    let reads = 0;
    // PUBLIC_URL is read while the e-mails are written, after the day's row was inserted.
    const failing = new Proxy(t.config, {
      get(target, key, receiver) {
        if (key === 'PUBLIC_URL' && reads++ === 0) throw new Error('panne simulée');
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    await expect(sendDailyDigests(ctx(t.db, failing))).rejects.toThrow('panne simulée');
    expect(await claimedDays()).toHaveLength(2);
    expect((await digests()).length).toBe(4);
    // A restarted server: a new connection to the same database.
    const restarted = openDatabase(t.config.DATABASE_URL);
    try {
      expect(await sendDailyDigests(ctx(restarted))).toEqual({ day: today + 2, mails: 2 });
      expect(await sendDailyDigests(ctx(restarted))).toBeNull();
    } finally {
      await restarted.close();
    }
    expect((await digests()).length).toBe(6);
  });

  it('a day no server looked at after the hour is not sent the next day', async () => {
    // Nobody ran on Sunday 29; Monday 30 before the hour sends nothing, from the hour sends Monday only.
    now = new Date('2026-11-30T03:00:00Z');
    expect(await sendDailyDigests(ctx())).toBeNull();
    now = new Date('2026-11-30T04:00:00Z');
    expect((await sendDailyDigests(ctx()))?.day).toBe(today + 4);
    expect((await claimedDays()).map(([day]) => day)).toEqual([today, today + 1, today + 2, today + 4]);
  });

  it('the scheduler of each server looks through the same function, and stops cleanly', async () => {
    now = new Date('2026-12-01T04:00:00Z');
    const logged: string[] = [];
    const log = {
      info: (_: object, msg: string) => void logged.push(msg),
      error: (_: object, msg: string) => void logged.push(msg),
    };
    const a = startDigestScheduler({ ctx: ctx(), log, intervalMs: 3_600_000 });
    const b = startDigestScheduler({ ctx: ctx(), log, intervalMs: 3_600_000 });
    await Promise.all([a.check(), b.check()]);
    await Promise.all([a.stop(), b.stop()]);
    expect(logged).toEqual(['Rappels quotidiens mis en file d’envoi.']);
    expect((await claimedDays()).at(-1)).toEqual([today + 5, 2]);
  });

  it('each user turns their own reminder off and on through REST and tRPC, logged in the access log', async () => {
    const agent = cookies['agent@example.mg']!;
    const read = await send(agent, 'GET', '/api/utilisateur/preferences');
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({
      '@id': '/api/utilisateur/preferences',
      '@type': 'Preferences',
      recapitulatifQuotidien: true,
      heureRecapitulatif: 7,
      fuseau: 'heure de Madagascar',
    });
    const off = await send(agent, 'POST', '/trpc/preferences.update', { recapitulatifQuotidien: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().result.data.recapitulatifQuotidien).toBe(false);
    const got = await send(agent, 'GET', '/trpc/preferences.get');
    expect(got.json().result.data.recapitulatifQuotidien).toBe(false);
    // Off: Wednesday 2 brings nothing for them; the administrator's is still sent.
    now = new Date('2026-12-02T04:00:00Z');
    const before = (await digests()).length;
    expect(await sendDailyDigests(ctx())).toEqual({ day: today + 6, mails: 1 });
    expect((await digests()).slice(before).map((m) => m.to)).toEqual(['chef@example.mg']);
    const on = await send(agent, 'PATCH', '/api/utilisateur/preferences', { recapitulatifQuotidien: true });
    expect(on.json().recapitulatifQuotidien).toBe(true);
    const bad = await send(agent, 'PATCH', '/api/utilisateur/preferences', { recapitulatifQuotidien: 'oui' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Veuillez indiquer vrai ou faux pour le récapitulatif quotidien.');
    const l = t.db.t.accessLog;
    const entries = await t.db.read
      .select({ details: l.details })
      .from(l)
      .where(and(eq(l.kind, 'parametres'), eq(l.userEmail, 'agent@example.mg')))
      .orderBy(asc(l.id));
    expect(entries.map((e) => e.details)).toEqual([
      { parametre: 'recapitulatif_quotidien', avant: true, apres: false },
      { parametre: 'recapitulatif_quotidien', avant: false, apres: true },
    ]);
  });

  it('waits for a DIGEST_HOUR other than the default: nothing at 14:59 in Madagascar, the day at 15:00', async () => {
    const at15 = { ...t.config, DIGEST_HOUR: 15 };
    const before = (await digests()).length;
    now = new Date('2026-12-03T11:59:59Z'); // Thursday 3 December, 14:59:59 in Madagascar
    expect(await sendDailyDigests(ctx(t.db, at15))).toBeNull();
    expect((await claimedDays()).map(([day]) => day)).not.toContain(today + 7);
    expect((await digests()).length).toBe(before);
    now = new Date('2026-12-03T12:00:00Z'); // 15:00
    // « calme » is now due within three days too.
    expect(await sendDailyDigests(ctx(t.db, at15))).toEqual({ day: today + 7, mails: 3 });
    expect(
      (await digests())
        .slice(before)
        .map((m) => m.to)
        .sort(),
    ).toEqual(['agent@example.mg', 'calme@example.mg', 'chef@example.mg']);
  });

  it('sends administrators nothing when no report is unassigned or overdue', async () => {
    now = new Date('2026-12-04T04:00:00Z'); // Friday 4 December, 07:00 in Madagascar
    const day = today + 8;
    // Nobody's report assigned, every overdue one moved a month on; « bientot » still due for its assignee.
    await assign(codes.orphelin!, 'calme@example.mg');
    const s = t.db.t.signalements;
    await t.db.transaction((tx) =>
      tx
        .update(s)
        .set({ dueDay: day + 30 })
        .where(lte(s.dueDay, day)),
    );
    await setDueDay(codes.bientot!, day + 2);
    const before = (await digests()).length;
    expect(await sendDailyDigests(ctx())).toEqual({ day, mails: 2 });
    // Assignees with something due soon still get theirs; the administrator none.
    expect(
      (await digests())
        .slice(before)
        .map((m) => m.to)
        .sort(),
    ).toEqual(['agent@example.mg', 'calme@example.mg']);
  });
});
