// The « Webhooks » screen in a real browser (docs/decisions/0039-signed-webhooks.md): an administrator
// registers a loopback endpoint (French validation, the secret shown once), a report's new statut fails to
// reach it and becomes a dead letter (WEBHOOK_MAX_ATTEMPTS=1), « Relancer » delivers it, signed with that
// secret; « Renouveler le secret » shows a new secret once, the list tells until when the former one signs,
// and the next delivery carries both signatures; axe finds no serious violation on the screen or its dialogs
// (desktop, and the renewal dialog at 375 px).
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations, settleAnimations } from './axe';
import { createReportByApi, toast, useE2E } from './harness';
import { ADMIN, loginAs } from './sign-in';

describe('the « Webhooks » screen in a real browser', () => {
  const e = useE2E({ WEBHOOK_MAX_ATTEMPTS: '1' });
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  let status = 500;
  let server: Server;
  let url = '';
  /** The secret shown at the registration (first test), still signing after the renewal (second). */
  let firstSecret = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(status);
        res.end(status === 500 ? 'panne du partenaire' : '');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  async function expectAccessible(page: Page, what: string) {
    await settleAnimations(page);
    const violations = await seriousViolations(page);
    expect(violations, `${what} :\n${describeViolations(violations)}`).toEqual([]);
  }
  /** Reloads the screen until the deliveries show a row in this state (the screen does not poll). */
  async function waitForDelivery(page: Page, state: string) {
    const row = page.locator(`[data-testid="webhook-delivery-row"][data-state="${state}"]`);
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole('heading', { name: 'Livraisons' }).waitFor();
          await expect.poll(() => page.getByText(/^Chargement/).count()).toBe(0);
          return row.count();
        },
        { timeout: 15_000, interval: 200 },
      )
      .toBeGreaterThan(0);
    return row.first();
  }

  it('registers an endpoint, shows its secret once, lists a dead letter and delivers it on « Relancer »', async () => {
    const page = await e.newPage();
    await loginAs(page, ADMIN.email, ADMIN.password);
    await page.getByTestId('admin-group').getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
    await page.getByTestId('webhook-endpoints-empty').waitFor();
    await expectAccessible(page, 'webhooks (vide)');

    await page.getByRole('button', { name: 'Nouveau point de réception' }).click();
    const dialog = page.getByTestId('webhook-endpoint-dialog');
    await dialog.getByLabel('Adresse (URL)').fill('http://partenaire.example.mg/webhooks');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await dialog.getByText('Choisissez un partenaire.').waitFor();
    await dialog
      .getByText(
        "HTTP n'est accepté que vers la machine locale (127.0.0.1 ou [::1]) ; utilisez une adresse https://.",
      )
      .waitFor();
    await expectAccessible(page, 'nouveau point de réception');
    await expect.poll(() => dialog.locator('#webhook-partenaire option[value="IVY"]').count()).toBe(1);
    await dialog.getByLabel('Partenaire').selectOption('IVY');
    await dialog.getByLabel('Adresse (URL)').fill(url);
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    const secretField = dialog.getByTestId('webhook-secret-value');
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    firstSecret = secret;
    await expectAccessible(page, 'secret de signature');
    await dialog.getByRole('button', { name: 'Fermer' }).click();
    const endpointRow = page.getByTestId('webhook-endpoint-row');
    await endpointRow.waitFor();
    expect(await endpointRow.textContent()).toContain(url);
    expect(await endpointRow.textContent()).toContain('Actif');
    // The secret is never shown again.
    expect(await page.content()).not.toContain(secret);

    const code = await createReportByApi(page);
    const patch = await page.request.patch(`/api/signalements/${code}`, {
      headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/merge-patch+json' },
      data: JSON.stringify({ statut: '/api/statuts/EN_COURS' }),
    });
    expect(patch.status()).toBe(200);
    const dead = await waitForDelivery(page, 'dead');
    expect(await dead.textContent()).toContain(code);
    expect(await dead.textContent()).toContain('Lettre morte');
    expect(await dead.textContent()).toContain('HTTP 500');
    await expectAccessible(page, 'webhooks (lettre morte)');

    status = 204;
    await dead.getByRole('button', { name: /Relancer/ }).click();
    await toast(page, 'Livraison relancée.').waitFor();
    const delivered = await waitForDelivery(page, 'delivered');
    expect(await delivered.textContent()).toContain('Livré');
    expect(received).toHaveLength(2);
    // The same message both times, signed with the secret shown once (Standard Webhooks).
    const [first, last] = received;
    expect(last!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    const { headers, body } = last!;
    const signature = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
      .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`)
      .digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${signature}`);
    expect(JSON.parse(body).data).toEqual({
      signalement: code,
      partenaire: 'IVY',
      changements: { statut: { avant: null, apres: 'EN_COURS' } },
    });
  });

  it('« Renouveler le secret » shows the new secret once, and both secrets sign during the grace period', async () => {
    const page = await e.newPage();
    await loginAs(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin/webhooks');
    const row = page.getByTestId('webhook-endpoint-row');
    await row.waitFor();
    const before = received.length;
    await row.getByRole('button', { name: /^Renouveler le secret/ }).click();
    const dialog = page.getByTestId('webhook-rotate-dialog');
    await dialog.getByText(/L’ancien reste valable 24 heures/).waitFor();
    await expectAccessible(page, 'renouveler le secret');
    await dialog.getByRole('button', { name: 'Renouveler le secret' }).click();
    await toast(page, 'Secret renouvelé.').waitFor();
    const secretField = dialog.getByTestId('webhook-secret-value');
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await dialog
      .getByText(/L’ancien secret signe encore les livraisons jusqu’au \d\d\/\d\d\/\d{4} \d\d:\d\d/)
      .waitFor();
    await expectAccessible(page, 'nouveau secret de signature');
    await page.setViewportSize({ width: 375, height: 800 });
    await expectAccessible(page, 'nouveau secret de signature (375 px)');
    await dialog.getByRole('button', { name: 'Fermer' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row.getByTestId('webhook-previous-secret').waitFor();
    // Shown once: neither the page nor a reload carries it again.
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await row.getByTestId('webhook-previous-secret').waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.setViewportSize({ width: 1280, height: 800 });

    const code = await createReportByApi(page);
    const patch = await page.request.patch(`/api/signalements/${code}`, {
      headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/merge-patch+json' },
      data: JSON.stringify({ statut: '/api/statuts/EN_COURS' }),
    });
    expect(patch.status()).toBe(200);
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(before + 1);
    const { headers, body } = received.at(-1)!;
    const sign = (s: string) =>
      `v1,${createHmac('sha256', Buffer.from(s.slice('whsec_'.length), 'base64'))
        .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`)
        .digest('base64')}`;
    // The new secret first, then the one shown at the registration (previous test).
    expect(headers['webhook-signature']).toBe(`${sign(secret)} ${sign(firstSecret)}`);
  });
});
