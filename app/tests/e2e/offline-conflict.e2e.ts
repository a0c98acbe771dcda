// Decision 0048: what happens to changes waiting in the outbox when they cannot go as they are. An edit made
// offline over a report changed on the server meanwhile is refused (409) and kept with both values, never
// written over the server's; a log-out says how many waiting changes it would lose; a session that ends
// wipes them with the store and the log-in page says how many.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { describeViolations, seriousViolations } from './axe';
import { createReportByApi, toast, useE2E } from './harness';
import { loginAs, PASSWORD, signInByApi } from './sign-in';

const AGENT = 'conflit-hors-ligne@example.mg';
const QUEUED = "Modification enregistrée sur cet appareil, en attente d'envoi.";
const UPDATED = 'Signalement mis à jour avec succès !';
const OFFLINE_DB = 'signalements-hors-ligne';
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };
let baseUrl = '';

/** The page's session cookie, for requests made from the test (the page's own may be offline). */
async function cookieOf(page: Page): Promise<string> {
  return (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
}

/** The report as the server has it, read through the REST facade with the page's session. */
async function serverDescription(page: Page, code: string): Promise<string | null> {
  const cookie = await cookieOf(page);
  // A 503 is the server's read time bound on this shared machine: asked again, not a failure of the test.
  let res = await fetch(new URL(`/api/signalements/${code}`, baseUrl), { headers: { cookie } });
  for (let tries = 0; res.status === 503 && tries < 5; tries++)
    res = await fetch(new URL(`/api/signalements/${code}`, baseUrl), { headers: { cookie } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { description: string | null }).description;
}

async function storeReady(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(async (name) => (await indexedDB.databases()).some((db) => db.name === name), OFFLINE_DB),
    )
    .toBe(true);
}

async function openReport(page: Page, code: string): Promise<void> {
  await page.goto(`/admin/signalement/detail/${encodeURIComponent(code)}`);
  await page.getByTestId('detail-description').waitFor({ timeout: 60_000 });
  await storeReady(page);
}

/** Saves the description while offline: the change waits in the outbox. */
async function saveOffline(page: Page, text: string): Promise<void> {
  await page.getByTestId('detail-description').fill(text);
  await page.getByTestId('save-button').click();
  await toast(page, QUEUED).first().waitFor();
  await expect.poll(() => page.getByTestId('save-button').isDisabled()).toBe(true);
}

const indicator = (page: Page) => page.getByTestId('outbox-indicator');

describe('offline changes that cannot go as they are', () => {
  // A report read may wait for busy read threads on a loaded machine: 503 only after two minutes.
  const e = useE2E({ READ_JOB_TIMEOUT_SECONDS: '120' }, { closeTestPages: true });
  beforeAll(async () => {
    await e.user(AGENT, 'ROLE_USER', 'Hery Conflit');
    baseUrl = e.baseUrl;
    // The first read starts the server's read thread, slow on a loaded machine: done here, not in a test.
    const setup = await e.newPage();
    await signInByApi(setup, AGENT, PASSWORD);
    const code = await createReportByApi(setup);
    await vi.waitFor(
      async () => expect((await setup.request.get(`/api/signalements/${code}`)).status()).toBe(200),
      { timeout: 100_000, interval: 2000 },
    );
    await setup.context().close();
  }, 180_000);

  it('keeps an offline edit over a report changed meanwhile with both values, and lets it be redone', async () => {
    const page = await e.newPage();
    await signInByApi(page, AGENT, PASSWORD);
    const code = await createReportByApi(page);
    e.allowConsoleErrors(/ERR_INTERNET_DISCONNECTED|Failed to fetch|net::|409/);
    await openReport(page, code);

    await page.context().setOffline(true);
    await saveOffline(page, 'Valeur saisie hors ligne');
    await expect.poll(() => indicator(page).textContent()).toBe('1 modification en attente');

    // Meanwhile someone changes the same field on the server.
    const patched = await fetch(new URL(`/api/signalements/${code}`, baseUrl), {
      method: 'PATCH',
      headers: {
        ...SAME_ORIGIN,
        cookie: await cookieOf(page),
        'content-type': 'application/merge-patch+json',
      },
      body: JSON.stringify({ description: 'Valeur changée sur le serveur' }),
    });
    expect(patched.status).toBe(200);

    // The link comes back: the outbox sends the edit, the server refuses it as stale.
    await page.context().setOffline(false);
    await indicator(page).click();
    const entry = page.getByTestId('outbox-panel').getByTestId('outbox-entry');
    await expect.poll(() => entry.getAttribute('data-state')).toBe('refused');
    const showsBothValues = async () => {
      const row = entry.getByTestId('edit-conflict-description');
      expect(await row.getByRole('rowheader').textContent()).toBe('Description');
      expect(await row.getByTestId('edit-conflict-yours').textContent()).toBe('Valeur saisie hors ligne');
      expect(await row.getByTestId('edit-conflict-current').textContent()).toBe(
        'Valeur changée sur le serveur',
      );
      expect(await entry.getByRole('columnheader').allTextContents()).toEqual([
        'Champ',
        'Votre valeur',
        'Valeur actuelle',
      ]);
    };
    await showsBothValues();
    expect(await entry.textContent()).toContain(
      "Refusée par le serveur : Ce signalement a été modifié par quelqu'un d'autre depuis que vous l'avez ouvert.",
    );
    // Not written over the server's value.
    expect(await serverDescription(page, code)).toBe('Valeur changée sur le serveur');
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      const violations = await seriousViolations(page);
      expect(violations, describeViolations(violations)).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // Kept on the device with its values: a reopened page shows them again.
    await page.reload();
    await indicator(page).click();
    await expect.poll(() => entry.getAttribute('data-state')).toBe('refused');
    await showsBothValues();
    expect(await serverDescription(page, code)).toBe('Valeur changée sur le serveur');

    // « Ouvrir le signalement »: the report as it is now, the user's value over it, unsaved, to redo.
    await entry.getByRole('button', { name: 'Ouvrir le signalement' }).click();
    await expect.poll(() => indicator(page).count()).toBe(0);
    await expect
      .poll(() => page.getByTestId('detail-description').inputValue())
      .toBe('Valeur saisie hors ligne');
    expect(await serverDescription(page, code)).toBe('Valeur changée sur le serveur');
    await page.getByTestId('save-button').click();
    await toast(page, UPDATED).first().waitFor();
    expect(await serverDescription(page, code)).toBe('Valeur saisie hors ligne');
  }, 240_000);

  it('says at log-out how many waiting changes would be lost, and lets the user cancel and reconnect', async () => {
    const page = await e.newPage();
    await signInByApi(page, AGENT, PASSWORD);
    const code = await createReportByApi(page);
    e.allowConsoleErrors(/ERR_INTERNET_DISCONNECTED|Failed to fetch|net::/);
    await openReport(page, code);

    await page.context().setOffline(true);
    await saveOffline(page, 'Première modification hors ligne');
    await saveOffline(page, 'Seconde modification hors ligne');
    await expect.poll(() => indicator(page).textContent()).toBe('2 modifications en attente');

    const dialog = page.getByTestId('logout-dialog');
    await page.getByTestId('logout-button').click();
    expect(await dialog.getByTestId('logout-pending').textContent()).toBe(
      '2 modifications en attente ne sont pas encore envoyées : elles seront perdues si vous vous déconnectez. ' +
        'Annulez et attendez le retour de la connexion pour les envoyer.',
    );
    const violations = await seriousViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);

    // Cancelled: the changes still wait. The link is back but their requests still fail on the network.
    await page.route('**/trpc/signalements.update**', (route) => route.abort('failed'));
    await page.context().setOffline(false);
    // /logout reached without the menu's confirmation (a link, an address): the page asks the same.
    await page.evaluate(() => window.history.pushState(null, '', '/admin/logout'));
    await dialog.waitFor();
    expect(await dialog.getByTestId('logout-pending').textContent()).toBe(
      '2 modifications en attente ne sont pas encore envoyées : elles seront perdues si vous vous déconnectez. ' +
        'Annulez et attendez le retour de la connexion pour les envoyer.',
    );
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await page.getByTestId('detail-description').waitFor();
    expect(await indicator(page).textContent()).toBe('2 modifications en attente');

    // The requests go through again: both changes reach the server, in order.
    await page.unroute('**/trpc/signalements.update**');
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect.poll(() => indicator(page).count()).toBe(0);
    expect(await serverDescription(page, code)).toBe('Seconde modification hors ligne');

    // Nothing waits any more: the confirmation says nothing of it; a log-out is no lost session.
    await page.getByTestId('logout-button').click();
    await dialog.waitFor();
    expect(await dialog.getByTestId('logout-pending').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Confirmer' }).click();
    await page.waitForURL('**/admin/login**');
    await page.getByRole('button', { name: /se connecter/i }).waitFor();
    expect(await page.getByTestId('login-unsent').count()).toBe(0);
  }, 240_000);

  it('wipes the waiting changes when the session ends, and the log-in page says how many', async () => {
    const page = await e.newPage();
    await signInByApi(page, AGENT, PASSWORD);
    const code = await createReportByApi(page);
    e.allowConsoleErrors(/ERR_INTERNET_DISCONNECTED|Failed to fetch|net::|401/);
    await openReport(page, code);

    await page.context().setOffline(true);
    const lost = 'Modification perdue avec la session';
    await saveOffline(page, lost);
    await expect.poll(() => indicator(page).textContent()).toBe('1 modification en attente');

    // The session ends on the server (a log-out elsewhere) while this device is offline.
    const ended = await fetch(new URL('/api/logout', baseUrl), {
      method: 'POST',
      headers: { ...SAME_ORIGIN, cookie: await cookieOf(page) },
    });
    expect(ended.status).toBe(204);

    await page.context().setOffline(false);
    await page.waitForURL('**/admin/login**');
    await expect
      .poll(() => page.getByTestId('login-unsent').textContent())
      .toBe(
        '1 modification en attente n’a pas pu être envoyée : votre session a pris fin et elle a été effacée de cet appareil. ' +
          'Refaites-la après vous être reconnecté.',
      );
    // The store is gone; only the number is kept, not the change.
    await expect
      .poll(() =>
        page.evaluate(
          async (name) => (await indexedDB.databases()).some((db) => db.name === name),
          OFFLINE_DB,
        ),
      )
      .toBe(false);
    const kept = await page.evaluate(() => JSON.stringify(Object.entries(sessionStorage)));
    expect(kept).not.toContain(lost);
    const violations = await seriousViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);

    // Told once: the next log-in forgets it.
    await loginAs(page, AGENT, PASSWORD);
    await page.goto('/admin/login');
    await page.waitForURL((url) => url.pathname !== '/admin/login');
    expect(await page.evaluate(() => Object.keys(sessionStorage))).not.toContain('hors-ligne-non-envoyees');
    // The change never reached the server.
    expect(await serverDescription(page, code)).not.toBe(lost);
  }, 240_000);
});
