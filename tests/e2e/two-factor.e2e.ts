import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, enrolTwoFactor, loginAs, PASSWORD, toast, totpCode, useE2E } from './harness';

describe('two-factor log-in (TOTP), in a real browser', () => {
  const e = useE2E();
  beforeAll(async () => {
    await e.user('adjoint@example.mg', 'ROLE_ADMIN', 'Rabe Adjoint');
  });

  async function submitPassword(page: Page, email: string, password: string) {
    await page.goto('/admin/login');
    await page.getByLabel(/e-?mail/i).fill(email);
    await page.getByLabel(/mot de passe/i).fill(password);
    await page.getByRole('button', { name: /se connecter/i }).click();
  }
  const logout = async (page: Page) => {
    await page.goto('/admin/logout');
    await page.waitForURL('**/admin/login');
  };

  it('enrols an administrator with a QR code, the password again and a confirmation code, shows ten recovery codes once, then asks for a code at each log-in', async () => {
    const page = await e.newPage();
    await submitPassword(page, ADMIN.email, ADMIN.password);
    // An administrator without a second factor is sent to enrolment, and the guard keeps them there.
    await page.waitForURL('**/admin/double-authentification/activation');
    await expect
      .poll(() => page.getByText('La double authentification est obligatoire pour votre compte.').isVisible())
      .toBe(true);
    await expect.poll(() => page.getByTestId('two-factor-qr').locator('path').count()).toBe(1);
    await page.goto('/admin/users');
    await page.waitForURL((url) => url.pathname === '/admin/double-authentification/activation');

    // A wrong code is refused under the form.
    e.allowConsoleErrors(/status of 400/);
    await page.getByLabel('Code de vérification').fill('12345');
    await page.getByRole('button', { name: 'Activer', exact: true }).click();
    await expect.poll(() => page.getByText('Le code doit comporter 6 chiffres.').isVisible()).toBe(true);
    // The current password is asked again: an open session alone cannot enrol a factor.
    await page.getByLabel('Mot de passe actuel').fill('pas-le-mot-de-passe');
    await page.getByLabel('Code de vérification').fill('123456');
    await page.getByRole('button', { name: 'Activer', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('two-factor-error').textContent())
      .toBe('Mot de passe incorrect.');
    const secret = (await page.getByTestId('two-factor-secret').textContent())!;
    expect(secret.replace(/\s+/g, '')).toMatch(/^[A-Z2-7]{32}$/);

    const codes = await enrolTwoFactor(page, ADMIN.email);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    await page.getByTestId('admin-group').getByRole('link', { name: 'Utilisateurs' }).click();
    await page.getByTestId('users-table').waitFor();

    // Next log-in: the password, then a code of the app.
    await logout(page);
    await submitPassword(page, ADMIN.email, ADMIN.password);
    await page.waitForURL('**/admin/double-authentification');
    await page.goto('/admin/dashboard');
    await page.waitForURL('**/admin/double-authentification');
    const code = totpCode(page, ADMIN.email);
    await page
      .getByLabel('Code de vérification')
      .fill(String((Number(code) + 1) % 1_000_000).padStart(6, '0'));
    await page.getByRole('button', { name: 'Vérifier' }).click();
    await expect.poll(() => page.getByTestId('two-factor-error').textContent()).toMatch(/^Code incorrect/);
    await page.getByLabel('Code de vérification').fill(totpCode(page, ADMIN.email));
    await page.getByRole('button', { name: 'Vérifier' }).click();
    await page.waitForURL('**/admin/dashboard');

    // Or a recovery code, once.
    await logout(page);
    await submitPassword(page, ADMIN.email, ADMIN.password);
    await page.waitForURL('**/admin/double-authentification');
    await page.getByRole('button', { name: 'Utiliser un code de secours' }).click();
    await page.getByLabel('Code de secours', { exact: true }).fill(codes[0]!);
    await page.getByRole('button', { name: 'Vérifier' }).click();
    await page.waitForURL('**/admin/dashboard');
    await expect.poll(() => toast(page, 'Il vous en reste 9.').isVisible()).toBe(true);
  });

  it("lets an administrator reset another user's second factor from the users screen, with a confirmation and a toast", async () => {
    const adjoint = await e.newPage();
    await loginAs(adjoint, 'adjoint@example.mg', PASSWORD);

    const page = await e.newPage();
    await loginAs(page, ADMIN.email, ADMIN.password);
    await page.getByTestId('admin-group').getByRole('link', { name: 'Utilisateurs' }).click();
    await page.getByTestId('users-table').waitFor();
    await page
      .getByRole('button', { name: 'Réinitialiser la double authentification de Rabe Adjoint' })
      .click();
    const dialog = page.getByTestId('user-two-factor-reset-dialog');
    await dialog.getByRole('button', { name: 'Réinitialiser' }).click();
    await expect
      .poll(() => toast(page, 'Double authentification réinitialisée avec succès !').isVisible())
      .toBe(true);

    // The adjoint's session has ended; the next log-in starts a new enrolment.
    e.allowConsoleErrors(/status of 401/);
    await submitPassword(adjoint, 'adjoint@example.mg', PASSWORD);
    await adjoint.waitForURL('**/admin/double-authentification/activation');
  });
});
