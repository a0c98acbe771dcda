// Decision 0048: an author and a note added offline wait in the outbox and reach the server once when the link
// returns; a note or a source of an anonymous report is never kept on the device: offline, or when its request
// fails on the network, it stays in its form with a French message, and nothing of it reaches IndexedDB.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from './axe';
import { createReportByApi, toast, useE2E } from './harness';
import {
  NETWORK_ERRORS,
  occurrences,
  QUEUED,
  rawKeys,
  readAllStorage,
  storeReady,
  trpcMutation,
  trpcQuery,
} from './offline-storage';
import { PASSWORD, signInByApi } from './sign-in';

const AGENT = 'hors-ligne-personnes@example.mg';
const NOTE_NEVER_KEPT =
  'Une note d’un signalement anonyme n’est jamais gardée sur l’appareil : enregistrez-la une fois la connexion rétablie.';
const SOURCE_NEVER_KEPT =
  'Une source d’un signalement anonyme n’est jamais gardée sur l’appareil : enregistrez-la une fois la connexion rétablie.';

const pending = (page: Page) => page.getByTestId('outbox-indicator');

/** Signs in, creates a report and opens its detail once the store is ready; returns its code. */
async function openNewReport(page: Page, anonymous = false): Promise<string> {
  await signInByApi(page, AGENT, PASSWORD);
  const code = await createReportByApi(page);
  if (anonymous) await trpcMutation(page, 'signalements.update', { code, patch: { isAnonyme: true } });
  await page.goto(`/admin/signalement/detail/${encodeURIComponent(code)}`);
  // The first page of a file waits for the server's first answers on this shared machine.
  await page.getByTestId('detail-description').waitFor({ timeout: 120_000 });
  await page.getByTestId('note-form').waitFor();
  await storeReady(page);
  return code;
}

async function addNote(page: Page, text: string): Promise<void> {
  await page.getByTestId('note-form').getByLabel('Nouvelle note').fill(text);
  await page.getByTestId('note-form').getByRole('button', { name: 'Ajouter la note' }).click();
}

