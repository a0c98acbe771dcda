import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { businessDay, DEFAULT_BUSINESS_TIME_ZONE } from '#shared/calendar';
import { createReportByApi, toast, useE2E } from './harness';
import { ADMIN, PASSWORD, signInByApi } from './sign-in';

/** Creates a report through the creation dialog and returns its code, read from the detail URL. */
async function createThroughDialog(page: Page): Promise<string> {
  await page.goto('/admin/signalement/list');
  await page.getByTestId('create-button').click();
  const dialog = page.getByTestId('create-dialog');
  await dialog.getByRole('heading', { name: 'Initialiser un nouveau signalement' }).waitFor();

  // §5: every required field says so in French.
  await dialog.getByRole('button', { name: 'Initialiser' }).click();
  for (const message of [
    'Le partenaire concerné est obligatoire.',
    'Au moins un objet de plainte est obligatoire.',
    'Le canal de réception principal est obligatoire.',
  ]) {
    await expect.poll(() => dialog.getByText(message).isVisible()).toBe(true);
  }

  await dialog.getByRole('button', { name: 'Partenaire concerné' }).click();
  await dialog.getByRole('option', { name: /Ivorary/ }).click();
  await dialog.getByRole('button', { name: 'Objet(s) de la plainte' }).click();
  await dialog.getByRole('checkbox', { name: 'Corruption' }).check();
  expect(await dialog.getByLabel("Précisez l'objet (Autre)").count()).toBe(0);
  await dialog.getByRole('checkbox', { name: 'Autre (à préciser)' }).check();
  await dialog.getByRole('heading').click(); // closes the picker
  await dialog.getByLabel('Canal de réception principal').selectOption('TELEPHONE');

  // The OTHERS description appears only with OTHERS, and is then required.
  await dialog.getByRole('button', { name: 'Initialiser' }).click();
  await expect
    .poll(() => dialog.getByText("La description pour 'Autre' est obligatoire.").isVisible())
    .toBe(true);
  await dialog
    .getByLabel("Précisez l'objet (Autre)")
    .fill('Marché de fournitures scolaires attribué sans appel d’offres');

  // The date may be neither in the future nor before 1900.
  // Typed as dd/MM/yyyy whatever the browser's language (§9).
  const date = dialog.getByLabel('Date de signalement');
  expect(await date.getAttribute('placeholder')).toBe('jj/mm/aaaa');
  await date.fill('31/12/1899');
  await dialog.getByRole('button', { name: 'Initialiser' }).click();
  await expect
    .poll(() => dialog.getByText('La date ne peut pas être antérieure au 01/01/1900.').isVisible())
    .toBe(true);
  await date.fill(`01/01/${Number(businessDay(new Date(), DEFAULT_BUSINESS_TIME_ZONE).slice(0, 4)) + 1}`);
  await dialog.getByRole('button', { name: 'Initialiser' }).click();
  await expect.poll(() => dialog.getByText('La date ne peut pas être dans le futur.').isVisible()).toBe(true);
  await date.fill('31/02/2024');
  await dialog.getByRole('button', { name: 'Initialiser' }).click();
  await expect.poll(() => dialog.getByText('Date invalide.').isVisible()).toBe(true);
  await date.fill('05/03/2024');

  await dialog.getByRole('button', { name: 'Initialiser' }).click();
  await page.waitForURL('**/admin/signalement/detail/**');
  await expect.poll(() => toast(page, 'Signalement initialisé avec succès !').count()).toBe(1);
  return decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
}

/**
 * The detail screen in a real browser. Each test works on a report of its own (created in the dialog by the
 * first, through the API by the others, partner Ivorary), so any one of them runs alone or in any order.
 */
