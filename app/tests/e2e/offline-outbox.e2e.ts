// Decision 0048: changes made offline wait in an encrypted outbox with their idempotency key, survive a closed
// tab and reach the server exactly once when the link returns; a change the server refuses stays with its
// French message; after log-out nothing readable of the session is left in the browser's storage.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from './axe';
import { createReportByApi, toast, useE2E } from './harness';
import { OFFLINE_DB, QUEUED, readAllStorage, storeReady } from './offline-storage';
import { PASSWORD, signInByApi } from './sign-in';

const AGENT = 'hors-ligne@example.mg';
let baseUrl = '';

/** A GET of the REST facade with the page's session, from the test (the page's own requests may be offline). */
async function apiGet(page: Page, url: string): Promise<unknown> {
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  // A 503 is the server's read time bound on this shared machine: asked again, not a failure of the test.
  let res = await fetch(new URL(url, baseUrl), { headers: { cookie } });
  for (let tries = 0; res.status === 503 && tries < 5; tries++) {
    res = await fetch(new URL(url, baseUrl), { headers: { cookie } });
  }
  expect(res.status).toBe(200);
  return res.json();
}

async function total(page: Page, url: string): Promise<number> {
  return ((await apiGet(page, url)) as { totalItems: number }).totalItems;
}
const reportTotal = (page: Page) => total(page, '/api/signalements?itemsPerPage=1');
const historyTotal = (page: Page, code: string) =>
  total(page, `/api/signalements/${encodeURIComponent(code)}/historique`);

async function fillCreateDialog(page: Page): Promise<void> {
  const dialog = page.getByTestId('create-dialog');
  await dialog.getByRole('button', { name: 'Partenaire concerné' }).click();
  await dialog.getByRole('option', { name: /Ivorary/ }).click();
  await dialog.getByRole('button', { name: 'Objet(s) de la plainte' }).click();
  await dialog.getByRole('checkbox', { name: 'Corruption' }).check();
  await dialog.getByRole('heading').click();
  await dialog.getByLabel('Canal de réception principal').selectOption('TELEPHONE');
}

