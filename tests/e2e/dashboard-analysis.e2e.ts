import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '#server/db/seed/demo';
import { ADMIN, loginAs, useE2E } from './harness';

const fr = new Intl.NumberFormat('fr-FR');

async function summaryFromApi(page: Page, period: string) {
  const input = encodeURIComponent(JSON.stringify({ period }));
  const res = await page.request.get(`/trpc/dashboard.overview.summary?input=${input}`);
  expect(res.status()).toBe(200);
  return (await res.json()).result.data as {
    totals: { received: { value: number } };
    alerts: Array<{ message: string; count: number }>;
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
});
