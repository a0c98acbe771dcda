import { eq, isNotNull } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { refreshDueDays } from '#server/db/due-days';
import { seedDemo } from '#server/db/seed/demo';
import { useE2E } from './harness';
import { ADMIN, loginAs } from './sign-in';

const fr = new Intl.NumberFormat('fr-FR');

async function summaryFromApi(page: Page, period: string) {
  const input = encodeURIComponent(JSON.stringify({ period }));
  const res = await page.request.get(`/trpc/dashboard.overview.summary?input=${input}`);
  expect(res.status()).toBe(200);
  return (await res.json()).result.data as {
    totals: { received: { value: number } };
    alerts: Array<{ id: string; message: string; count: number }>;
  };
}

describe('period analysis in a real browser', () => {
  const e = useE2E();
  beforeAll(async () => {
    await seedDemo(e.running.ctx, { reports: 300, seed: 7 });
  });

  it('is reached from the dashboard and shows every block for the month', async () => {
    const page = await e.newPage();
    await loginAs(page, ADMIN.email, ADMIN.password);
    await page.getByRole('link', { name: "Vue d'ensemble des plaintes" }).click();
    await page.waitForURL('**/admin/dashboard/analyse');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Tableau de Bord', exact: true }).isVisible())
      .toBe(true);
    expect(await page.getByText("Vue d'ensemble des plaintes", { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Mois' }).getAttribute('aria-pressed')).toBe('true');

    const blocks = [
      'overview-summary',
      'overview-series',
      'overview-status',
      'overview-distribution',
      'overview-top-users',
      'overview-top-partners',
      'overview-per-day',
    ];
    for (const id of blocks) {
      await page.locator(`[data-testid="${id}"]:not([data-state="loading"])`).waitFor({ timeout: 20_000 });
      expect(await page.getByTestId(id).getAttribute('data-state'), id).not.toBe('error');
    }
    expect(await page.getByRole('heading', { name: 'Signalements Reçus par Jour' }).isVisible()).toBe(true);
    const api = await summaryFromApi(page, 'month');
    const received = page.getByTestId('overview-total').first().getByTestId('overview-total-value');
    expect(await received.textContent()).toBe(fr.format(api.totals.received.value));
    for (const alert of api.alerts.filter((a) => a.count > 0)) {
      expect(await page.getByTestId('overview-alerts').textContent()).toContain(alert.message);
    }

    // Each distribution tab asks the database again.
    for (const tab of ['District', 'Commune', 'Objet', 'Canal', 'Projet', 'Région']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.locator('[data-testid="overview-distribution"]:not([data-state="loading"])').waitFor();
      expect(await page.getByTestId('overview-distribution').getAttribute('data-state')).not.toBe('error');
    }
  });

  it('follows the period selector and the live data', async () => {
    const page = await e.newPage();
    await loginAs(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin/dashboard/analyse');
    await page.getByRole('button', { name: 'Année' }).click();
    const received = page.getByTestId('overview-total').first().getByTestId('overview-total-value');
    const year = await summaryFromApi(page, 'year');
    await expect.poll(() => received.textContent()).toBe(fr.format(year.totals.received.value));
    await expect
      .poll(() => page.getByTestId('overview-series').locator('.apexcharts-xaxis-label').count())
      .toBe(5);

    // One more report today: the figure follows.
    const { t } = e.running.db;
    const [admin] = await e.running.db.read
      .select()
      .from(t.utilisateurs)
      .where(eq(t.utilisateurs.email, ADMIN.email));
    const [ivy] = await e.running.db.read.select().from(t.partenaires).where(eq(t.partenaires.code, 'IVY'));
    await e.running.db.transaction((tx) =>
      tx
        .insert(t.signalements)
        .values({
          code: 'SIG-E2E-LIVE',
          signalementAt: new Date(),
          createdById: admin!.id,
          partenaireId: ivy!.id,
        })
        .then(() => undefined),
    );
    await page.reload();
    await page.getByRole('button', { name: 'Année' }).click();
    await expect.poll(() => received.textContent()).toBe(fr.format(year.totals.received.value + 1));
  });

  it('lists first the user whose assigned reports are overdue, and raises the overdue and unassigned alerts', async () => {
    const { db } = e.running;
    const { t } = db;
    const [admin] = await db.read.select().from(t.utilisateurs).where(eq(t.utilisateurs.email, ADMIN.email));
    const [ivy] = await db.read.select().from(t.partenaires).where(eq(t.partenaires.code, 'IVY'));
    const [delai] = await db.read
      .select()
      .from(t.delaisTraitement)
      .where(isNotNull(t.delaisTraitement.jours))
      .limit(1);
    // Two reports received 90 days ago with a niveau that has a deadline, assigned to the administrator (the
    // demo assigns nobody), and one left without an assignee.
    const long = new Date(Date.now() - 90 * 86_400_000);
    const report = (code: string) => ({
      code,
      signalementAt: long,
      createdById: admin!.id,
      partenaireId: ivy!.id,
      niveauId: delai!.niveauId,
    });
    await db.transaction(async (tx) => {
      const rows = await tx
        .insert(t.signalements)
        .values([report('SIG-E2E-LATE-1'), report('SIG-E2E-LATE-2'), report('SIG-E2E-NOBODY')])
        .returning({ id: t.signalements.id, code: t.signalements.code });
      await tx
        .insert(t.signalementAssignees)
        .values(
          rows
            .filter((r) => r.code !== 'SIG-E2E-NOBODY')
            .map((r) => ({ signalementId: r.id, userId: admin!.id, assignedAt: new Date() })),
        );
      await refreshDueDays(db, { ids: rows.map((r) => r.id) });
    });

    const page = await e.newPage();
    await loginAs(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin/dashboard/analyse');
    await page.locator('[data-testid="overview-top-users"]:not([data-state="loading"])').waitFor();
    const first = page.getByTestId('top-user').first();
    expect(await first.textContent()).toContain(ADMIN.email);
    expect(await first.getByTestId('top-user-overdue').textContent()).toBe('2');

    const api = await summaryFromApi(page, 'month');
    const overdue = api.alerts.find((a) => a.id === 'overdue')!;
    const unassigned = api.alerts.find((a) => a.id === 'unassigned')!;
    expect(overdue.count).toBeGreaterThanOrEqual(2);
    expect(unassigned.count).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('alert-overdue').textContent()).toBe(overdue.message);
    expect(await page.getByTestId('alert-unassigned').textContent()).toBe(unassigned.message);
    expect(unassigned.message).toContain('« Non assigné »');
  });
});
