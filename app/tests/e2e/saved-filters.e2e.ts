import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from './axe';
import { createReportByApi, toast, useE2E } from './harness';
import { PASSWORD, signInByApi } from './sign-in';

const PHONE = { width: 375, height: 812 };

/**
 * Saved filters « Mes filtres » (docs/decisions/0046-saved-filters.md): a user sets a filter on the list,
 * saves it, leaves, and opens it again from the sidebar: the address and the rows are the filter's. A
 * colleague sees the shared filter and not the personal one. The save dialog, the sidebar group and the
 * manage dialog are axe-clean on a desktop and on a 375 px phone.
 */
// A loaded machine: each test may wait for the first list reads (the config's 60 s is the usual bound).
describe('saved filters « Mes filtres »', { timeout: 240_000 }, () => {
  // A list read may wait for busy read threads on a loaded machine: 503 only after two minutes.
  const e = useE2E({ READ_JOB_TIMEOUT_SECONDS: '120' });
  let owner: Page;
  let codeA: string;
  let codeB: string;

  const assertAxeClean = async (page: Page, what: string) => {
    const violations = await seriousViolations(page);
    expect(violations, `${what} :\n${describeViolations(violations)}`).toEqual([]);
  };
  const rowCodes = (page: Page) =>
    page.getByTestId('signalement-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-code')));
  const sidebarFilters = (page: Page) =>
    page
      .getByTestId('saved-filters-group')
      .getByTestId('saved-filter')
      .evaluateAll((items) => items.map((i) => i.getAttribute('data-filtre')));

  /** On the list, searches `code` and saves the filter as `nom`, shared or not (on a phone the sidebar is a sheet). */
  async function saveSearch(page: Page, code: string, nom: string, partage: boolean, phone = false) {
    await page.goto('/admin/signalement/list');
    // The first list read starts the server's read threads: slow on a loaded machine. On a phone the rows
    // are in the page but shown as cards, so they are counted, not waited for as visible.
    await expect.poll(async () => (await rowCodes(page)).length, { timeout: 90_000 }).toBeGreaterThan(0);
    expect(await page.getByTestId('save-filter-button').count()).toBe(0);
    await page.getByTestId('search-input').fill(code.toLowerCase());
    await page.waitForURL((url) => url.searchParams.get('q') === code.toLowerCase());
    await expect.poll(() => rowCodes(page), { timeout: 60_000 }).toEqual([code]);
    await page.getByTestId('save-filter-button').click();
    const dialog = page.getByTestId('save-filter-dialog');
    await dialog.getByLabel('Nom du filtre').waitFor();
    await assertAxeClean(page, 'save dialog');
    await dialog.getByLabel('Nom du filtre').fill(nom);
    if (partage) await dialog.getByRole('switch', { name: "Partager avec l'équipe" }).check();
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect.poll(() => toast(page, 'Filtre enregistré.').count()).toBe(1);
    if (!phone) await expect.poll(() => sidebarFilters(page)).toContain(nom);
  }

  beforeAll(async () => {
    await e.user('proprio@example.mg', 'ROLE_USER', 'Rabe Proprio');
    await e.user('collegue@example.mg', 'ROLE_USER', 'Rakoto Collegue');
    owner = await e.newPage();
    await signInByApi(owner, 'proprio@example.mg', PASSWORD);
    codeA = await createReportByApi(owner);
    codeB = await createReportByApi(owner, { signalementAt: '2025-03-11' });
  });

  it('saves the filters of the list, and opens them again from the sidebar: same address, same rows', async () => {
    await owner.goto('/admin/dashboard');
    await expect
      .poll(() => owner.getByTestId('saved-filters-empty').textContent(), { timeout: 30_000 })
      .toBe('Aucun filtre enregistré.');
    await saveSearch(owner, codeA, 'Dossier A', false);
    const link = owner.getByTestId('saved-filters-group').getByRole('link', { name: 'Dossier A' });
    // The list shows the saved filter's address: it is the one marked, not the list.
    expect(await link.getAttribute('aria-current')).toBe('page');
    expect(
      await owner.getByRole('link', { name: 'Liste des signalements' }).getAttribute('aria-current'),
    ).toBeNull();
    await saveSearch(owner, codeB, 'Dossier B partagé', true);

    await owner.getByRole('link', { name: 'Tableau de bord' }).click();
    await owner.waitForURL((url) => url.pathname === '/admin/dashboard');
    expect(await link.getAttribute('aria-current')).toBeNull();
    await link.click();
    await owner.waitForURL((url) => url.pathname === '/admin/signalement/list');
    expect(new URL(owner.url()).search).toBe(`?q=${codeA.toLowerCase()}`);
    await expect.poll(() => rowCodes(owner), { timeout: 60_000 }).toEqual([codeA]);
    expect(await owner.getByTestId('search-input').inputValue()).toBe(codeA.toLowerCase());
    await expect.poll(() => link.getAttribute('aria-current')).toBe('page');
    await assertAxeClean(owner, 'sidebar with « Mes filtres »');
  });

  it("shows a colleague the shared filter and not the personal one, under the colleague's own list", async () => {
    const colleague = await e.newPage();
    await signInByApi(colleague, 'collegue@example.mg', PASSWORD);
    await colleague.goto('/admin/dashboard');
    await expect.poll(() => sidebarFilters(colleague), { timeout: 30_000 }).toEqual(['Dossier B partagé']);
    await colleague
      .getByTestId('saved-filters-group')
      .getByRole('link', { name: /Dossier B partagé/ })
      .click();
    await colleague.waitForURL((url) => url.searchParams.get('q') === codeB.toLowerCase());
    await expect.poll(() => rowCodes(colleague), { timeout: 90_000 }).toEqual([codeB]);
    // Not theirs: the manage dialog offers nothing to rename or delete.
    await colleague.getByTestId('manage-filters-button').click();
    await expect
      .poll(() => colleague.getByTestId('manage-filters-empty').textContent())
      .toBe('Aucun filtre à gérer.');
    await assertAxeClean(colleague, 'manage dialog (nothing to manage)');
    await colleague.getByTestId('manage-filters-dialog').getByRole('button', { name: 'Fermer' }).click();
  });

  it('renames and deletes from the manage dialog, down to the empty state', async () => {
    await owner.goto('/admin/dashboard');
    await owner.getByTestId('manage-filters-button').click();
    const dialog = owner.getByTestId('manage-filters-dialog');
    await expect.poll(() => dialog.getByTestId('manage-filter-row').count()).toBe(2);
    await assertAxeClean(owner, 'manage dialog');
    await dialog.getByRole('button', { name: 'Renommer « Dossier A »' }).click();
    await dialog.getByLabel('Nouveau nom').fill('Dossier A revu');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect.poll(() => toast(owner, 'Filtre renommé.').count()).toBe(1);
    await expect.poll(() => sidebarFilters(owner)).toEqual(['Dossier A revu', 'Dossier B partagé']);

    for (const nom of ['Dossier A revu', 'Dossier B partagé']) {
      await dialog.getByRole('button', { name: `Supprimer « ${nom} »` }).click();
      await dialog.getByRole('button', { name: 'Confirmer' }).click();
      await expect.poll(() => sidebarFilters(owner)).not.toContain(nom);
    }
    await expect
      .poll(() => dialog.getByTestId('manage-filters-empty').textContent())
      .toBe('Aucun filtre à gérer.');
    await dialog.getByRole('button', { name: 'Fermer' }).click();
    await expect
      .poll(() => owner.getByTestId('saved-filters-empty').textContent())
      .toBe('Aucun filtre enregistré.');
  });

  it('is axe-clean on a 375 px phone: the save dialog, the sidebar sheet and the manage dialog', async () => {
    const phone = await e.newPage({
      ...PHONE,
      signedInAs: { email: 'proprio@example.mg', password: PASSWORD },
    });
    await saveSearch(phone, codeA, 'Sur téléphone', false, true);
    await phone.getByTestId('sidebar-toggle').click();
    const sheet = phone.getByTestId('sidebar-sheet');
    await expect
      .poll(() =>
        sheet.getByTestId('saved-filter').evaluateAll((i) => i.map((x) => x.getAttribute('data-filtre'))),
      )
      .toEqual(['Sur téléphone']);
    await assertAxeClean(phone, 'sidebar sheet (375 px)');
    await sheet.getByTestId('manage-filters-button').click();
    await phone.getByTestId('manage-filters-dialog').getByTestId('manage-filter-row').first().waitFor();
    await assertAxeClean(phone, 'manage dialog (375 px)');
  });
});
