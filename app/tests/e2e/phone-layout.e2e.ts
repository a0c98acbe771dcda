import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '#server/db/seed/demo';
import { createReportByApi, useE2E } from './harness';
import { ADMIN, signInByApi } from './sign-in';

const PHONE = { width: 390, height: 844 };

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

async function inViewport(locator: Locator) {
  const box = (await locator.boundingBox())!;
  return box.x >= 0 && box.x + box.width <= PHONE.width;
}

/** On a phone (390 px) nothing needs sideways scrolling, nothing is cut off. */
describe('phone layout', () => {
  const e = useE2E();
  let page: Page;
  let code: string;
  beforeAll(async () => {
    await seedDemo(e.running.ctx, { reports: 150, seed: 4 });
    page = await e.newPage(PHONE);
    await signInByApi(page, ADMIN.email, ADMIN.password);
    code = await createReportByApi(page, { partenaire: '/api/partenaires/SAMIFIN' });
  });

  it('fits a report with a long partner name, and opens its dialogs whole', async () => {
    await page.goto(`/admin/signalement/detail/${code}`);
    // The file's first read of a report starts the server's read thread: seconds on a loaded machine, more
    // than expect.poll's 10 s once on a CI run; the test waits for the answer, then judges the layout.
    await page
      .getByText('Service de Renseignements Financiers (SAMIFIN)')
      .first()
      .waitFor({ timeout: 60_000 });
    expect(await noSidewaysScroll(page)).toBe(true);

    await page.getByRole('button', { name: /Autres actions/ }).click();
    expect(await inViewport(page.getByRole('menu'))).toBe(true);
    await page.getByRole('menuitem', { name: /Envoyer un email/ }).click();
    const dialog = page.getByRole('dialog', { name: /Envoyer un email/ });
    await dialog.waitFor();
    const box = (await dialog.locator('.modal-box').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    expect(await inViewport(dialog.getByRole('button', { name: 'Envoyer' }))).toBe(true);
    await dialog.getByRole('button', { name: 'Annuler' }).click();
  });

  it('shows the users’ switch and actions without sideways scrolling', async () => {
    await page.goto('/admin/users');
    const rows = page.getByTestId('user-row');
    await rows.first().waitFor();
    expect(await noSidewaysScroll(page)).toBe(true);
    const row = rows.filter({ has: page.getByTestId('user-status-switch') }).first();
    expect(await inViewport(row.getByTestId('user-status-switch'))).toBe(true);
    for (const button of await row.getByRole('button').all()) expect(await inViewport(button)).toBe(true);
    expect(await row.getByTestId('user-row-last-connection').textContent()).toMatch(
      /^Dernière connexion|Jamais|\d/,
    );
  });

  it('shows the partners’ actions without sideways scrolling', async () => {
    await page.goto('/admin/partenaires');
    const row = page.getByTestId('partenaire-row').first();
    await row.waitFor();
    expect(await noSidewaysScroll(page)).toBe(true);
    for (const button of await row.getByRole('button').all()) expect(await inViewport(button)).toBe(true);
  });

  it('keeps the subject chart’s labels apart', async () => {
    await page.goto('/admin/dashboard');
    const block = page.locator('[data-testid="subject-block"][data-state="ready"]');
    await block.waitFor({ timeout: 20_000 });
    await block.scrollIntoViewIfNeeded();
    await expect.poll(() => block.locator('.apexcharts-yaxis-label').count()).toBeGreaterThan(3);
    const boxes = await block
      .locator('.apexcharts-xaxis-label, .apexcharts-yaxis-label')
      .evaluateAll((labels) =>
        labels
          .map((l) => l.getBoundingClientRect())
          .filter((r) => r.width > 0)
          .map((r) => ({ x: r.x, y: r.y, w: r.width, h: r.height })),
      );
    expect(boxes.length).toBeGreaterThan(3);
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        const overlap =
          a.x < b.x + b.w - 1 && b.x < a.x + a.w - 1 && a.y < b.y + b.h - 1 && b.y < a.y + a.h - 1;
        expect(overlap, `labels ${i} and ${j} overlap`).toBe(false);
      }
    }
    expect(await noSidewaysScroll(page)).toBe(true);
  });
});
