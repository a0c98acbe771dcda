import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, businessDay, DEFAULT_BUSINESS_TIME_ZONE } from '#shared/calendar';
import { describeViolations, seriousViolations } from './axe';
import { ADMIN, createReportByApi, loginAs, PASSWORD, signInByApi, toast, useE2E } from './harness';

const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };

/**
 * Handling deadlines (docs/decisions/0032-deadlines.md) in a real browser: an administrator sets a deadline
 * on Configuration (French validation under the field), another user reads it without a form, and a report
 * filed long enough ago shows « En retard » in the list and the detail, where the deadline filter finds it.
 * The server's clock is the real one: the late report is filed 60 days before today, far beyond any
 * deadline, and the fresh one today, within it.
 */
describe('handling deadlines in a real browser', () => {
  const e = useE2E();
  const today = businessDay(new Date(), DEFAULT_BUSINESS_TIME_ZONE);
  const codes = { late: '', fresh: '' };
  let agent: Page;

  async function expectAccessible(page: Page, what: string) {
    const violations = await seriousViolations(page);
    expect(violations, `${what} :\n${describeViolations(violations)}`).toEqual([]);
  }

  beforeAll(async () => {
    await e.user('agent@example.mg', 'ROLE_USER', 'Rabe Agent');
    agent = await e.newPage();
    await signInByApi(agent, 'agent@example.mg', PASSWORD);
    codes.late = await createReportByApi(agent, { signalementAt: addDays(today, -60) });
    codes.fresh = await createReportByApi(agent, { signalementAt: today });
    for (const code of Object.values(codes)) {
      const res = await agent.request.patch(`/api/signalements/${code}`, {
        headers: { ...SAME_ORIGIN, 'content-type': 'application/merge-patch+json' },
        data: JSON.stringify({ niveau: '/api/niveaux/CRITIQUE' }),
      });
      expect(res.status(), await res.text()).toBe(200);
    }
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
    await agent.goto('/admin/configuration');
    const section = agent.getByTestId('delais-section');
    await section.getByTestId('delais-read-only').waitFor();
    const critique = section.locator('[data-testid="delai-row"][data-niveau="CRITIQUE"]');
    await expect.poll(() => critique.textContent()).toContain('10 jours ouvrés');
    expect(await section.locator('input').count()).toBe(0);
    expect(await section.getByRole('button', { name: 'Enregistrer les délais' }).count()).toBe(0);
    await expectAccessible(agent, 'Configuration (lecture seule)');
  });

  it('marks the late report « En retard » in the list and the detail, and the filter finds it', async () => {
    await agent.goto('/admin/signalement/list');
    const row = (code: string) => agent.locator(`[data-testid="signalement-row"][data-code="${code}"]`);
    // The first list read starts the server's read threads: slow on a loaded machine.
    await row(codes.late).waitFor({ timeout: 30_000 });
    expect(await row(codes.late).getByTestId('echeance-en-retard').textContent()).toBe('En retard');
    expect(await row(codes.fresh).getByTestId('echeance-en-retard').count()).toBe(0);
    expect(await row(codes.fresh).getByTestId('echeance-cell').textContent()).toMatch(/J-\d+/);
    await expectAccessible(agent, 'liste avec la colonne Échéance');

    await agent.getByRole('button', { name: /Filtrer par échéance/ }).click();
    await agent
      .getByTestId('filter-echeance')
      .getByRole('option', { name: 'En retard', exact: true })
      .click();
    await expect.poll(() => new URL(agent.url()).searchParams.get('echeance')).toBe('en_retard');
    await expect.poll(() => agent.getByTestId('signalement-row').count()).toBe(1);
    expect(await row(codes.late).count()).toBe(1);

    // The URL keeps the filter: a reload shows the same list.
    await agent.reload();
    await expect.poll(() => agent.getByTestId('signalement-row').count()).toBe(1);

    await agent.goto(`/admin/signalement/detail/${codes.late}`);
    const value = agent.getByTestId('echeance-value');
    await expect.poll(() => value.textContent(), { timeout: 30_000 }).toMatch(/En retard de \d+ jours/);
    expect(await value.getByTestId('echeance-en-retard').textContent()).toBe('En retard');
    await agent.goto(`/admin/signalement/detail/${codes.fresh}`);
    await expect
      .poll(() => agent.getByTestId('echeance-value').textContent())
      .toMatch(/J-\d+ : \d+ jours? restants?/);
  });
});
