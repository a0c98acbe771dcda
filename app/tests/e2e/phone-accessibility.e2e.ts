import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations, settleAnimations } from './axe';
import { createReportByApi, toast, useE2E } from './harness';
import { ADMIN, PASSWORD } from './sign-in';

/** The narrowest phone the screens are made for. */
const PHONE = { width: 375, height: 812 };
const AGENT = { email: 'agent@example.mg', password: PASSWORD };
const PDF = Buffer.from('%PDF-1.4\n%Pièce jointe du test\n1 0 obj\n<< /Type /Catalog >>\nendobj\n');

/**
 * axe-core finds no serious or critical violation on a 375 px phone on the Configuration screen's sections
 * (« Délais de traitement » as an administrator's form, with an error under a field, and read-only for other
 * staff; « Rappels quotidiens » and its switch) and on the detail's « Pièces jointes » card (empty, with a
 * file and its full hash, and its delete confirmation), and none of them scrolls sideways.
 */
describe('accessibility on a 375 px phone: Configuration and « Pièces jointes »', () => {
  const e = useE2E({}, { closeTestPages: true });

  beforeAll(async () => {
    await e.user(AGENT.email, 'ROLE_USER', 'Rabe Agent');
  });

  async function expectAccessible(page: Page, what: string) {
    // Nothing wider than the phone either (a long hash, a table of deadlines).
    const [scrollWidth, clientWidth] = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      document.documentElement.clientWidth,
    ]);
    expect(scrollWidth, `${what} : défilement horizontal`).toBeLessThanOrEqual(clientWidth!);
    await settleAnimations(page);
    const violations = await seriousViolations(page);
    expect(violations, `${what} (375 px) :\n${describeViolations(violations)}`).toEqual([]);
  }

  it('Configuration as an administrator: the deadlines form, with an error, and the reminders', async () => {
    const admin = await e.newPage({ ...PHONE, signedInAs: ADMIN });
    await admin.goto('/admin/configuration');
    const delais = admin.getByTestId('delais-section');
    await delais.getByLabel('Critique (jours ouvrés)').waitFor();
    await admin.getByTestId('rappels-switch').waitFor();
    await expectAccessible(admin, 'configuration (administrateur)');

    await delais.getByLabel('Critique (jours ouvrés)').fill('0');
    await delais.getByRole('button', { name: 'Enregistrer les délais' }).click();
    await delais
      .getByText('Le délai doit être un nombre entier de jours ouvrés, de 1 à 365, ou vide pour aucun délai.')
      .waitFor();
    await expectAccessible(admin, 'configuration (délai refusé)');
  });

  it('Configuration for other staff: the deadlines read-only, and the reminders switch turned off', async () => {
    const agent = await e.newPage({ ...PHONE, signedInAs: AGENT });
    await agent.goto('/admin/configuration');
    await agent.getByTestId('delais-read-only').waitFor();
    await agent.getByTestId('rappels-switch').waitFor();
    await expectAccessible(agent, 'configuration (lecture seule)');
    await agent.getByLabel('Recevoir le récapitulatif quotidien').click();
    await expect
      .poll(() => toast(agent, 'Vous ne recevrez plus le récapitulatif quotidien.').count())
      .toBe(1);
    await expectAccessible(agent, 'configuration (récapitulatif désactivé)');
  });

  it('the « Pièces jointes » card: empty, with a file and its full hash, and the delete confirmation', async () => {
    const agent = await e.newPage({ ...PHONE, signedInAs: AGENT });
    const code = await createReportByApi(agent);
    await agent.goto(`/admin/signalement/detail/${code}`);
    const card = agent.getByTestId('evidence-card');
    await card.getByText('Aucune pièce jointe.').waitFor();
    await card.scrollIntoViewIfNeeded();
    await expectAccessible(agent, 'pièces jointes (vide)');

    await card
      .getByTestId('evidence-input')
      .setInputFiles({ name: 'constat de l’huissier.pdf', mimeType: 'application/pdf', buffer: PDF });
    await expect.poll(() => toast(agent, 'Fichier joint.').count()).toBe(1);
    const item = card.getByTestId('evidence-item');
    await item.getByRole('button', { name: "Afficher l'empreinte complète" }).click();
    await expect.poll(() => item.getByTestId('evidence-hash').textContent()).toMatch(/^[0-9a-f]{64}$/);
    await expectAccessible(agent, 'pièces jointes (un fichier)');

    await item.getByRole('button', { name: 'Supprimer la pièce jointe' }).click();
    const dialog = agent.getByTestId('evidence-delete-dialog');
    await dialog.getByRole('heading', { name: 'Supprimer cette pièce jointe ?' }).waitFor();
    await expectAccessible(agent, 'suppression d’une pièce jointe');
    await dialog.getByRole('button', { name: 'Annuler' }).click();
  });
});
