import { readFile } from 'node:fs/promises';
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateTOTP } from '@oslojs/otp';
import type { Dialog, Page } from 'playwright-core';
import { encode } from 'uqr';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations, settleAnimations } from './axe';
import { toast, useE2E } from './harness';
import { ADMIN, enrolTwoFactor, loginAs, PASSWORD, totpCode } from './sign-in';

describe('two-factor log-in (TOTP), in a real browser', () => {
  const e = useE2E();
  beforeAll(async () => {
    await e.user('adjoint@example.mg', 'ROLE_ADMIN', 'Rabe Adjoint');
    await e.user('bureau@example.mg', 'ROLE_ADMIN', 'Rasoa Bureau');
    await e.user('telephone@example.mg', 'ROLE_ADMIN', 'Rakoto Telephone');
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

  /** An enrolment, its axe runs and the codes' checks: past the file's minute on a loaded machine. */
  const ENROLMENT_TIMEOUT_MS = 120_000;

  /** No serious or critical accessibility violation on the page as it is. */
  async function expectAccessible(page: Page) {
    await settleAnimations(page);
    const violations = await seriousViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);
  }

  /**
   * From the password to the recovery codes, as the person does it, without acknowledging them; checks on
   * the way what a person with one phone needs (the app link, the focus; docs/decisions/0016-two-factor.md).
   * Returns the codes as shown.
   */
  async function enrolUntilCodes(page: Page, email: string): Promise<string[]> {
    await submitPassword(page, email, PASSWORD);
    await page.waitForURL('**/admin/double-authentification/activation');
    const link = page.getByRole('link', { name: "Ouvrir dans l'application" });
    await link.waitFor();
    // The link carries the QR code's URI: the QR drawn from the link's href is the page's QR.
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^otpauth:\/\/totp\//);
    expect(await link.getAttribute('target')).toBeNull();
    const { data } = encode(href, { border: 2 });
    let d = '';
    data.forEach((row, y) => row.forEach((dark, x) => void (dark && (d += `M${x} ${y}h1v1h-1z`))));
    expect(await page.getByTestId('two-factor-qr').locator('path').getAttribute('d')).toBe(d);
    const secret = (await page.getByTestId('two-factor-secret').textContent())!.replace(/\s+/g, '');
    expect(new URL(href).searchParams.get('secret')).toBe(secret);
    // The code field has the focus: the person comes back from the app with a code to type.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('two-factor-enrol-code');
    await expectAccessible(page);

    await page.keyboard.type(generateTOTP(decodeBase32IgnorePadding(secret), 30, 6));
    await page.getByLabel('Mot de passe actuel').fill(PASSWORD);
    await page.getByRole('button', { name: 'Activer', exact: true }).click();
    const list = page.getByTestId('recovery-codes');
    await list.waitFor();
    return list.getByTestId('recovery-code').allTextContents();
  }

  it(
    'on a phone (375 px): opens the app from a link, keeps each recovery code whole, and asks before leaving the codes by Back',
    async () => {
      const page = await e.newPage({ width: 375, height: 740 });
      const codes = await enrolUntilCodes(page, 'telephone@example.mg');
      expect(codes).toHaveLength(10);

      // No code is broken over two lines, and the page does not scroll sideways.
      const layout = await page.getByTestId('recovery-code').evaluateAll((spans) =>
        spans.map((span) => {
          const item = span.parentElement!;
          const style = getComputedStyle(item);
          const box = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
          return {
            lines: span.getClientRects().length,
            oneLine: Math.abs(item.getBoundingClientRect().height - box - parseFloat(style.lineHeight)) < 1,
          };
        }),
      );
      expect(layout).toEqual(codes.map(() => ({ lines: 1, oneLine: true })));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await expectAccessible(page);

      // Back asks first; « Rester sur la page » keeps the codes on screen.
      await page.goBack();
      const leave = page.getByTestId('recovery-codes-leave-dialog');
      await expect
        .poll(() => leave.getByRole('heading').textContent())
        .toBe('Codes de secours non enregistrés');
      await expectAccessible(page);
      await leave.getByRole('button', { name: 'Rester sur la page' }).click();
      await expect.poll(() => leave.isVisible()).toBe(false);
      expect(await page.getByTestId('recovery-code').allTextContents()).toEqual(codes);

      // « J'ai enregistré mes codes » ends the warning and opens the application.
      await page.getByRole('button', { name: "J'ai enregistré mes codes" }).click();
      await page.waitForURL('**/admin/dashboard');
    },
    ENROLMENT_TIMEOUT_MS,
  );

  it(
    'on a desktop: copies the recovery codes (or selects them when the clipboard is refused), downloads them as a text file, prints them alone, and warns before the tab closes',
    async () => {
      const page = await e.newPage();
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e.baseUrl });
      const codes = await enrolUntilCodes(page, 'bureau@example.mg');
      expect(codes).toHaveLength(10);
      await expectAccessible(page);
      // The codes live in the page's state only: not in its address nor in any storage.
      const kept = await page.evaluate(() =>
        JSON.stringify([location.href, { ...localStorage }, { ...sessionStorage }]),
      );
      for (const code of codes) expect(kept).not.toContain(code);

      await page.getByRole('button', { name: 'Copier', exact: true }).click();
      await expect
        .poll(() => toast(page, 'Codes de secours copiés dans le presse-papiers.').isVisible())
        .toBe(true);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join('\n'));

      // A refused clipboard: the codes are selected for a copy by hand, and the person is told.
      await page.evaluate(() => {
        navigator.clipboard.writeText = () => Promise.reject(new DOMException('refusé', 'NotAllowedError'));
      });
      await page.getByRole('button', { name: 'Copier', exact: true }).click();
      await expect.poll(() => toast(page, /Copie automatique impossible/).isVisible()).toBe(true);
      const selected = await page.evaluate(() => window.getSelection()?.toString() ?? '');
      expect(selected.split(/\s+/).filter(Boolean)).toEqual(codes);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Télécharger', exact: true }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('codes-de-secours-signalements.txt');
      const lines = (await readFile((await download.path())!, 'utf8')).split('\n');
      expect(lines.slice(0, 3)).toEqual([
        'Signalements : codes de secours de la double authentification',
        'Compte : bureau@example.mg',
        expect.stringMatching(/^Date : \d{2}\/\d{2}\/\d{4}$/),
      ]);
      expect(lines.filter((line) => /^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/.test(line))).toEqual(codes);

      // Printed, the page shows the codes block alone, with the account it unlocks.
      await page.emulateMedia({ media: 'print' });
      expect(await page.getByTestId('recovery-codes').isVisible()).toBe(true);
      expect(await page.getByText('Compte : bureau@example.mg').isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Copier', exact: true }).isVisible()).toBe(false);
      expect(await page.getByRole('heading', { name: 'Vos codes de secours' }).isVisible()).toBe(false);
      await page.emulateMedia({ media: 'screen' });
      expect(await page.getByText('Compte : bureau@example.mg').isVisible()).toBe(false);

      // Closing the tab before « J'ai enregistré mes codes » asks; dismissed, the codes stay.
      const asked = new Promise<string>((resolve) =>
        page.once('dialog', (dialog: Dialog) => {
          resolve(dialog.type());
          void dialog.dismiss();
        }),
      );
      await page.close({ runBeforeUnload: true });
      expect(await asked).toBe('beforeunload');
      expect(page.isClosed()).toBe(false);
      expect(await page.getByTestId('recovery-code').allTextContents()).toEqual(codes);
      await page.getByRole('button', { name: "J'ai enregistré mes codes" }).click();
      await page.waitForURL('**/admin/dashboard');
    },
    ENROLMENT_TIMEOUT_MS,
  );

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
