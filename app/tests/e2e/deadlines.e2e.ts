import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from './axe';
import { toast, useE2E } from './harness';
import { ADMIN, loginAs, PASSWORD, signInByApi } from './sign-in';

/**
 * Handling deadlines (docs/decisions/0032-deadlines.md) in a real browser: an administrator sets a deadline
 * on Configuration (French validation under the field), another user reads it without a form. A report
 * going overdue, with the server's clock moved, is deadline-clock.e2e.ts.
 */
describe('handling deadlines in a real browser', () => {
  const e = useE2E();
  let agent: Page;

  async function expectAccessible(page: Page, what: string) {
    const violations = await seriousViolations(page);
    expect(violations, `${what} :\n${describeViolations(violations)}`).toEqual([]);
  }

  beforeAll(async () => {
    await e.user('agent@example.mg', 'ROLE_USER', 'Rabe Agent');
    agent = await e.newPage();
    await signInByApi(agent, 'agent@example.mg', PASSWORD);
  });

  it('lets an administrator set a deadline on Configuration, with French validation', async () => {
    const admin = await e.newPage();
    await loginAs(admin, ADMIN.email, ADMIN.password);
    await admin.goto('/admin/configuration');
    const section = admin.getByTestId('delais-section');
    await section.getByRole('heading', { name: 'Délais de traitement' }).waitFor();
    const critique = section.getByLabel('Critique (jours ouvrés)');
    expect(await critique.inputValue()).toBe('7');
    expect(await section.getByLabel('Faible (jours ouvrés)').inputValue()).toBe('60');
    await expectAccessible(admin, 'Configuration (administrateur)');

    await critique.fill('0');
    await section.getByRole('button', { name: 'Enregistrer les délais' }).click();
    await expect
      .poll(() =>
        section
          .getByText(
            'Le délai doit être un nombre entier de jours ouvrés, de 1 à 365, ou vide pour aucun délai.',
          )
          .isVisible(),
      )
      .toBe(true);
    await critique.fill('10');
    await section.getByRole('button', { name: 'Enregistrer les délais' }).click();
    await expect.poll(() => toast(admin, 'Délais de traitement enregistrés.').count()).toBe(1);
    await admin.reload();
    await expect.poll(() => section.getByLabel('Critique (jours ouvrés)').inputValue()).toBe('10');
  });

  it('shows the deadlines read-only to other staff', async () => {
    // Whatever the setting is when this test runs (7 by default, 10 once the test above saved it).
    const setting = await agent.request.get('/api/delais_traitement/CRITIQUE');
    expect(setting.status(), await setting.text()).toBe(200);
    const { jours } = (await setting.json()) as { jours: number };
    await agent.goto('/admin/configuration');
    const section = agent.getByTestId('delais-section');
    await section.getByTestId('delais-read-only').waitFor();
    const critique = section.locator('[data-testid="delai-row"][data-niveau="CRITIQUE"]');
    await expect.poll(() => critique.textContent()).toContain(`${jours} jours ouvrés`);
    expect(await section.locator('input').count()).toBe(0);
    expect(await section.getByRole('button', { name: 'Enregistrer les délais' }).count()).toBe(0);
    await expectAccessible(agent, 'Configuration (lecture seule)');
  });
});