describe('report detail in a real browser', () => {
  const e = useE2E();
  let admin: Page;
  beforeAll(async () => {
    await e.user('agent@example.mg', 'ROLE_USER', 'Rabe Hery');
    admin = await e.newPage();
    // Through the REST log-in: the login form would land on the dashboard, whose charts and map are not
    // what these tests look at.
    await signInByApi(admin, ADMIN.email, ADMIN.password);
  });

  it('creates a report through the dialog and opens its detail with every element of §2', async () => {
    const code = await createThroughDialog(admin);
    expect(await admin.getByTestId('signalement-code').textContent()).toBe(code);
    expect(await admin.getByTestId('breadcrumb').textContent()).toContain(`Détail (${code})`);
    expect(await admin.getByTestId('partner-badge').textContent()).toBe('Ivorary');
    expect(await admin.getByTestId('badge-Canal principal').textContent()).toContain('Téléphone');
    expect(await admin.getByTestId('badge-Statut').textContent()).toContain('non renseigné');
    expect(await admin.getByTestId('badge-Niveau').textContent()).toContain('non renseigné');
    expect(await admin.getByTestId('badge-Résultat').textContent()).toContain('non renseigné');
    expect(await admin.getByTestId('badge-État').textContent()).toContain('En cours de traitement');
    expect(await admin.getByTestId('close-at').textContent()).toBe('Non fermé');
    expect(await admin.getByTestId('is-treated').textContent()).toBe('Non');
    expect(await admin.getByTestId('is-treated').getAttribute('data-tone')).toBe('gray');
    const badges = await admin.getByTestId('subject-badges').textContent();
    expect(badges).toContain('Corruption');
    expect(badges).toContain(
      `Autre : ${'Marché de fournitures scolaires attribué sans appel d’offres'.slice(0, 50)}…`,
    );
    expect(await admin.getByTestId('read-only-note').count()).toBe(0);
    await expect
      .poll(() => admin.getByTestId('historique-entry').first().textContent())
      .toContain('Création du signalement');
  });

  it('edits and saves: the banner appears, the toast confirms, the page reloads clean and the history grows', async () => {
    const code = await createReportByApi(admin);
    await admin.goto(`/admin/signalement/detail/${code}`);
    await admin.getByTestId('detail-description').fill('Des fournitures ont été payées mais jamais livrées.');
    await admin.getByTestId('detail-statut').selectOption({ label: 'Traité' });
    const actions = admin.getByTestId('actions-provisoires');
    await actions.getByRole('textbox').fill('   ');
    await actions.getByRole('textbox').press('Enter');
    expect(await actions.getByTestId('list-entry').count()).toBe(0);
    await actions.getByRole('textbox').fill('Convocation du chef de service');
    await actions.getByRole('textbox').press('Enter');
    expect(await actions.getByTestId('list-entry').count()).toBe(1);

    await admin.getByTestId('unsaved-banner').waitFor();
    expect(await admin.getByTestId('unsaved-banner').textContent()).toContain(
      'Modifications non sauvegardées',
    );
    await admin.getByTestId('save-button').click();
    await expect.poll(() => toast(admin, 'Signalement mis à jour avec succès !').count()).toBe(1);
    await expect.poll(() => admin.getByTestId('unsaved-banner').count()).toBe(0);
    expect(await admin.getByTestId('save-button').isDisabled()).toBe(true);
    await expect.poll(() => admin.getByTestId('badge-Statut').textContent()).toContain('Traité');
    await expect.poll(() => admin.getByTestId('badge-État').textContent()).toContain('Traité');
    expect(await admin.getByTestId('is-treated').getAttribute('data-tone')).toBe('green');
    await expect
      .poll(() => admin.getByTestId('historique-entry').first().textContent())
      .toContain('Modification du signalement');

    await admin.reload();
    expect(await admin.getByTestId('detail-description').inputValue()).toBe(
      'Des fournitures ont été payées mais jamais livrées.',
    );
    expect(await admin.getByTestId('actions-provisoires').getByTestId('list-entry').textContent()).toBe(
      'Convocation du chef de service',
    );
  });

  it('adds an author (name required), then deletes it after the confirmation', async () => {
    const code = await createReportByApi(admin);
    await admin.goto(`/admin/signalement/detail/${code}`);
    const section = admin.getByTestId('auteurs-section');
    await section.getByTestId('person-add').click();
    const dialog = admin.getByTestId('auteur-dialog');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect.poll(() => dialog.getByText('Le nom est requis.').isVisible()).toBe(true);
    await dialog.getByLabel('Nom et prénom').fill('Rakoto Jean');
    await dialog.getByLabel('Fonction (facultatif)').fill('Chef de service');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect.poll(() => toast(admin, 'Auteur ajouté.').count()).toBe(1);
    await expect.poll(() => section.getByTestId('person-item').textContent()).toContain('Rakoto Jean');

    await section.getByTestId('person-delete').click();
    const confirm = section.getByTestId('delete-dialog');
    expect(await confirm.textContent()).toContain('Êtes-vous sûr ?');
    expect(await confirm.textContent()).toContain('Cette action est irréversible.');
    await confirm.getByRole('button', { name: 'Annuler' }).click();
    expect(await section.getByTestId('person-item').count()).toBe(1);
    await section.getByTestId('person-delete').click();
    await confirm.getByRole('button', { name: 'Supprimer' }).click();
    await expect.poll(() => toast(admin, 'Auteur supprimé.').count()).toBe(1);
    await expect.poll(() => section.getByTestId('person-item').count()).toBe(0);
    await expect
      .poll(() => admin.getByTestId('historique-entry').first().textContent())
      .toContain('Auteur supprimé');
  });

  it('hides the sources while anonymous, saving the switch at once', async () => {
    const code = await createReportByApi(admin);
    await admin.goto(`/admin/signalement/detail/${code}`);
    const section = admin.getByTestId('sources-section');
    await section.getByTestId('person-add').waitFor();
    // The switch saves at once and reflects the server's answer, so it flips after the request:
    // click, then wait for the state, rather than check() which expects an immediate change.
    await admin.getByTestId('anonymous-switch').click();
    await expect.poll(() => toast(admin, 'Signalement marqué comme anonyme.').count()).toBe(1);
    await expect.poll(() => admin.getByTestId('anonymous-switch').isChecked()).toBe(true);
    await expect.poll(() => section.getByTestId('sources-hidden').isVisible()).toBe(true);
    expect(await section.getByTestId('person-add').count()).toBe(0);
    await admin.reload();
    await expect.poll(() => admin.getByTestId('anonymous-switch').isChecked()).toBe(true);
    await admin.getByTestId('anonymous-switch').click();
    await expect.poll(() => toast(admin, 'Signalement marqué comme non anonyme.').count()).toBe(1);
    await expect.poll(() => admin.getByTestId('anonymous-switch').isChecked()).toBe(false);
    await expect.poll(() => section.getByTestId('person-add').isVisible()).toBe(true);
  });

  it('asks before leaving through the breadcrumb with unsaved changes; the banner can be dismissed', async () => {
    const code = await createReportByApi(admin);
    await admin.goto(`/admin/signalement/detail/${code}`);
    await admin.getByTestId('detail-description').fill('Brouillon non enregistré');
    const banner = admin.getByTestId('unsaved-banner');
    await banner.waitFor();
    await banner.getByTestId('unsaved-dismiss').click();
    expect(await banner.count()).toBe(0);

    await admin.getByTestId('breadcrumb').getByRole('link', { name: 'Signalements' }).click();
    const leave = admin.getByTestId('leave-dialog');
    await expect.poll(() => leave.isVisible()).toBe(true);
    await leave.getByRole('button', { name: 'Annuler' }).click();
    expect(new URL(admin.url()).pathname).toBe(`/admin/signalement/detail/${code}`);
    expect(await admin.getByTestId('detail-description').inputValue()).toBe('Brouillon non enregistré');

    // The browser's own unload warning is armed too.
    const dialogs: string[] = [];
    admin.once('dialog', (d) => {
      dialogs.push(d.type());
      void d.dismiss();
    });
    await admin.reload({ timeout: 2000 }).catch(() => undefined);
    expect(dialogs).toEqual(['beforeunload']);

    await admin.getByTestId('breadcrumb').getByRole('link', { name: 'Signalements' }).click();
    await leave.getByRole('button', { name: 'Quitter sans sauvegarder' }).click();
    await admin.waitForURL('**/admin/signalement/list');
  });

  it('shows a ROLE_USER who did not create the report the read-only views', async () => {
    const code = await createReportByApi(admin);
    const res = await admin.request.patch(`/api/signalements/${code}`, {
      headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/merge-patch+json' },
      data: JSON.stringify({ description: 'Des fournitures ont été payées mais jamais livrées.' }),
    });
    expect(res.status(), await res.text()).toBe(200);
    const user = await e.newPage();
    await signInByApi(user, 'agent@example.mg', PASSWORD);
    await user.goto(`/admin/signalement/detail/${code}`);
    await user.getByTestId('read-only-note').waitFor();
    expect(await user.getByTestId('read-only-note').textContent()).toBe(
      'Lecture seule - Vous ne pouvez pas modifier ce signalement',
    );
    expect(await user.getByTestId('save-button').count()).toBe(0);
    expect(await user.getByTestId('person-add').count()).toBe(0);
    expect(await user.getByTestId('person-edit').count()).toBe(0);
    expect(await user.getByTestId('person-delete').count()).toBe(0);
    expect(await user.getByTestId('detail-description').count()).toBe(0);
    expect(await user.getByTestId('location-save').count()).toBe(0);
    expect(await user.getByTestId('anonymous-switch').count()).toBe(0);
    expect(await user.getByTestId('anonymous-value').textContent()).toContain('Non');
    expect(await user.getByTestId('general-card').textContent()).toContain('Des fournitures ont été payées');
    // The location card loads the geography after the page: wait for its answer, not for the first paint.
    await user.getByTestId('location-card').getByText('Non renseigné').first().waitFor();
    expect(await user.getByTestId('location-card').textContent()).toContain('Non renseigné');
  });

  it('edits the location with the cascading clears of §4 and saves it', async () => {
    const code = await createReportByApi(admin);
    await admin.goto(`/admin/signalement/detail/${code}`);
    const card = admin.getByTestId('location-card');
    const region = card.getByRole('button', { name: /^Région/ });
    const district = card.getByRole('button', { name: /^District/ });
    const commune = card.getByRole('button', { name: /^Commune/ });
    await region.waitFor();
    expect(await district.isDisabled()).toBe(true);
    expect(await commune.isDisabled()).toBe(true);

    await region.click();
    await card.getByRole('option').first().click();
    await expect.poll(() => district.isDisabled()).toBe(false);
    expect(await commune.isDisabled()).toBe(true);
    await district.click();
    await card.getByRole('option').first().click();
    await expect.poll(() => commune.isDisabled()).toBe(false);
    await commune.click();
    await card.getByRole('option').first().click();
    const chosenCommune = await commune.textContent();

    // A new region clears district and commune.
    await region.click();
    await card.getByRole('option').nth(1).click();
    await expect.poll(() => district.textContent()).toBe('Sélectionner un district');
    expect(await commune.textContent()).toBe("Choisissez d'abord un district");
    expect(await commune.isDisabled()).toBe(true);

    await district.click();
    await card.getByRole('option').first().click();
    await commune.click();
    await card.getByRole('option').first().click();
    await card.getByLabel('Fokontany').fill('Ambohijatovo');
    await admin.getByTestId('unsaved-banner').waitFor();
    await card.getByTestId('location-save').click();
    await expect.poll(() => toast(admin, 'Localisation mise à jour.').count()).toBe(1);
    await expect.poll(() => admin.getByTestId('unsaved-banner').count()).toBe(0);
    const saved = await commune.textContent();
    expect(saved).not.toBe(chosenCommune);
    await admin.reload();
    await expect
      .poll(() =>
        admin
          .getByTestId('location-card')
          .getByRole('button', { name: /^Commune/ })
          .textContent(),
      )
      .toBe(saved);
  });

  it("creates the partner's first project from the classification panel and links it", async () => {
    const code = await createReportByApi(admin);
    await admin.goto(`/admin/signalement/detail/${code}`);
    const field = admin.getByTestId('projects-field');
    await expect.poll(() => field.textContent()).toContain('Aucun projet trouvé.');
    await field.getByRole('button', { name: 'Créer le premier projet' }).click();
    const dialog = admin.getByTestId('project-dialog');
    await dialog.getByRole('button', { name: 'Créer le projet' }).click();
    await expect.poll(() => dialog.getByText('Le sigle est obligatoire.').isVisible()).toBe(true);
    expect(await dialog.getByText('La désignation doit contenir au moins 2 caractères.').isVisible()).toBe(
      true,
    );
    await dialog.getByLabel('Sigle').fill('PASSE');
    await dialog.getByLabel('Désignation').fill('Programme d’appui aux services scolaires');
    await dialog.getByRole('button', { name: 'Créer le projet' }).click();
    await expect
      .poll(() =>
        toast(admin, 'Le projet "Programme d’appui aux services scolaires" a été créé avec succès.').count(),
      )
      .toBe(1);
    await expect.poll(() => field.getByTestId('project-avatars').textContent()).toContain('PAS');
    await admin.getByTestId('unsaved-save').click();
    await expect.poll(() => toast(admin, 'Signalement mis à jour avec succès !').count()).toBeGreaterThan(0);
    await expect.poll(() => admin.getByTestId('unsaved-banner').count()).toBe(0);
  });

  it('sends an e-mail to the partner from the default content, checked as §5', async () => {
    const code = await createReportByApi(admin);
    await admin.goto(`/admin/signalement/detail/${code}`);
    await admin.getByTestId('other-actions').click();
    await admin.getByRole('menuitem', { name: 'Envoyer un email à Ivorary' }).click();
    const dialog = admin.getByTestId('mail-dialog');
    const content = dialog.getByLabel('Message');
    await expect.poll(() => content.inputValue()).toContain(code);
    await dialog.getByLabel('Adresse email du destinataire').fill('pas-une-adresse');
    await content.fill('Trop court');
    await content.fill('court');
    await dialog.getByRole('button', { name: 'Envoyer' }).click();
    await expect
      .poll(() => dialog.getByText('Veuillez saisir une adresse email valide.').isVisible())
      .toBe(true);
    expect(
      await dialog.getByText('Le contenu du message doit contenir au moins 10 caractères.').isVisible(),
    ).toBe(true);
    await dialog.getByLabel('Adresse email du destinataire').fill('contact@ivorary.mg');
    await content.fill('Bonjour, un signalement vous concerne. Merci de nous répondre.');
    await dialog.getByRole('button', { name: 'Envoyer' }).click();
    await expect
      .poll(() => toast(admin, 'Email envoyé avec succès !').textContent())
      .toContain('contact@ivorary.mg');
    await expect.poll(() => dialog.isVisible()).toBe(false);
  });

  it("says 'Signalement non trouvé.' for an unknown code", async () => {
    e.allowConsoleErrors(/status of 404/);
    await admin.goto('/admin/signalement/detail/SIG-INCONNU');
    await expect.poll(() => admin.getByTestId('not-found').textContent()).toBe('Signalement non trouvé.');
  });
});
