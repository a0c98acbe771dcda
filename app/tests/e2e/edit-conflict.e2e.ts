import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from './axe';
import { createReportByApi, toast, useE2E } from './harness';
import { ADMIN, signInByApi } from './sign-in';

const UPDATED = 'Signalement mis à jour avec succès !';

/**
 * Two people edit the same report (docs/decisions/0047-edit-conflicts.md): the second save shows both
 * values instead of overwriting; « Recharger » shows the server's value, « Écraser avec mes valeurs »
 * stores the user's; the dialog passes axe on a desktop and on a 375 px phone.
 */
describe('edit conflicts on the report detail', () => {
  const e = useE2E();
  let first: Page;
  let second: Page;
  let code: string;
  beforeAll(async () => {
    first = await e.newPage({ width: 1440, height: 900 });
    await signInByApi(first, ADMIN.email, ADMIN.password);
    code = await createReportByApi(first);
    // The first read starts the server's read thread, slow on a loaded machine: done here, not in a test.
    for (let i = 0; i < 30; i++) {
      if ((await first.request.get(`/api/signalements/${code}`)).status() === 200) break;
    }
    second = await e.newPage({ width: 1440, height: 900, signedInAs: ADMIN });
  });

  const dialog = (page: Page) => page.getByTestId('edit-conflict-dialog');
  const description = (page: Page) => page.getByTestId('detail-description');
  const open = async (page: Page) => {
    await page.goto(`/admin/signalement/detail/${code}`);
    await description(page).waitFor({ timeout: 60_000 });
  };
  const saveDescription = async (page: Page, text: string) => {
    await description(page).fill(text);
    await page.getByTestId('save-button').click();
  };
  const saved = async (page: Page, text: string) => {
    await saveDescription(page, text);
    await toast(page, UPDATED).first().waitFor();
  };
  /** The browser logs the refused save's 409 itself: expected here. */
  const allow409 = () => e.allowConsoleErrors(/409/);
  async function expectAccessible(page: Page, what: string) {
    const violations = await seriousViolations(page);
    expect(violations, `${what} :\n${describeViolations(violations)}`).toEqual([]);
  }

  it('shows both values on the second save, and « Recharger » shows the server’s value', async () => {
    await open(first);
    await open(second);
    await saved(first, 'Valeur de la première personne');

    const seen = allow409();
    await saveDescription(second, 'Valeur de la seconde personne');
    await dialog(second).waitFor();
    const row = dialog(second).getByTestId('edit-conflict-description');
    expect(await row.getByTestId('edit-conflict-yours').textContent()).toBe('Valeur de la seconde personne');
    expect(await row.getByTestId('edit-conflict-current').textContent()).toBe(
      'Valeur de la première personne',
    );
    expect(await dialog(second).getByRole('columnheader').allTextContents()).toEqual([
      'Champ',
      'Votre valeur',
      'Valeur actuelle',
    ]);
    expect(seen.length).toBeGreaterThan(0);
    await expectAccessible(second, 'dialogue de conflit (ordinateur)');

    await dialog(second).getByRole('button', { name: 'Recharger' }).click();
    await expect.poll(() => dialog(second).isVisible()).toBe(false);
    expect(await description(second).inputValue()).toBe('Valeur de la première personne');
    // Nothing was written by the refused save.
    await first.reload();
    await description(first).waitFor();
    expect(await description(first).inputValue()).toBe('Valeur de la première personne');
  });

  it('stores the user’s values with « Écraser avec mes valeurs »', async () => {
    // `second` stands on the reloaded version; `first` saves once more over it.
    await saved(first, 'Deuxième valeur de la première personne');
    allow409();
    await saveDescription(second, 'Valeur gardée de la seconde personne');
    await dialog(second).waitFor();
    await dialog(second).getByRole('button', { name: 'Écraser avec mes valeurs' }).click();
    await toast(second, UPDATED).first().waitFor();
    await expect.poll(() => dialog(second).isVisible()).toBe(false);
    await first.reload();
    await description(first).waitFor();
    expect(await description(first).inputValue()).toBe('Valeur gardée de la seconde personne');
  });

  it('passes axe on a 375 px phone', async () => {
    const phone = await e.newPage({ width: 375, height: 740, signedInAs: ADMIN });
    await open(phone);
    await open(first);
    await saved(first, 'Valeur vue sur ordinateur');
    allow409();
    await saveDescription(phone, 'Valeur tapée sur téléphone');
    await dialog(phone).waitFor();
    await expectAccessible(phone, 'dialogue de conflit (téléphone)');
  });
});
