import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from './axe';
import { createReportByApi, toast, useE2E } from './harness';
import { PASSWORD, signInByApi } from './sign-in';

const VIEWPORTS = [
  { name: 'ordinateur', width: 1440, height: 900 },
  { name: 'téléphone', width: 390, height: 844 },
] as const;

/**
 * « Notes internes » (docs/decisions/0029-internal-notes.md): the report's creator adds a note, edits it and
 * deletes it after confirming, on a desktop and on a phone; the text keeps its line breaks and shows as
 * text, never as HTML; another user reads it without any button; axe finds nothing serious.
 */
describe.each(VIEWPORTS)('internal notes on the detail screen ($name)', (viewport) => {
  const e = useE2E();
  let creator: Page;
  let code: string;
  beforeAll(async () => {
    await e.user('createur@example.mg', 'ROLE_USER', 'Rabe Createur');
    await e.user('autre@example.mg', 'ROLE_USER', 'Rakoto Autre');
    creator = await e.newPage(viewport);
    await signInByApi(creator, 'createur@example.mg', PASSWORD);
    code = await createReportByApi(creator);
  });

  async function expectAccessible(page: Page, what: string) {
    const violations = await seriousViolations(page);
    expect(violations, `${what} (${viewport.name}) :\n${describeViolations(violations)}`).toEqual([]);
  }

  it('adds, edits and deletes a note; another user reads it without buttons', async () => {
    await creator.goto(`/admin/signalement/detail/${code}`);
    const card = creator.getByTestId('notes-card');
    await card.getByText('Aucune note interne.').waitFor();

    // An empty note is refused under the field, in French.
    await card.getByRole('button', { name: 'Ajouter la note' }).click();
    await expect.poll(() => card.getByText('La note ne peut pas être vide.').isVisible()).toBe(true);

    const texte = 'Appel du témoin :\n<b>rendez-vous</b> lundi';
    await card.getByLabel('Nouvelle note').fill(texte);
    await card.getByRole('button', { name: 'Ajouter la note' }).click();
    await expect.poll(() => toast(creator, 'Note ajoutée.').count()).toBe(1);
    const item = card.getByTestId('note-item');
    await expect.poll(() => item.count()).toBe(1);
    // Text, not HTML; its line break kept and shown (pre-wrap).
    expect(await item.getByTestId('note-text').textContent()).toBe(texte);
    expect(await item.locator('b').count()).toBe(0);
    expect(await item.getByTestId('note-text').evaluate((el) => getComputedStyle(el).whiteSpace)).toBe(
      'pre-wrap',
    );
    expect(await item.textContent()).toContain('Rabe Createur');
    expect(await card.getByLabel('Nouvelle note').inputValue()).toBe('');
    // The history says a note was added, without its text.
    const history = creator.getByTestId('historique-panel');
    await expect.poll(() => history.textContent()).toContain('Note interne ajoutée');
    expect(await history.textContent()).not.toContain('rendez-vous');
    await expectAccessible(creator, 'carte des notes');

    // Edit in place.
    await item.getByRole('button', { name: 'Modifier la note' }).click();
    const editor = item.getByLabel('Texte de la note');
    await editor.fill('Appel du témoin :\nrendez-vous mardi');
    await expectAccessible(creator, 'note en modification');
    await item.getByRole('button', { name: 'Enregistrer' }).click();
    await expect.poll(() => toast(creator, 'Note modifiée.').count()).toBe(1);
    await expect
      .poll(() => item.getByTestId('note-text').textContent())
      .toBe('Appel du témoin :\nrendez-vous mardi');
    expect(await item.textContent()).toContain('(modifiée)');

    // Another user reads it, and has no button to change it or add one.
    const other = await e.newPage(viewport);
    await signInByApi(other, 'autre@example.mg', PASSWORD);
    await other.goto(`/admin/signalement/detail/${code}`);
    const otherCard = other.getByTestId('notes-card');
    await expect.poll(() => otherCard.getByTestId('note-text').textContent()).toContain('rendez-vous mardi');
    expect(await otherCard.getByTestId('note-edit').count()).toBe(0);
    expect(await otherCard.getByTestId('note-delete').count()).toBe(0);
    expect(await otherCard.getByTestId('note-form').count()).toBe(0);
    await other.close();

    // Delete, after confirming.
    await item.getByRole('button', { name: 'Supprimer la note' }).click();
    const dialog = creator.getByTestId('note-delete-dialog');
    await dialog.getByRole('heading', { name: 'Supprimer cette note ?' }).waitFor();
    await expectAccessible(creator, 'confirmation de suppression');
    await dialog.getByRole('button', { name: 'Supprimer' }).click();
    await expect.poll(() => toast(creator, 'Note supprimée.').count()).toBe(1);
    await expect.poll(() => card.getByTestId('note-item').count()).toBe(0);
    await expect.poll(() => history.textContent()).toContain('Note interne supprimée');

    // A long note without spaces still fits the width (measured on a fresh load: a toast slides out sideways).
    const long = await creator.request.post(`/api/signalements/${code}/notes`, {
      headers: { 'sec-fetch-site': 'same-origin' },
      data: { texte: `Référence:${'X'.repeat(300)}` },
    });
    expect(long.status()).toBe(201);
    await creator.reload();
    await creator.getByTestId('notes-card').getByTestId('note-item').waitFor();
    const sideways = await creator.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(sideways).toBeLessThanOrEqual(0);
  });
});
