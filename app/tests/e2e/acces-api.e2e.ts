import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from './axe';
import { toast, useE2E } from './harness';
import { ADMIN, loginAs } from './sign-in';

/**
 * « Accès API » (docs/decisions/0038-partner-api-tokens.md) in a real browser: an administrator creates a
 * token for a partner, sees its secret once (with a warning and a copy button), the token works on the REST
 * facade, the secret is gone once the dialog is closed, and a revocation after confirmation stops it (401).
 * Each screen and dialog passes axe.
 */
describe('partner API tokens screen in a real browser', () => {
  const e = useE2E();

  async function expectAccessible(page: Page, what: string) {
    const violations = await seriousViolations(page);
    expect(violations, `${what} :\n${describeViolations(violations)}`).toEqual([]);
  }
  const listReports = (secret: string) =>
    fetch(`${e.baseUrl}/api/signalements`, { headers: { authorization: `Bearer ${secret}` } });

  it('creates a token, shows its secret once, and revokes it after confirmation', async () => {
    const page = await e.newPage();
    await loginAs(page, ADMIN.email, ADMIN.password);
    await page.getByTestId('admin-group').getByRole('link', { name: 'Accès API' }).click();
    await page.getByRole('heading', { name: 'Accès API' }).waitFor();
    await page.getByTestId('jetons-empty').waitFor();
    await expectAccessible(page, 'accès API (vide)');

    await page.getByRole('button', { name: 'Nouveau jeton' }).click();
    const form = page.getByTestId('jeton-form-dialog');
    await form.getByRole('button', { name: 'Créer le jeton' }).click();
    // French messages under the fields.
    await form.getByText('Veuillez choisir un partenaire.').waitFor();
    expect(await form.getByText('Le nom du jeton doit contenir de 2 à 80 caractères.').isVisible()).toBe(
      true,
    );
    await expectAccessible(page, 'nouveau jeton (erreurs)');
    await form.getByLabel('Partenaire').selectOption({ label: 'Ivorary' });
    await form.getByLabel('Nom du jeton').fill('Guichet Ivorary');
    await form.getByLabel('Durée de validité').selectOption('30');
    await form.getByRole('button', { name: 'Créer le jeton' }).click();

    const shown = page.getByTestId('jeton-secret-dialog');
    await shown.waitFor();
    expect(await shown.getByTestId('jeton-secret-warning').textContent()).toContain(
      'il ne sera plus jamais affiché',
    );
    expect(await shown.getByRole('button', { name: 'Copier' }).isVisible()).toBe(true);
    const secret = await shown.getByTestId('jeton-secret').inputValue();
    expect(secret).toMatch(/^sig_[a-z2-7]{16}_[a-z2-7]{32}$/);
    await expectAccessible(page, 'jeton créé');
    expect((await listReports(secret)).status).toBe(200);
    // Every scope is ticked by default: the partner registers its own webhook endpoint (docs/decisions/0051).
    const registered = await fetch(`${e.baseUrl}/api/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://guichet.ivorary.example/webhooks' }),
    });
    expect(registered.status).toBe(201);

    await shown.getByRole('button', { name: "J'ai copié le jeton" }).click();
    await shown.waitFor({ state: 'hidden' });
    const row = page.getByTestId('jeton-row').filter({ hasText: 'Guichet Ivorary' });
    await row.waitFor();
    // Shown once: nowhere on the page any more, nor in what the screen's procedures answer.
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(secret.slice(-32));
    expect(await row.getByTestId('jeton-state').textContent()).toBe('Actif');
    // Its use just now is its last use.
    expect(await row.getByTestId('jeton-last-use').textContent()).not.toBe('Jamais');
    await expectAccessible(page, 'accès API (liste)');

    await row.getByTestId('jeton-revoke').click();
    const confirm = page.getByTestId('jeton-revoke-dialog');
    await confirm.getByText('cessera aussitôt de fonctionner').waitFor();
    await expectAccessible(page, 'révocation');
    await confirm.getByRole('button', { name: 'Révoquer' }).click();
    await toast(page, 'Jeton révoqué.').waitFor();
    await expect.poll(() => row.getByTestId('jeton-state').textContent()).toBe('Révoqué');
    expect(await row.getByTestId('jeton-revoke').count()).toBe(0);
    const refused = await listReports(secret);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer /);

    // The administrators see the partner's endpoint on « Webhooks », marked as registered by the partner.
    await page.getByTestId('admin-group').getByRole('link', { name: 'Webhooks' }).click();
    const endpoint = page
      .getByTestId('webhook-endpoint-row')
      .filter({ hasText: 'https://guichet.ivorary.example/webhooks' });
    await endpoint.waitFor();
    expect(await endpoint.getByTestId('webhook-by-partner').textContent()).toBe(
      'Enregistré par le partenaire (jeton d’API)',
    );
  });
});
