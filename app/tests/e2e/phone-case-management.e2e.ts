import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from './axe';
import { createReportByApi, toast, useE2E } from './harness';
import { PASSWORD } from './sign-in';

/** The narrowest phone the screens are made for. */
const PHONE = { width: 375, height: 812 };
const CREATOR = { email: 'createur@example.mg', password: PASSWORD };
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };
/** Twenty-one reports in June 2024: one page of twenty and one more. */
const JUNE = '/admin/signalement/list?du=2024-06-01&au=2024-06-30';

/**
 * Case management on a 375 px phone (docs/decisions/0028, 0032, 0035): axe-core finds no serious or critical
 * violation, and nothing scrolls sideways, on the « Assignés » card with its picker open and its removal
 * confirmation, on the list and the detail of an overdue report, and on the bulk selection's toolbar and
 * its « select every report of the filter » banner.
 */
describe('case management on a 375 px phone', () => {
  const e = useE2E({}, { closeTestPages: true });
  let overdue: string;

  async function expectAccessible(page: Page, what: string) {
    const [scrollWidth, clientWidth] = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      document.documentElement.clientWidth,
    ]);
    expect(scrollWidth, `${what} : défilement horizontal`).toBeLessThanOrEqual(clientWidth!);
    const violations = await seriousViolations(page);
    expect(violations, `${what} (375 px) :\n${describeViolations(violations)}`).toEqual([]);
  }

  beforeAll(async () => {
    await e.user(CREATOR.email, 'ROLE_USER', 'Rabe Createur');
    await e.user('assigne@example.mg', 'ROLE_USER', 'Rakoto Assigne');
    const page = await e.newPage({ signedInAs: CREATOR });
    // Filed long ago with niveau Critique (7 business days): overdue.
    overdue = await createReportByApi(page, { signalementAt: '2025-03-10' });
    const res = await page.request.patch(`/api/signalements/${overdue}`, {
      headers: { ...SAME_ORIGIN, 'content-type': 'application/merge-patch+json' },
      data: JSON.stringify({ niveau: '/api/niveaux/CRITIQUE' }),
    });
    expect(res.status(), await res.text()).toBe(200);
    for (let i = 1; i <= 21; i++)
      await createReportByApi(page, { signalementAt: `2024-06-${String(i).padStart(2, '0')}` });
    // The first reads start the server's read threads, slow on a loaded machine: here, not in a test.
    const read = await page.request.get(`/api/signalements/${overdue}/assignes`, { timeout: 90_000 });
    expect(read.status(), await read.text()).toBe(200);
    await page.context().close();
  });

  it('the « Assignés » card with its picker open, then its removal confirmation', async () => {
    const page = await e.newPage({ ...PHONE, signedInAs: CREATOR });
    await page.goto(`/admin/signalement/detail/${overdue}`);
    const card = page.getByTestId('assignees-card');
    await expect.poll(() => card.textContent(), { timeout: 30_000 }).toContain('Non assigné');
    await card.scrollIntoViewIfNeeded();
    await card.getByRole('button', { name: /Utilisateur à assigner/ }).click();
    const option = card.getByTestId('assignee-picker').getByRole('option', { name: /Rakoto Assigne/ });
    await option.waitFor();
    await expectAccessible(page, 'sélecteur de la personne à assigner');

    await option.click();
    await card.getByTestId('assignee-add').click();
    await expect.poll(() => toast(page, 'Rakoto Assigne est assigné(e) au signalement.').count()).toBe(1);
    await expect.poll(() => card.getByTestId('assignee-item').count()).toBe(1);
    await expectAccessible(page, 'carte « Assignés » avec une personne');

    await card.getByTestId('assignee-remove').click();
    const dialog = page.getByTestId('assignee-remove-dialog');
    await expect.poll(() => dialog.textContent()).toContain('Retirer Rakoto Assigne des assignés ?');
    await expectAccessible(page, 'confirmation du retrait');
    await dialog.getByRole('button', { name: 'Retirer' }).click();
    await expect.poll(() => card.getByTestId('assignee-item').count()).toBe(0);
    // Three axe runs over the whole detail: more than the default minute on a loaded machine.
  }, 120_000);

  it('the list and the detail of an overdue report', async () => {
    const page = await e.newPage({ ...PHONE, signedInAs: CREATOR });
    await page.goto('/admin/signalement/list?echeance=en_retard');
    const card = page.locator(`[data-testid="signalement-card"][data-code="${overdue}"]`);
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByTestId('echeance-en-retard').textContent()).toBe('En retard');
    await expectAccessible(page, 'liste avec un signalement en retard');

    await card.click();
    const value = page.getByTestId('echeance-value');
    await expect.poll(() => value.textContent(), { timeout: 30_000 }).toMatch(/En retard de \d+ jours/);
    await expectAccessible(page, 'détail d’un signalement en retard');
  });

  it('the bulk selection’s toolbar and the banner that selects every report of the filter', async () => {
    const page = await e.newPage({ ...PHONE, signedInAs: CREATOR });
    await page.goto(JUNE);
    const cards = page.getByTestId('signalement-cards').locator('li');
    await expect.poll(() => cards.count(), { timeout: 30_000 }).toBe(20);
    await cards.first().getByTestId('row-select').check();
    const toolbar = page.getByTestId('bulk-toolbar');
    await expect
      .poll(() => toolbar.getByTestId('bulk-count').textContent())
      .toBe('1 signalement sélectionné');
    await expectAccessible(page, 'barre des actions groupées');

    await page.getByTestId('page-select-cards').check();
    const banner = page.getByTestId('selection-banner');
    await expect
      .poll(() => banner.textContent())
      .toContain('Les 20 signalements de cette page sont sélectionnés.');
    await expectAccessible(page, 'bandeau de sélection de la page');

    await banner.getByRole('button', { name: 'Sélectionner les 21 signalements du filtre' }).click();
    await expect
      .poll(() => banner.textContent())
      .toContain('Les 21 signalements du filtre sont sélectionnés.');
    expect(await toolbar.getByTestId('bulk-count').textContent()).toBe('21 signalements sélectionnés');
    await expectAccessible(page, 'bandeau : tout le filtre sélectionné');
  });
});