describe('offline people and notes', () => {
  // A first read on a loaded shared machine may wait past the default 30 s bound (a 503): as saved-filters.
  const e = useE2E({ READ_JOB_TIMEOUT_SECONDS: '120' }, { closeTestPages: true });
  beforeAll(async () => {
    await e.user(AGENT, 'ROLE_USER', 'Haingo Hors-Ligne');
  });

  it('sends an author and a note added offline exactly once when the link returns', async () => {
    const page = await e.newPage();
    const code = await openNewReport(page);
    e.allowConsoleErrors(NETWORK_ERRORS);
    const author = 'Rakotomalala Fidy Hors-Ligne';
    const authorDescription = 'Chef de poste vu au guichet de Toamasina';
    const note = 'Appel du témoin reçu sans connexion';

    await page.context().setOffline(true);
    await page.getByTestId('auteurs-section').getByTestId('person-add').click();
    const dialog = page.getByTestId('auteur-dialog');
    await dialog.getByLabel('Nom et prénom').fill(author);
    await dialog.getByLabel('Description (facultatif)').fill(authorDescription);
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await toast(page, QUEUED).first().waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await addNote(page, note);
    await expect.poll(() => pending(page).textContent()).toBe('2 modifications en attente');
    await expect.poll(() => page.getByTestId('note-form').getByLabel('Nouvelle note').inputValue()).toBe('');

    await pending(page).click();
    const entries = page.getByTestId('outbox-panel').getByTestId('outbox-entry');
    await expect.poll(() => entries.count()).toBe(2);
    expect(await entries.first().textContent()).toContain(`Ajout d'un auteur au signalement ${code}`);
    expect(await entries.nth(1).textContent()).toContain(`Ajout d'une note au signalement ${code}`);
    const violations = await seriousViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);
    await page.keyboard.press('Escape');

    // Kept encrypted: two records in the outbox, none readable; nothing reached the server.
    expect(await rawKeys(page, 'outbox')).toHaveLength(2);
    const stored = (await readAllStorage(page)).text;
    for (const text of [author, authorDescription, note]) expect(stored).not.toContain(text);
    expect(occurrences(await trpcQuery(page, 'auteurs.list', { signalement: code }), author)).toBe(0);
    expect(occurrences(await trpcQuery(page, 'notes.list', { signalement: code }), note)).toBe(0);

    await page.context().setOffline(false);
    await expect.poll(() => pending(page).count()).toBe(0);
    expect(await rawKeys(page, 'outbox')).toEqual([]);
    expect(occurrences(await trpcQuery(page, 'auteurs.list', { signalement: code }), author)).toBe(1);
    expect(occurrences(await trpcQuery(page, 'notes.list', { signalement: code }), note)).toBe(1);
    // The page reads them back once sent.
    await page.getByTestId('auteurs-section').getByText(author).waitFor();
    await page.getByTestId('notes-card').getByText(note).waitFor();
    expect(occurrences(await trpcQuery(page, 'auteurs.list', { signalement: code }), author)).toBe(1);
  }, 240_000);

  it('keeps a note of an anonymous report in its form, never on the device, offline or on a failing network', async () => {
    const page = await e.newPage();
    const code = await openNewReport(page, true);
    e.allowConsoleErrors(NETWORK_ERRORS);
    const note = 'Le témoin anonyme confirme le versement';
    const field = page.getByTestId('note-form').getByLabel('Nouvelle note');

    for (const cut of ['offline', 'failing request'] as const) {
      if (cut === 'offline') await page.context().setOffline(true);
      else await page.route('**/trpc/notes.create**', (route) => route.abort('failed'));
      await addNote(page, note);
      await expect.poll(() => page.getByTestId('note-notice').textContent()).toBe(NOTE_NEVER_KEPT);
      expect(await field.inputValue()).toBe(note);
      expect(await pending(page).count()).toBe(0);
      expect(await rawKeys(page, 'outbox')).toEqual([]);
      expect((await readAllStorage(page)).text).not.toContain(note);
      const violations = await seriousViolations(page);
      expect(violations, describeViolations(violations)).toEqual([]);
      if (cut === 'offline') await page.context().setOffline(false);
      else await page.unroute('**/trpc/notes.create**');
    }

    // The link is back: the same text is saved, once.
    await page.getByTestId('note-form').getByRole('button', { name: 'Ajouter la note' }).click();
    await page.getByTestId('notes-card').getByTestId('note-text').filter({ hasText: note }).waitFor();
    expect(await page.getByTestId('note-notice').count()).toBe(0);
    expect(occurrences(await trpcQuery(page, 'notes.list', { signalement: code }), note)).toBe(1);
  }, 240_000);

  it('keeps a source in its form, never on the device, when the report was made anonymous offline', async () => {
    const page = await e.newPage();
    const code = await openNewReport(page);
    e.allowConsoleErrors(NETWORK_ERRORS);
    const source = 'Ravelonarivo Témoin-Protégé';
    const description = 'Employé du service des domaines';

    await page.context().setOffline(true);
    await page.getByTestId('anonymous-switch').click();
    await toast(page, QUEUED).first().waitFor();
    await expect.poll(() => pending(page).textContent()).toBe('1 modification en attente');

    await page.getByTestId('sources-section').getByTestId('person-add').click();
    const dialog = page.getByTestId('source-dialog');
    await dialog.getByLabel('Nom et prénom (facultatif)').fill(source);
    await dialog.getByLabel('Description (facultatif)').fill(description);
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect.poll(() => dialog.getByTestId('person-notice').textContent()).toBe(SOURCE_NEVER_KEPT);
    expect(await dialog.getByLabel('Nom et prénom (facultatif)').inputValue()).toBe(source);
    expect(await dialog.getByLabel('Description (facultatif)').inputValue()).toBe(description);
    // Only the switch waits in the outbox; nothing of the source is on the device.
    expect(await pending(page).textContent()).toBe('1 modification en attente');
    expect(await rawKeys(page, 'outbox')).toHaveLength(1);
    const stored = (await readAllStorage(page)).text;
    for (const text of [source, description]) expect(stored).not.toContain(text);

    // The link is back: the switch goes first; the source, saved again from its form, reaches the server once.
    await page.context().setOffline(false);
    await expect.poll(() => pending(page).count()).toBe(0);
    expect(((await trpcQuery(page, 'signalements.get', { code })) as { isAnonyme: boolean }).isAnonyme).toBe(
      true,
    );
    expect(occurrences(await trpcQuery(page, 'sources.list', { signalement: code }), source)).toBe(0);
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(occurrences(await trpcQuery(page, 'sources.list', { signalement: code }), source)).toBe(1);
    expect(await rawKeys(page, 'outbox')).toEqual([]);
  }, 240_000);
});
