import { and, asc, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { dayNumber } from '#shared/calendar';
import { sendDailyDigests } from '#server/domains/rappels/digest';
import { describeViolations, seriousViolations } from './axe';
import { createReportByApi, toast, useE2E } from './harness';
import { PASSWORD, signInByApi } from './sign-in';

/**
 * Daily reminders (docs/decisions/0036-daily-reminders.md): a staff member turns their reminder off and on in
 * « Rappels quotidiens » of the Configuration page; with an injected clock past the hour, the server's own
 * check (the function its timer calls each minute) queues the digest, read back from the outbox, whose
 * report link opens the report.
 */
describe('daily reminders', () => {
  const e = useE2E();
  let agent: Page;
  let code: string;
  // Days far from the real one: the server's own timer has already claimed today (with nothing due).
  const first = new Date('2030-01-15T05:00:00Z'); // Tuesday 15 January 2030, 08:00 in Madagascar
  const second = new Date('2030-01-16T05:00:00Z');

  const runDigest = (at: Date) => sendDailyDigests({ ...e.running.ctx, clock: { now: () => at } });
  const digestsTo = async (email: string) => {
    const { db } = e.running;
    const m = db.t.mailOutbox;
    return db.read
      .select({ subject: m.subject, text: m.text })
      .from(m)
      .where(and(eq(m.kind, 'digest'), eq(m.to, email)))
      .orderBy(asc(m.id));
  };

  beforeAll(async () => {
    await e.user('rappel@example.mg', 'ROLE_USER', 'Rabe Rappel');
    agent = await e.newPage();
    await signInByApi(agent, 'rappel@example.mg', PASSWORD);
    code = await createReportByApi(agent);
    // Assigned to them, due on 13 January 2030: overdue by two days on the 15th.
    const { db } = e.running;
    const { signalements: s, utilisateurs: u, signalementAssignees: a } = db.t;
    const [report] = await db.read.select({ id: s.id }).from(s).where(eq(s.code, code));
    const [user] = await db.read.select({ id: u.id }).from(u).where(eq(u.email, 'rappel@example.mg'));
    await db.transaction(async (tx) => {
      await tx
        .update(s)
        .set({ dueDay: dayNumber('2030-01-13') })
        .where(eq(s.id, report!.id));
      await tx.insert(a).values({ signalementId: report!.id, userId: user!.id, assignedAt: new Date() });
    });
  });

  it('lets a user turn their digest off, then on, and the digest is read back from the outbox', async () => {
    await agent.goto('/admin/configuration');
    const section = agent.getByTestId('rappels-section');
    await expect.poll(() => section.textContent(), { timeout: 30_000 }).toContain('Rappels quotidiens');
    await expect
      .poll(() => agent.getByTestId('rappels-heure').textContent())
      .toBe('Heure d’envoi : 07 h 00 (heure de Madagascar), réglée par l’administrateur du serveur.');
    const toggle = agent.getByRole('switch', { name: 'Recevoir le récapitulatif quotidien' });
    expect(await toggle.isChecked()).toBe(true);
    const violations = await seriousViolations(agent);
    expect(violations, describeViolations(violations)).toEqual([]);

    await toggle.click();
    await expect
      .poll(() => toast(agent, 'Vous ne recevrez plus le récapitulatif quotidien.').count())
      .toBe(1);
    await agent.reload();
    await expect.poll(() => agent.getByTestId('rappels-heure').count(), { timeout: 30_000 }).toBe(1);
    expect(await toggle.isChecked()).toBe(false);
    expect((await runDigest(first))?.day).toBe(dayNumber('2030-01-15'));
    expect(await digestsTo('rappel@example.mg')).toEqual([]);

    await toggle.click();
    await expect.poll(() => toast(agent, 'Vous recevrez le récapitulatif quotidien.').count()).toBe(1);
    expect(await toggle.isChecked()).toBe(true);
    expect((await runDigest(second))?.day).toBe(dayNumber('2030-01-16'));
    // The same day again (another server, another minute): nothing more.
    expect(await runDigest(second)).toBeNull();
    const mails = await digestsTo('rappel@example.mg');
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.subject).toBe('Signalements : récapitulatif du jour (1 à traiter, 1 en retard)');
    expect(mail!.text).toContain(`${code} — `);
    expect(mail!.text).toContain('échéance le 13/01/2030 : En retard de 3 jours');

    // The report's link of the e-mail opens the report.
    const link = /https?:\/\/\S+\/admin\/signalement\/detail\/\S+/.exec(mail!.text)?.[0];
    expect(link).toBeDefined();
    await agent.goto(new URL(link!).pathname);
    await expect.poll(() => agent.url(), { timeout: 30_000 }).toContain(`/admin/signalement/detail/${code}`);
    await expect
      .poll(() => agent.getByTestId('assignees-value').textContent(), { timeout: 30_000 })
      .toBe('Rabe Rappel');
  });
});