describe('offline outbox', () => {
  const e = useE2E({}, { closeTestPages: true });
  beforeAll(async () => {
    await e.user(AGENT, 'ROLE_USER', 'Rasoa Hors-Ligne');
    baseUrl = e.baseUrl;
  });

  it('sends a report created and another edited offline exactly once after a reopen, then forgets all at log-out', async () => {
    const page = await e.newPage();
    await signInByApi(page, AGENT, PASSWORD);
    const edited = await createReportByApi(page);
    const reportsBefore = await reportTotal(page);
    const historyBefore = await historyTotal(page, edited);
    e.allowConsoleErrors(/ERR_INTERNET_DISCONNECTED|Failed to fetch|net::/);

    // Online: the list and the report are read (and kept), the creation dialog's lists are loaded.
    // In-app navigation only from here: a reload would forget the answers kept in memory.
    await page.goto(`/admin/signalement/detail/${encodeURIComponent(edited)}`);
    await page.getByTestId('detail-description').waitFor();
    await storeReady(page);
    await page.getByRole('link', { name: 'Signalements' }).first().click();
    await page.getByTestId('create-button').click();
    await page.getByTestId('create-dialog').getByRole('button', { name: 'Partenaire concerné' }).click();
    await page.getByRole('option', { name: /Ivorary/ }).waitFor();
    await page.keyboard.press('Escape'); // the partner list
    await page.keyboard.press('Escape'); // the dialog
    await page.getByTestId('create-dialog').waitFor({ state: 'hidden' });
    await page
      .getByRole('link', { name: new RegExp(edited) })
      .first()
      .click();
    await page.getByTestId('detail-description').waitFor();

    await page.context().setOffline(true);
    const description = 'Versement occulte constaté hors ligne à Fianarantsoa';
    await page.getByTestId('detail-description').fill(description);
    await page.getByTestId('save-button').click();
    await toast(page, QUEUED).first().waitFor();
    await expect
      .poll(() => page.getByTestId('outbox-indicator').textContent())
      .toBe('1 modification en attente');

    // Offline the page shows the kept report with the banner.
    await expect
      .poll(() => page.getByTestId('offline-banner').textContent())
      .toMatch(/^Hors ligne — données du \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      const violations = await seriousViolations(page);
      expect(violations, describeViolations(violations)).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('link', { name: 'Signalements' }).first().click();
    await page.getByTestId('create-button').click();
    await fillCreateDialog(page);
    await page.getByTestId('create-dialog').getByRole('button', { name: 'Initialiser' }).click();
    await expect
      .poll(() => page.getByTestId('outbox-indicator').textContent())
      .toBe('2 modifications en attente');

    await page.getByTestId('outbox-indicator').click();
    const panel = page.getByTestId('outbox-panel');
    await expect.poll(() => panel.getByTestId('outbox-entry').count()).toBe(2);
    expect(await panel.getByTestId('outbox-entry').first().textContent()).toContain(
      `Modification du signalement ${edited}`,
    );
    expect(await panel.getByTestId('outbox-entry').nth(1).textContent()).toContain(
      "Création d'un signalement",
    );
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      const violations = await seriousViolations(page);
      expect(violations, describeViolations(violations)).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // Nothing reached the server; the stored outbox holds no plaintext.
    expect(await reportTotal(page)).toBe(reportsBefore);
    expect((await readAllStorage(page)).text).not.toContain(description);

    // The tab closes; a new one opens with the link back: both changes go, once.
    const context = page.context();
    await page.close();
    await context.setOffline(false);
    const reopened = await context.newPage();
    await reopened.goto('/admin/signalement/list');
    await expect.poll(() => reportTotal(reopened)).toBe(reportsBefore + 1);
    await reopened.getByTestId('current-user').waitFor();
    await expect.poll(() => reopened.getByTestId('outbox-indicator').count()).toBe(0);
    const report = (await apiGet(reopened, `/api/signalements/${encodeURIComponent(edited)}`)) as {
      description: string;
    };
    expect(report.description).toBe(description);
    expect(await historyTotal(reopened, edited)).toBe(historyBefore + 1);
    expect(await reportTotal(reopened)).toBe(reportsBefore + 1);

    // Log-out: the store is gone and nothing of the reports is readable in the browser's storage.
    await reopened.goto('/admin/logout');
    await reopened.waitForURL('**/admin/login**');
    const after = await readAllStorage(reopened);
    expect(after.databases).not.toContain(OFFLINE_DB);
    for (const text of [description, edited, 'Rasoa Hors-Ligne', 'Ivorary'])
      expect(after.text).not.toContain(text);
  }, 240_000);

  it('keeps a change the server refuses, with its French message, until it is discarded', async () => {
    const page = await e.newPage();
    await signInByApi(page, AGENT, PASSWORD);
    const code = await createReportByApi(page);
    e.allowConsoleErrors(/ERR_FAILED|Failed to fetch|net::|400/);
    await page.goto(`/admin/signalement/detail/${encodeURIComponent(code)}`);
    await page.getByTestId('detail-description').waitFor();
    await storeReady(page);

    // The request fails on the network: the change is kept.
    await page.route('**/trpc/signalements.update**', (route) => route.abort('failed'));
    await page.getByTestId('detail-description').fill('Texte qui sera refusé');
    await page.getByTestId('save-button').click();
    await toast(page, QUEUED).first().waitFor();
    await page.unroute('**/trpc/signalements.update**');

    // Its replay reaches the server as an invalid change (no subject): the server refuses it.
    await page.route('**/trpc/signalements.update**', (route) =>
      route.continue({ postData: JSON.stringify({ code, patch: { subjects: [] } }) }),
    );
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.getByTestId('outbox-indicator').click();
    const entry = page.getByTestId('outbox-panel').getByTestId('outbox-entry');
    await expect.poll(() => entry.getAttribute('data-state')).toBe('refused');
    expect(await entry.textContent()).toContain(
      'Refusée par le serveur : Au moins un sujet est obligatoire.',
    );
    expect(await page.getByTestId('outbox-indicator').textContent()).toBe('1 modification en attente');

    await entry.getByRole('button', { name: 'Abandonner' }).click();
    await page.getByTestId('outbox-discard-dialog').getByRole('button', { name: 'Abandonner' }).click();
    await expect.poll(() => page.getByTestId('outbox-indicator').count()).toBe(0);
  }, 120_000);
});
