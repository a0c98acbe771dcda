import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '#server/db/seed/demo';
import { describeViolations, seriousViolations, settleAnimations } from './axe';
import { createReportByApi, useE2E } from './harness';
import { ADMIN, enrolTwoFactor, PASSWORD, signInByApi } from './sign-in';

const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };
/** A row of the list as the viewport shows it: a table row on a desktop, a card on a phone. */
const firstVisibleRow = (page: Page) =>
  page.locator('[data-testid="signalement-row"]:visible, [data-testid="signalement-card"]:visible').first();
export const VIEWPORTS = {
  desktop: { name: 'ordinateur', width: 1440, height: 900 },
  phone: { name: 'téléphone', width: 390, height: 844 },
} as const;

/**
 * axe-core finds no serious or critical violation on any screen or main dialog, on a desktop
 * (accessibility-desktop.e2e.ts) and on a phone (accessibility-phone.e2e.ts), for an administrator and
 * for a plain user. One file per viewport: together they were the longest browser test file (160 s),
 * which the two workers could not share.
 */
export function accessibilitySuite(viewport: (typeof VIEWPORTS)[keyof typeof VIEWPORTS]) {
  describe(`accessibility (${viewport.name})`, () => {
    const e = useE2E();
    let admin: Page;
    let code: string;
    beforeAll(async () => {
      await e.user('agent@example.mg', 'ROLE_USER', 'Rabe Agent');
      await seedDemo(e.running.ctx, { reports: 120, seed: 9 });
      admin = await e.newPage(viewport);
      await signInByApi(admin, ADMIN.email, ADMIN.password);
      code = await createReportByApi(admin, { partenaire: '/api/partenaires/SAMIFIN' });
      const people: Array<[string, object]> = [
        ['/api/presume_auteurs', { nomPrenom: 'Rakoto Auteur', fonction: 'Chef de service' }],
        ['/api/sources', { nomPrenom: 'Rasoa Source', contact: '034 12 345 67' }],
        ['/api/victimes', { nomPrenom: 'Rabe Victime' }],
      ];
      // A history long enough to scroll.
      for (let i = 1; i <= 25; i++) {
        const res = await admin.request.patch(`/api/signalements/${code}`, {
          headers: { ...SAME_ORIGIN, 'content-type': 'application/merge-patch+json' },
          data: JSON.stringify({ description: `Version ${i} de la description du signalement.` }),
        });
        expect(res.status()).toBe(200);
      }
      for (const [url, data] of people) {
        const res = await admin.request.post(url, {
          headers: SAME_ORIGIN,
          data: { ...data, signalement: `/api/signalements/${code}` },
        });
        expect(res.status(), `${url} ${await res.text()}`).toBe(201);
      }
    });

    async function expectAccessible(page: Page, what: string) {
      await settleAnimations(page);
      const violations = await seriousViolations(page);
      expect(violations, `${what} (${viewport.name}) :\n${describeViolations(violations)}`).toEqual([]);
    }

    /** Waits until the page has settled (no 'Chargement...' left). */
    async function settle(page: Page) {
      await expect.poll(() => page.getByText(/^Chargement/).count()).toBe(0);
    }

    it('log-in page and public summary (no session)', async () => {
      const page = await e.newPage(viewport);
      await page.goto('/admin/login');
      await page.getByRole('button', { name: /se connecter/i }).waitFor();
      await expectAccessible(page, 'connexion');
      await page.getByRole('button', { name: /se connecter/i }).click();
      await page.locator('#login-email-error').waitFor();
      await expectAccessible(page, 'connexion avec erreurs');
      await page.goto(`/admin/resume/${code}`);
      await page.getByTestId('resume-code').waitFor();
      await expectAccessible(page, 'résumé public');
    });

    it('second-factor enrolment and verification pages', async () => {
      const email = `admin-${viewport.width}@example.mg`;
      await e.user(email, 'ROLE_ADMIN', 'Rasoa Admin');
      const submit = async (page: Page) => {
        await page.goto('/admin/login');
        await page.getByLabel(/e-?mail/i).fill(email);
        await page.getByLabel(/mot de passe/i).fill(PASSWORD);
        await page.getByRole('button', { name: /se connecter/i }).click();
      };
      const first = await e.newPage(viewport);
      await submit(first);
      await first.getByTestId('two-factor-qr').waitFor();
      await expectAccessible(first, 'activation de la double authentification');
      await enrolTwoFactor(first, email);
      const second = await e.newPage(viewport);
      await submit(second);
      await second.getByLabel('Code de vérification').waitFor();
      await expectAccessible(second, 'code de vérification');
    });

    it('dashboard and period analysis', async () => {
      await admin.goto('/admin/dashboard');
      for (const id of [
        'per-day-block',
        'subject-block',
        'niveau-block',
        'resultat-block',
        'canal-block',
        'map-block',
      ]) {
        await admin.locator(`[data-testid="${id}"][data-state="ready"]`).waitFor({ timeout: 20_000 });
      }
      await expectAccessible(admin, 'tableau de bord');
      await admin.getByTestId('date-range-picker').getByRole('button').first().click();
      await expectAccessible(admin, 'sélecteur de dates');
      await admin.keyboard.press('Escape');
      await admin.goto('/admin/dashboard/analyse');
      await settle(admin);
      await admin.getByRole('heading', { name: 'Tableau de Bord' }).waitFor();
      await expect.poll(() => admin.locator('.apexcharts-svg').count()).toBeGreaterThan(0);
      await expectAccessible(admin, 'vue d’ensemble');
    });

    it('report list, its filters and the creation dialog', async () => {
      await admin.goto('/admin/signalement/list');
      await firstVisibleRow(admin).waitFor();
      await expectAccessible(admin, 'liste des signalements');
      await admin.getByTestId('create-button').click();
      const dialog = admin.getByTestId('create-dialog');
      await dialog.getByRole('heading', { name: 'Initialiser un nouveau signalement' }).waitFor();
      await dialog.getByRole('button', { name: 'Initialiser' }).click();
      await dialog.getByText('Le partenaire concerné est obligatoire.').waitFor();
      await expectAccessible(admin, 'création (erreurs)');
      await dialog.getByRole('button', { name: 'Objet(s) de la plainte' }).click();
      await expectAccessible(admin, 'création (liste des objets ouverte)');
      await admin.keyboard.press('Escape');
      await admin.keyboard.press('Escape');
    });

    it('report detail, its people dialogs, the mail and leave dialogs', async () => {
      await admin.goto(`/admin/signalement/detail/${code}`);
      await admin.getByTestId('person-item').first().waitFor();
      await settle(admin);
      await expect.poll(() => admin.getByTestId('historique-entry').count()).toBeGreaterThan(20);
      expect(
        await admin.getByTestId('historique-list').evaluate((l) => l.scrollHeight > l.clientHeight),
      ).toBe(true);
      await expectAccessible(admin, 'détail');
      await admin.getByTestId('sources-section').getByTestId('person-add').click();
      await admin.getByRole('dialog', { name: 'Ajouter une source' }).waitFor();
      await expectAccessible(admin, 'ajout d’une source');
      await admin.keyboard.press('Escape');
      await admin.getByTestId('person-delete').first().click();
      await admin.getByTestId('delete-dialog').getByRole('heading').waitFor();
      await expectAccessible(admin, 'suppression');
      await admin.getByTestId('delete-dialog').getByRole('button', { name: 'Annuler' }).click();
      await admin.getByRole('button', { name: /Autres actions/ }).click();
      await admin.getByRole('menuitem', { name: /Envoyer un email/ }).click();
      await admin
        .getByRole('dialog', { name: /Envoyer un email/ })
        .getByRole('button', { name: 'Envoyer' })
        .waitFor();
      await expectAccessible(admin, 'courriel au partenaire');
      await admin
        .getByRole('dialog', { name: /Envoyer un email/ })
        .getByRole('button', { name: 'Annuler' })
        .click();
      await admin.getByTestId('detail-description').fill('Brouillon');
      await admin.getByTestId('unsaved-banner').waitFor();
      await expectAccessible(admin, 'modifications non sauvegardées');
      await admin.getByTestId('breadcrumb').getByRole('link', { name: 'Signalements' }).click();
      await admin.getByTestId('leave-dialog').getByRole('button', { name: 'Annuler' }).waitFor();
      await expectAccessible(admin, 'quitter sans sauvegarder');
      await admin
        .getByTestId('leave-dialog')
        .getByRole('button', { name: 'Quitter sans sauvegarder' })
        .click();
      await admin.waitForURL('**/admin/signalement/list');
    });

    it('administration screens and their dialogs', async () => {
      await admin.goto('/admin/users');
      await admin.getByTestId('user-row').first().waitFor();
      await expectAccessible(admin, 'utilisateurs');
      await admin.getByRole('button', { name: 'Nouvel Utilisateur' }).click();
      await admin.getByRole('dialog').getByRole('textbox').first().waitFor();
      await expectAccessible(admin, 'nouvel utilisateur');
      await admin.keyboard.press('Escape');

      await admin.goto('/admin/partenaires');
      await admin.getByTestId('partenaire-row').first().waitFor();
      await expectAccessible(admin, 'partenaires');
      await admin.getByRole('button', { name: 'Nouveau Partenaire' }).click();
      await admin.getByRole('dialog').getByRole('textbox').first().waitFor();
      await expectAccessible(admin, 'nouveau partenaire');
      await admin.keyboard.press('Escape');

      await admin.goto('/admin/webhooks');
      await settle(admin);
      await admin.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
      await expectAccessible(admin, 'webhooks');
      await admin.getByRole('button', { name: 'Nouveau point de réception' }).click();
      await admin.getByRole('dialog').getByRole('textbox').first().waitFor();
      await expectAccessible(admin, 'nouveau point de réception');
      await admin.goto('/admin/acces-api');
      await settle(admin);
      await admin.getByRole('heading', { name: 'Accès API' }).waitFor();
      await expectAccessible(admin, 'accès API');
      await admin.getByRole('button', { name: 'Nouveau jeton' }).click();
      await admin.getByRole('dialog').getByRole('textbox').first().waitFor();
      await expectAccessible(admin, 'nouveau jeton');
      await admin.keyboard.press('Escape');

      await admin.goto('/admin/journal-acces');
      await settle(admin);
      await admin.getByRole('heading', { name: 'Journal des accès' }).waitFor();
      await expectAccessible(admin, 'journal des accès');

      await admin.goto('/admin/configuration');
      await settle(admin);
      await expectAccessible(admin, 'configuration');

      await admin.goto('/admin/page-inexistante');
      await admin.getByTestId('not-found').waitFor();
      await expectAccessible(admin, 'page introuvable');

      if (viewport.width < 768) {
        await admin
          .getByRole('button', { name: /menu|barre latérale/i })
          .first()
          .click();
        await admin.getByTestId('sidebar-sheet').getByRole('link', { name: 'Tableau de bord' }).waitFor();
        await expectAccessible(admin, 'menu latéral (téléphone)');
        await admin.keyboard.press('Escape');
      }
    });

    it('a plain user’s list and read-only detail', async () => {
      const user = await e.newPage(viewport);
      await signInByApi(user, 'agent@example.mg', PASSWORD);
      await user.goto(`/admin/signalement/detail/${code}`);
      await user.getByTestId('read-only-note').waitFor();
      await settle(user);
      await expectAccessible(user, 'détail en lecture seule');
      await user.goto('/admin/signalement/list');
      await firstVisibleRow(user).waitFor();
      await expectAccessible(user, 'liste (utilisateur)');
    });
  });
}
