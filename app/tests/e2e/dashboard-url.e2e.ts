import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { businessDay, DEFAULT_BUSINESS_TIME_ZONE } from '#shared/calendar';
import { MONTHS_FR } from '#web/features/dashboard/calendar';
import { insertFixture } from '#server/domains/dashboard/test-fixture';
import { createUser } from '#server/domains/utilisateurs/service';
import { useE2E } from './harness';
import { PASSWORD, signInByApi } from './sign-in';

const monthName = (year: number, month: number) => {
  const at = new Date(Date.UTC(year, month, 1));
  return `${MONTHS_FR[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
};

const total = (page: Page) => page.getByTestId('metric-total').getByTestId('metric-value').textContent();
const pressed = (page: Page) => page.getByTestId('map-block').locator('[aria-pressed="true"]').textContent();

/** The dashboard's date range and map level live in the address bar, like the list's filters. */
describe('dashboard state in the URL', () => {
  const e = useE2E();
  let page: Page;
  beforeAll(async () => {
    const u1 = (
      await createUser(e.running.db, {
        email: 'agent@example.mg',
        roleCode: 'ROLE_USER',
        nomPrenom: 'Rabe Hery',
        password: PASSWORD,
      })
    ).code;
    const u2 = (
      await createUser(e.running.db, {
        email: 'analyste@example.mg',
        roleCode: 'ROLE_ANALYSTE',
        nomPrenom: 'Rasoa Vola',
        password: PASSWORD,
      })
    ).code;
    await insertFixture(e.running.db, { u1, u2 });
    page = await e.newPage();
    await signInByApi(page, 'agent@example.mg', PASSWORD);
  });

  it('opens the picker on the previous and the current month, never on a month to come', async () => {
    await page.goto('/admin/dashboard');
    await page.getByTestId('date-range-picker').getByRole('button').first().click();
    const [y, m] = businessDay(new Date(), DEFAULT_BUSINESS_TIME_ZONE).split('-').map(Number) as [
      number,
      number,
    ];
    const grids = await page
      .getByTestId('date-range-picker')
      .getByRole('grid')
      .evaluateAll((g) => g.map((x) => x.getAttribute('aria-label')));
    expect(grids).toEqual([monthName(y, m - 2), monthName(y, m - 1)]);
    await page.keyboard.press('Escape');
  });

  it('keeps the range and the level through a reload, and Back restores the previous state', async () => {
    await page.goto('/admin/dashboard');
    await expect.poll(() => total(page)).toBe('5');
    await page.getByTestId('date-range-picker').getByRole('button').first().click();
    for (let i = 0; i < 120 && (await page.getByRole('grid', { name: 'mars 2025' }).count()) === 0; i++) {
      await page.getByRole('button', { name: 'Mois précédent' }).click();
    }
    await page.getByRole('button', { name: 'samedi 1 mars 2025' }).click();
    await page.getByRole('button', { name: 'mercredi 5 mars 2025' }).click();
    await page.waitForURL('**/admin/dashboard?du=2025-03-01&au=2025-03-05');
    await expect.poll(() => total(page)).toBe('4');

    await page.getByTestId('map-block').getByRole('button', { name: 'District', exact: true }).click();
    await page.waitForURL('**/admin/dashboard?du=2025-03-01&au=2025-03-05&vue=district');
    expect(await pressed(page)).toBe('District');

    await page.reload();
    await expect.poll(() => total(page)).toBe('4');
    expect(await page.getByTestId('date-range-label').textContent()).toBe('01/03/2025 - 05/03/2025');
    await expect.poll(() => pressed(page)).toBe('District');

    await page.goBack();
    await page.waitForURL('**/admin/dashboard?du=2025-03-01&au=2025-03-05');
    await expect.poll(() => pressed(page)).toBe('Région');
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/admin/dashboard' && url.search === '');
    await expect.poll(() => total(page)).toBe('5');
    expect(await page.getByTestId('date-range-label').textContent()).toBe('Choisir une plage de dates');
  });

  it('opens a shared link on its range and level, and ignores broken values', async () => {
    await page.goto('/admin/dashboard?du=2025-03-01&au=2025-03-01&vue=commune');
    await expect.poll(() => total(page)).toBe('2');
    await expect.poll(() => pressed(page)).toBe('Commune');
    await page.goto('/admin/dashboard?du=2025-02-30&au=2025-03-01&vue=province');
    await expect.poll(() => total(page)).toBe('5');
    await expect.poll(() => pressed(page)).toBe('Région');
  });
});
