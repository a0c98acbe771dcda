// Decision 0048: the reports read recently open from the device's encrypted store after an offline reload,
// under « Hors ligne — données du … »; a location edit waits in the outbox with the page's other fields; and
// after log-out nothing of a viewed report or of a person and a note still waiting is readable in storage.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createReportByApi, toast, useE2E } from './harness';
import {
  NETWORK_ERRORS,
  OFFLINE_DB,
  QUEUED,
  rawKeys,
  readAllStorage,
  storeReady,
  trpcMutation,
  trpcQuery,
} from './offline-storage';
import { PASSWORD, signInByApi } from './sign-in';

const AGENT = 'hors-ligne-magasin@example.mg';
const AGENT_NAME = 'Tojo Magasin-Hors-Ligne';
const BANNER = /^Hors ligne — données du \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/;

const pending = (page: Page) => page.getByTestId('outbox-indicator');

/** A report of this agent with a description of its own; its code. */
async function reportWith(page: Page, description: string): Promise<string> {
  const code = await createReportByApi(page);
  await trpcMutation(page, 'signalements.update', { code, patch: { description } });
  return code;
}

/** Until the offline store holds an answer of `procedure` (it is written after the answer arrives). */
const kept = (page: Page, procedure: string) =>
  expect
    .poll(async () => (await rawKeys(page, 'cache')).filter((k) => k.startsWith(`${procedure}|`)).length)
    .toBeGreaterThan(0);

