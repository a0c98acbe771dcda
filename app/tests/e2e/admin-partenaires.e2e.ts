import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { toast, useE2E } from './harness';
import { ADMIN, loginAs } from './sign-in';

const LINKED = 'Ce partenaire ne peut pas être supprimé car il est lié à des projets ou des signalements.';

describe('partner administration in a real browser', () => {
  const e = useE2E();
  beforeAll(async () => {
    await e.user('agent@example.mg', 'ROLE_USER', 'Rabe Hery');
  });

  const row = (page: Page, code: string) =>
    page.locator(`[data-testid="partenaire-row"][data-code="${code}"]`);
  async function openPartners(page: Page) {
    await loginAs(page, ADMIN.email, ADMIN.password);
    await page.getByTestId('admin-group').getByRole('link', { name: 'Partenaires' }).click();
    await page.getByTestId('partenaires-table').waitFor();
  }

  it('creates a partner: French validation, nine-digit phone behind +261 (a wrong paste refused, not cut), generated code and badge', async () => {
    const page = await e.newPage();
    await openPartners(page);
    await page.getByRole('button', { name: 'Nouveau Partenaire' }).click();
    const dialog = page.getByTestId('partenaire-form-dialog');
    const phone = dialog.locator('#partenaire-phone');
    await dialog.getByLabel('Désignation').fill('M');
    await dialog.getByLabel('Email', { exact: true }).fill('pas-un-email');
    await phone.pressSequentially('34-12 34');
    await dialog.getByRole('button', { name: 'Créer' }).click();
    await expect
      .poll(() => dialog.getByText('La désignation doit contenir au moins 2 caractères.').isVisible())
      .toBe(true);
    expect(await dialog.getByText("L'adresse email n'est pas valide.").isVisible()).toBe(true);
    expect(
      await dialog.getByText('Le numéro de téléphone doit contenir exactement 9 chiffres.').isVisible(),
    ).toBe(true);
    // Non-digits are dropped while typing.
    expect(await phone.inputValue()).toBe('341234');
    // Back in the field after the submit moved the focus, at the end of what was typed.
    await phone.click();
    await phone.press('End');
    await phone.pressSequentially('5a67');
    expect(await phone.inputValue()).toBe('341234567');
    expect(await dialog.getByText('+261', { exact: true }).isVisible()).toBe(true);
    const phoneError = dialog.getByText('Le numéro de téléphone doit contenir exactement 9 chiffres.');
    await expect.poll(() => phoneError.count()).toBe(0);
    // A pasted number that is not a whole one is refused, never cut to nine digits and accepted.
    await phone.fill('+261 34 12-345');
    expect(await phone.inputValue()).toBe('3412345');
    await expect.poll(() => phoneError.isVisible()).toBe(true);
    await phone.fill('34123456789');
    expect(await phone.inputValue()).toBe('34123456789');
    await expect.poll(() => phoneError.isVisible()).toBe(true);
    // A whole number, written with its prefix and separators, becomes its nine digits.
    await phone.fill('+261 (34) 12-345-67');
    expect(await phone.inputValue()).toBe('341234567');
    await expect.poll(() => phoneError.count()).toBe(0);

    await dialog.getByLabel('Désignation').fill('Ministère de la Justice');
    await dialog.getByLabel('Email', { exact: true }).fill('greffe@justice.mg');
    await dialog.getByRole('button', { name: 'Créer' }).click();
    await toast(page, 'Partenaire créé avec succès !').waitFor();
    const created = row(page, 'MINJUS');
    await created.waitFor();
    expect(await created.getByTestId('partner-code').textContent()).toBe('MINJUS');
    expect(await created.getByText('MJ', { exact: true }).count()).toBe(1);
    expect(await created.getByTestId('partenaire-phone').textContent()).toBe('+261 34 12 345 67');
    expect(await created.getByTestId('partenaire-projects').textContent()).toBe('0');
    expect(await created.getByTestId('partenaire-signalements').textContent()).toBe('0');
    const [stored] = await e.running.db.read
      .select()
      .from(e.running.db.t.partenaires)
      .where(eq(e.running.db.t.partenaires.code, 'MINJUS'));
    expect(stored).toMatchObject({ phoneNumber: '+261341234567', initial: 'MJ' });
  });

  it('edits a partner, shows - without phone, and deletes one after confirmation', async () => {
    const page = await e.newPage();
    await openPartners(page);
    await row(page, 'MINJUS')
      .getByRole('button', { name: /^Modifier/ })
      .click();
    const dialog = page.getByTestId('partenaire-form-dialog');
    expect(await dialog.locator('#partenaire-phone').inputValue()).toBe('341234567');
    await dialog.getByLabel('Désignation').fill('Ministère de la Justice et des Libertés');
    await dialog.locator('#partenaire-phone').fill('');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await toast(page, 'Partenaire mis à jour avec succès !').waitFor();
    await expect
      .poll(() => row(page, 'MINJUS').getByText('Ministère de la Justice et des Libertés').isVisible())
      .toBe(true);
    expect(await row(page, 'MINJUS').getByTestId('partenaire-phone').textContent()).toBe('-');

    await row(page, 'MINJUS')
      .getByRole('button', { name: /^Supprimer/ })
      .click();
    const confirm = page.getByTestId('partenaire-delete-dialog');
    await expect
      .poll(() => confirm.getByText('Êtes-vous sûr de vouloir supprimer ce partenaire ?').isVisible())
      .toBe(true);
    expect(
      await confirm
        .getByText('Cette action est irréversible. Le partenaire sera définitivement supprimé.')
        .isVisible(),
    ).toBe(true);
    await confirm.getByRole('button', { name: 'Annuler' }).click();
    expect(await row(page, 'MINJUS').count()).toBe(1);
    await row(page, 'MINJUS')
      .getByRole('button', { name: /^Supprimer/ })
      .click();
    await confirm.getByRole('button', { name: 'Supprimer' }).click();
    await toast(page, 'Le partenaire a été supprimé avec succès.').waitFor();
    await expect.poll(() => row(page, 'MINJUS').count()).toBe(0);
  });

  it('disables delete, with its tooltip, for a partner with projects or reports and for Ivorary', async () => {
    const db = e.running.db;
    const [agent] = await db.read
      .select()
      .from(db.t.utilisateurs)
      .where(eq(db.t.utilisateurs.email, 'agent@example.mg'));
    await db.transaction(async (tx) => {
      const [withProject] = await tx
        .insert(db.t.partenaires)
        .values({
          code: 'BIANCO',
          designation: 'Bureau Indépendant Anti-Corruption',
          initial: 'BI',
          color: '#dc2626',
          email: 'b@bianco.mg',
        })
        .returning();
      const [withReport] = await tx
        .insert(db.t.partenaires)
        .values({
          code: 'CSI',
          designation: "Comité pour la Sauvegarde de l'Intégrité",
          initial: 'CS',
          color: '#059669',
        })
        .returning();
      await tx
        .insert(db.t.projects)
        .values({ code: 'PRJ-1', sigle: 'P1', designation: 'Projet', ownerId: withProject!.id });
      await tx.insert(db.t.signalements).values({
        code: 'SIG-0000-0001',
        signalementAt: new Date(),
        createdById: agent!.id,
        partenaireId: withReport!.id,
      });
    });
    const page = await e.newPage();
    await openPartners(page);
    for (const [code, projects, reports] of [
      ['BIANCO', '1', '0'],
      ['CSI', '0', '1'],
    ] as const) {
      const linked = row(page, code);
      await linked.waitFor();
      expect(await linked.getByTestId('partenaire-projects').textContent()).toBe(projects);
      expect(await linked.getByTestId('partenaire-signalements').textContent()).toBe(reports);
      expect(await linked.getByRole('button', { name: /^Supprimer/ }).isDisabled()).toBe(true);
      expect(await linked.getByTestId('partenaire-delete-wrapper').getAttribute('data-tip')).toBe(LINKED);
    }
    expect(await row(page, 'CSI').getByTestId('partenaire-phone').textContent()).toBe('-');
    await row(page, 'BIANCO').getByTestId('partenaire-delete-wrapper').hover();
    // daisyUI draws the tooltip from data-tip: it is visible once hovered.
    await expect
      .poll(() =>
        row(page, 'BIANCO')
          .getByTestId('partenaire-delete-wrapper')
          .evaluate((el) => getComputedStyle(el, '::before').opacity),
      )
      .toBe('1');
    expect(
      await row(page, 'IVY')
        .getByRole('button', { name: /^Supprimer/ })
        .isDisabled(),
    ).toBe(true);
  });

  it('searches name, code and e-mail after a pause, ignoring accents and case, pages by 10 and shows the empty state', async () => {
    await e.running.db.transaction((tx) =>
      tx.insert(e.running.db.t.partenaires).values(
        Array.from({ length: 12 }, (_, i) => ({
          code: `ZETA${i}`,
          designation: `Zeta Partenaire ${String(i).padStart(2, '0')}`,
          initial: 'ZP',
          color: '#475569',
          email: `contact${i}@zeta.mg`,
        })),
      ),
    );
    await e.running.db.transaction((tx) =>
      tx.insert(e.running.db.t.partenaires).values({
        code: 'OBSINT',
        designation: 'Observatoire de l\u2019Intégrité',
        initial: 'OI',
        color: '#475569',
      }),
    );
    const page = await e.newPage();
    await openPartners(page);
    const search = page.getByTestId('partenaires-search');
    await search.fill('zeta');
    await expect.poll(() => page.getByTestId('pagination-total').textContent()).toBe('Total: 12 élément(s)');
    expect(await page.getByTestId('partenaire-row').count()).toBe(10);
    await page.getByRole('button', { name: 'Page 2' }).click();
    await expect.poll(() => page.getByTestId('partenaire-row').count()).toBe(2);
    expect(await page.getByTestId('pagination-page').textContent()).toBe('Page 2 sur 2');
    await search.fill('contact11@');
    await expect.poll(() => page.getByTestId('partenaire-row').count()).toBe(1);
    expect(await row(page, 'ZETA11').count()).toBe(1);
    await search.fill('bianco');
    await expect.poll(() => page.getByTestId('partenaire-row').count()).toBe(1);
    // Accents and case do not matter, as in the report search.
    await search.fill("OBSERVATOIRE DE L'INTEGRITE");
    await row(page, 'OBSINT').waitFor();
    expect(await page.getByTestId('partenaire-row').count()).toBe(1);
    await search.fill('aucun partenaire de ce nom');
    await expect
      .poll(() => page.getByTestId('partenaires-empty').textContent())
      .toBe('Aucun partenaire trouvé.');
  });
});
