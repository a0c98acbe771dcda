import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations, settleAnimations } from './axe';
import { createReportByApi, toast, useE2E } from './harness';
import { ADMIN } from './sign-in';

async function expectAccessible(page: Page, what: string) {
  await settleAnimations(page);
  const violations = await seriousViolations(page);
  expect(violations, `${what} :\n${describeViolations(violations)}`).toEqual([]);
}

/**
 * Small defects, on a 375 px phone: a filled « Nouveau signalement » form is not lost to a second
 * Escape, « Annuler » or a click outside without a question; an export that fails says why in French.
 */
describe('the creation dialog asks before losing a filled form; exports fail in French', () => {
  const e = useE2E({}, { closeTestPages: true });
  beforeAll(async () => {
    const page = await e.newPage({ signedInAs: ADMIN });
    await createReportByApi(page, { partenaire: '/api/partenaires/IVY' });
    // The server's first list can take long on a loaded machine: load it once here, not in a test's 30 s.
    await page.goto('/admin/signalement/list');
    await page.getByTestId('pagination-total').waitFor({ timeout: 110_000 });
    await page.context().close();
  });

  it('asks before closing a filled creation form (Escape twice, « Annuler », outside), closes an empty one at once', async () => {
    const page = await e.newPage({ width: 375, height: 800, signedInAs: ADMIN });
    await page.goto('/admin/signalement/list');
    const dialog = page.getByTestId('create-dialog');
    const discard = page.getByRole('dialog', { name: 'Abandonner ce nouveau signalement ?' });
    await page.getByTestId('pagination-total').waitFor();

    // Empty: Escape closes at once, nothing asked.
    await page.getByTestId('create-button').click();
    await dialog.getByRole('heading', { name: 'Initialiser un nouveau signalement' }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await discard.isVisible()).toBe(false);

    // Filled: the first Escape closes the picker, the second asks.
    await page.getByTestId('create-button').click();
    await dialog.getByRole('button', { name: 'Partenaire concerné' }).click();
    await dialog.getByRole('option', { name: /Ivorary/ }).click();
    await dialog.getByRole('button', { name: 'Partenaire concerné' }).click();
    await expect.poll(() => dialog.getByRole('listbox').count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.getByRole('listbox').count()).toBe(0);
    await page.keyboard.press('Escape');
    await discard.waitFor();
    expect(await discard.getByText('Les informations saisies seront perdues.').isVisible()).toBe(true);
    expect(await dialog.isVisible()).toBe(true);
    await expectAccessible(page, 'création, question avant de fermer (375 px)');
    // Staying keeps what was chosen.
    await discard.getByRole('button', { name: 'Continuer la saisie' }).click();
    await expect.poll(() => discard.isVisible()).toBe(false);
    expect(await dialog.getByRole('button', { name: 'Partenaire concerné' }).textContent()).toMatch(
      /Ivorary/,
    );

    // « Annuler » asks too; Escape on the question only closes the question.
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await discard.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => discard.isVisible()).toBe(false);
    expect(await dialog.isVisible()).toBe(true);

    // A click outside the box asks as well; « Abandonner » closes both.
    await page.mouse.click(4, 4);
    await discard.waitFor();
    await discard.getByRole('button', { name: 'Abandonner' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await discard.isVisible()).toBe(false);

    // Opened again, the form is empty and closes at once.
    await page.getByTestId('create-button').click();
    await dialog.getByRole('heading', { name: 'Initialiser un nouveau signalement' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Partenaire concerné' }).textContent()).not.toMatch(
      /Ivorary/,
    );
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await discard.isVisible()).toBe(false);
  });

  it('says why an export failed, in French, never « Erreur HTTP » alone', async () => {
    const page = await e.newPage({ width: 375, height: 800, signedInAs: ADMIN });
    e.allowConsoleErrors(/status of 50\d|status of 429|net::ERR_FAILED/);
    await page.goto('/admin/signalement/list');
    await page.getByTestId('pagination-total').waitFor();
    const failed = toast(page, "Erreur lors de l'export");

    // A 500 without a body: the status's French reason, then the spec's « Erreur HTTP: 500 » (§8).
    await page.route('**/api/signalements/export/xlsx**', (route) =>
      route.fulfill({ status: 500, body: '' }),
    );
    await page.getByTestId('export-button').click();
    await expect
      .poll(() => failed.last().textContent())
      .toContain(
        "Erreur lors de l'export: Une erreur interne est survenue. Veuillez réessayer plus tard. (Erreur HTTP: 500)",
      );
    await page.unrouteAll({ behavior: 'wait' });

    // The server's own message, when it gives one.
    await page.route('**/api/signalements/export/xlsx**', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({
          status: 429,
          message: 'Trop d’exports à la fois. Réessayez dans une minute.',
        }),
      }),
    );
    await page.getByTestId('export-button').click();
    await expect.poll(() => toast(page, 'Trop d’exports à la fois').count()).toBe(1);
    await page.unrouteAll({ behavior: 'wait' });

    // No answer at all: the network message.
    await page.route('**/api/signalements/export/xlsx**', (route) => route.abort());
    await page.getByTestId('export-button').click();
    await expect.poll(() => toast(page, 'Impossible de joindre le serveur').count()).toBe(1);
    await page.unrouteAll({ behavior: 'wait' });

    // The journal's export says it the same way.
    await page.goto('/admin/journal-acces');
    await page.getByTestId('journal-row').first().waitFor();
    await page.route('**/api/journal-acces/export/xlsx**', (route) =>
      route.fulfill({ status: 503, body: '' }),
    );
    await page.getByTestId('journal-export').click();
    await expect
      .poll(() => toast(page, "Erreur lors de l'export").last().textContent())
      .toContain('Service momentanément indisponible, réessayez dans quelques instants.');
    await page.unrouteAll({ behavior: 'wait' });
  });
});