describe('offline store', () => {
  // A first read on a loaded shared machine may wait past the default 30 s bound (a 503): as saved-filters.
  const e = useE2E({ READ_JOB_TIMEOUT_SECONDS: '120' }, { closeTestPages: true });
  beforeAll(async () => {
    await e.user(AGENT, 'ROLE_USER', AGENT_NAME);
  });

  it('shows the list and a report read before from the store after an offline reload, with the banner', async () => {
    const page = await e.newPage({ serviceWorkers: 'allow' });
    await signInByApi(page, AGENT, PASSWORD);
    const description = 'Ristourne exigée au poste de Mahajanga, lue avant la coupure';
    const code = await reportWith(page, description);
    e.allowConsoleErrors(NETWORK_ERRORS);

    // Online: the list and the report are read, and kept on the device.
    await page.goto('/admin/signalement/list');
    await page
      .getByRole('link', { name: new RegExp(code) })
      .first()
      .waitFor({ timeout: 120_000 });
    await storeReady(page);
    await page
      .getByRole('link', { name: new RegExp(code) })
      .first()
      .click();
    await expect.poll(() => page.getByTestId('detail-description').inputValue()).toBe(description);
    // The offline reload needs the service worker's shell and the kept answers.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    for (const procedure of ['auth.session', 'signalements.list', 'signalements.get'])
      await kept(page, procedure);

    await page.context().setOffline(true);
    try {
      // A reload forgets every answer held in memory: what shows comes from the device's store.
      await page.reload();
      await expect.poll(() => page.getByTestId('detail-description').inputValue()).toBe(description);
      expect(await page.getByTestId('signalement-detail').textContent()).toContain(code);
      await expect.poll(() => page.getByTestId('offline-banner').textContent()).toMatch(BANNER);

      await page.getByRole('link', { name: 'Signalements' }).first().click();
      await page
        .getByRole('link', { name: new RegExp(code) })
        .first()
        .waitFor();
      await expect.poll(() => page.getByTestId('offline-banner').textContent()).toMatch(BANNER);

      // The list is the kept one even when opened by a reload on its own address.
      await page.reload();
      await page
        .getByRole('link', { name: new RegExp(code) })
        .first()
        .waitFor();
      await expect.poll(() => page.getByTestId('offline-banner').textContent()).toMatch(BANNER);
    } finally {
      await page.context().setOffline(false);
    }
  }, 240_000);

  it('keeps an offline location edit in the outbox after the same save’s fields, and sends both once', async () => {
    const page = await e.newPage();
    await signInByApi(page, AGENT, PASSWORD);
    const code = await createReportByApi(page);
    await page.goto(`/admin/signalement/detail/${encodeURIComponent(code)}`);
    await page.getByTestId('location-fokontany').waitFor({ timeout: 120_000 });
    await storeReady(page);
    const historyBefore = (await trpcQuery(page, 'signalements.historique', { code })) as unknown[];
    e.allowConsoleErrors(NETWORK_ERRORS);

    await page.context().setOffline(true);
    const description = 'Pot-de-vin signalé au fokontany, saisi sans connexion';
    await page.getByTestId('detail-description').fill(description);
    await page.getByTestId('location-fokontany').fill('Ambohitsaina');
    await page.getByTestId('save-button').click();
    await toast(page, QUEUED).first().waitFor();
    await expect.poll(() => pending(page).textContent()).toBe('2 modifications en attente');
    // Taken as saved: no unsaved change is left on the page.
    await expect.poll(() => page.getByTestId('location-save').isDisabled()).toBe(true);
    expect(await page.getByTestId('location-fokontany').inputValue()).toBe('Ambohitsaina');
    await pending(page).click();
    const entries = page.getByTestId('outbox-panel').getByTestId('outbox-entry');
    await expect.poll(() => entries.count()).toBe(2);
    expect(await entries.first().textContent()).toContain(`Modification du signalement ${code}`);
    expect(await entries.nth(1).textContent()).toContain(
      `Modification de la localisation du signalement ${code}`,
    );
    await page.keyboard.press('Escape');
    const before = (await trpcQuery(page, 'signalements.localisation', { code })) as { fokontany: unknown };
    expect(before.fokontany).toBeNull();

    // Replayed in order, each from the version the one before left: no conflict, each applied once.
    await page.context().setOffline(false);
    await expect.poll(() => pending(page).count()).toBe(0);
    const place = (await trpcQuery(page, 'signalements.localisation', { code })) as { fokontany: unknown };
    expect(place.fokontany).toBe('Ambohitsaina');
    const report = (await trpcQuery(page, 'signalements.get', { code })) as { description: string };
    expect(report.description).toBe(description);
    const history = (await trpcQuery(page, 'signalements.historique', { code })) as unknown[];
    expect(history.length - historyBefore.length).toBe(2);
  }, 240_000);

  it('leaves nothing of a viewed report nor of a waiting person and note readable after log-out', async () => {
    const page = await e.newPage();
    await signInByApi(page, AGENT, PASSWORD);
    const description = 'Détournement de fonds au centre de santé de Toliara';
    const code = await reportWith(page, description);
    const author = 'Randrianasolo Mamy Effacé';
    const authorDescription = 'Gestionnaire du dépôt de médicaments';
    const note = 'Note gardée en attente jusqu’à la déconnexion';
    e.allowConsoleErrors(NETWORK_ERRORS);

    await page.goto(`/admin/signalement/detail/${encodeURIComponent(code)}`);
    await expect
      .poll(() => page.getByTestId('detail-description').inputValue(), { timeout: 120_000 })
      .toBe(description);
    await storeReady(page);
    await kept(page, 'signalements.get');

    // The requests fail on the network: the person and the note wait in the outbox (their replays fail too).
    await page.route('**/trpc/auteurs.create**', (route) => route.abort('failed'));
    await page.route('**/trpc/notes.create**', (route) => route.abort('failed'));
    await page.getByTestId('auteurs-section').getByTestId('person-add').click();
    const dialog = page.getByTestId('auteur-dialog');
    await dialog.getByLabel('Nom et prénom').fill(author);
    await dialog.getByLabel('Description (facultatif)').fill(authorDescription);
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('note-form').getByLabel('Nouvelle note').fill(note);
    await page.getByTestId('note-form').getByRole('button', { name: 'Ajouter la note' }).click();
    await expect.poll(() => pending(page).textContent()).toBe('2 modifications en attente');
    expect(await rawKeys(page, 'outbox')).toHaveLength(2);
    expect((await rawKeys(page, 'cache')).some((k) => k.startsWith('signalements.get|'))).toBe(true);

    // A typed address reloads the app: the page asks once the kept outbox is read, then logs out.
    await page.goto('/admin/logout');
    const confirm = page.getByTestId('logout-dialog');
    await confirm.getByTestId('logout-pending').waitFor();
    await confirm.getByRole('button', { name: 'Confirmer' }).click();
    await page.waitForURL('**/admin/login**');
    const after = await readAllStorage(page);
    expect(after.databases).not.toContain(OFFLINE_DB);
    for (const text of [description, code, author, authorDescription, note, AGENT_NAME, AGENT]) {
      expect(after.text).not.toContain(text);
    }
  }, 240_000);
});
