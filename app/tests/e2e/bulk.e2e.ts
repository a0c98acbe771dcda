import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from './axe';
import { createReportByApi, toast, useE2E } from './harness';
import { PASSWORD, signInByApi } from './sign-in';

/**
 * Bulk actions on the list (docs/decisions/0035-bulk-actions.md): two rows picked and their statut changed
 * after a confirmation that states 2; two rows assigned to a colleague, then unassigned; every report of a
 * filter selected past the page and their niveau changed; a user who may not edit the selection reads the
 * French refusal before anything is confirmed. The toolbar, the banner and the dialog are axe-clean on a
 * desktop and a phone (the phone's toolbar and banner: phone-case-management.e2e.ts).
 */
describe('bulk actions on the list', () => {
  const e = useE2E();
  let creator: Page;
  const april: string[] = [];
  const may: string[] = [];
  const june: string[] = [];
  /**
   * Three reports in April 2024, three in May 2024, twenty-one in June 2024: the list's date filter names
   * each set.
   */
  const APRIL = '/admin/signalement/list?du=2024-04-01&au=2024-04-30';
  const MAY = '/admin/signalement/list?du=2024-05-01&au=2024-05-31';
  const JUNE = '/admin/signalement/list?du=2024-06-01&au=2024-06-30';

  const assertAxeClean = async (page: Page, what: string) => {
    const violations = await seriousViolations(page);
    expect(violations, `${what} :\n${describeViolations(violations)}`).toEqual([]);
  };
  const tableRows = (page: Page) => page.getByTestId('signalement-table').getByTestId('signalement-row');

  beforeAll(async () => {
    await e.user('createur@example.mg', 'ROLE_USER', 'Rabe Createur');
    await e.user('autre@example.mg', 'ROLE_USER', 'Randria Autre');
    creator = await e.newPage({ width: 1440, height: 900 });
    await signInByApi(creator, 'createur@example.mg', PASSWORD);
    for (let i = 1; i <= 3; i++)
      april.push(await createReportByApi(creator, { signalementAt: `2024-04-0${i}` }));
    for (let i = 1; i <= 3; i++)
      may.push(await createReportByApi(creator, { signalementAt: `2024-05-0${i}` }));
    for (let i = 1; i <= 21; i++)
      june.push(await createReportByApi(creator, { signalementAt: `2024-06-${String(i).padStart(2, '0')}` }));
  });

  it('changes the statut of two picked rows after a confirmation that states 2', async () => {
    await creator.goto(MAY);
    // The first list read starts the server's read threads: slow on a loaded machine.
    await expect.poll(() => tableRows(creator).count(), { timeout: 30_000 }).toBe(3);
    expect(await creator.getByTestId('bulk-toolbar').count()).toBe(0);
    const picked: string[] = [];
    for (const row of (await tableRows(creator).all()).slice(0, 2)) {
      await row.getByTestId('row-select').check();
      picked.push((await row.getAttribute('data-code'))!);
    }
    const toolbar = creator.getByTestId('bulk-toolbar');
    await expect
      .poll(() => toolbar.getByTestId('bulk-count').textContent())
      .toBe('2 signalements sélectionnés');
    await assertAxeClean(creator, 'list with a selection');
    await toolbar.getByRole('button', { name: 'Changer le statut' }).click();
    const dialog = creator.getByTestId('bulk-dialog');
    await dialog.getByTestId('bulk-value').selectOption('TRAITE');
    await expect
      .poll(() => dialog.getByTestId('bulk-preview').textContent())
      .toBe('2 signalements seront modifiés.');
    await assertAxeClean(creator, 'bulk dialog');
    await dialog.getByTestId('bulk-confirm').click();
    await expect.poll(() => toast(creator, '2 signalements modifiés.').count()).toBe(1);
    for (const code of picked) {
      await expect
        .poll(() => creator.getByTestId('signalement-table').locator(`[data-code="${code}"]`).textContent())
        .toContain('Traité');
    }
    const other = may.find((c) => !picked.includes(c))!;
    expect(
      await creator.getByTestId('signalement-table').locator(`[data-code="${other}"]`).textContent(),
    ).not.toContain('Traité');
    expect(await creator.getByTestId('bulk-toolbar').count()).toBe(0);
  });

  it('assigns two picked rows to a colleague, then unassigns them, each after a confirmation that states 2', async () => {
    await creator.goto(APRIL);
    await expect.poll(() => tableRows(creator).count(), { timeout: 30_000 }).toBe(3);
    const picked: string[] = [];
    for (const row of (await tableRows(creator).all()).slice(0, 2)) {
      await row.getByTestId('row-select').check();
      picked.push((await row.getAttribute('data-code'))!);
    }
    const other = april.find((c) => !picked.includes(c))!;
    const assignees = (code: string) =>
      creator
        .getByTestId('signalement-table')
        .locator(`[data-code="${code}"]`)
        .getByTestId('assignees-cell')
        .textContent();
    const act = async (action: 'Assigner' | 'Désassigner') => {
      await creator.getByTestId('bulk-toolbar').getByRole('button', { name: action, exact: true }).click();
      const dialog = creator.getByTestId('bulk-dialog');
      await dialog.getByRole('button', { name: /Utilisateur/ }).click();
      await dialog.getByRole('option', { name: /Randria Autre/ }).click();
      await expect
        .poll(() => dialog.getByTestId('bulk-preview').textContent())
        .toBe('2 signalements seront modifiés.');
      await dialog.getByTestId('bulk-confirm').click();
      const done = toast(creator, '2 signalements modifiés.');
      await expect.poll(() => done.count()).toBe(1);
      // Closed, so that the next action's toast is its own.
      await done.getByRole('button', { name: 'Fermer la notification' }).click();
      await expect.poll(() => done.count()).toBe(0);
    };

    await act('Assigner');
    for (const code of picked) await expect.poll(() => assignees(code)).toBe('Randria Autre');
    expect(await assignees(other)).toBe('Non assigné');
    expect(await creator.getByTestId('bulk-toolbar').count()).toBe(0);

    for (const code of picked)
      await creator
        .locator(`[data-testid="signalement-row"][data-code="${code}"]`)
        .getByTestId('row-select')
        .check();
    await expect
      .poll(() => creator.getByTestId('bulk-count').textContent())
      .toBe('2 signalements sélectionnés');
    await act('Désassigner');
    for (const code of picked) await expect.poll(() => assignees(code)).toBe('Non assigné');
    expect(await assignees(other)).toBe('Non assigné');
  });

  it('selects every report of the filter beyond the page and changes their niveau', async () => {
    await creator.goto(JUNE);
    await expect.poll(() => tableRows(creator).count(), { timeout: 30_000 }).toBe(20);
    await creator.getByTestId('page-select').check();
    const banner = creator.getByTestId('selection-banner');
    await expect
      .poll(() => banner.textContent())
      .toContain('Les 20 signalements de cette page sont sélectionnés.');
    await assertAxeClean(creator, 'list with the page selected and the banner');
    await banner.getByRole('button', { name: 'Sélectionner les 21 signalements du filtre' }).click();
    await expect
      .poll(() => banner.textContent())
      .toContain('Les 21 signalements du filtre sont sélectionnés.');
    await assertAxeClean(creator, 'list with the whole filter selected');
    const toolbar = creator.getByTestId('bulk-toolbar');
    expect(await toolbar.getByTestId('bulk-count').textContent()).toBe('21 signalements sélectionnés');
    await toolbar.getByRole('button', { name: 'Changer le niveau' }).click();
    const dialog = creator.getByTestId('bulk-dialog');
    await dialog.getByTestId('bulk-value').selectOption('ELEVE');
    await expect
      .poll(() => dialog.getByTestId('bulk-preview').textContent())
      .toBe('21 signalements seront modifiés.');
    await dialog.getByTestId('bulk-confirm').click();
    await expect.poll(() => toast(creator, '21 signalements modifiés.').count()).toBe(1);
    await expect
      .poll(
        async () => (await tableRows(creator).allTextContents()).filter((t) => t.includes('Élevé')).length,
      )
      .toBe(20);
  });

  it('shows the French refusal to a user who may not edit the selection, before any confirmation', async () => {
    const other = await e.newPage({ width: 390, height: 844 });
    await signInByApi(other, 'autre@example.mg', PASSWORD);
    // The preview is refused (403): the browser logs the failed request.
    const allowed = e.allowConsoleErrors(/403/);
    await other.goto(MAY);
    const cards = other.getByTestId('signalement-cards').locator('li');
    await expect.poll(() => cards.count(), { timeout: 30_000 }).toBe(3);
    await cards.first().getByTestId('row-select').check();
    await cards.nth(1).getByTestId('row-select').check();
    const toolbar = other.getByTestId('bulk-toolbar');
    await toolbar.getByRole('button', { name: 'Assigner', exact: true }).click();
    const dialog = other.getByTestId('bulk-dialog');
    await dialog.getByRole('button', { name: /Utilisateur/ }).click();
    await dialog.getByRole('option', { name: /Randria Autre/ }).click();
    await expect
      .poll(() => dialog.getByTestId('bulk-preview').textContent())
      .toBe(
        "Action refusée : seuls le créateur et les administrateurs modifient les assignations, et ce n'est pas votre cas pour 2 des 2 signalements sélectionnés. Aucun signalement n'a été modifié.",
      );
    expect(await dialog.getByTestId('bulk-confirm').isDisabled()).toBe(true);
    await assertAxeClean(other, 'bulk dialog with a refusal (phone)');
    await expect.poll(() => allowed.length).toBeGreaterThan(0);
  });
});
