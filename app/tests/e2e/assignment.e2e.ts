import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from './axe';
import { createReportByApi, toast, useE2E } from './harness';
import { PASSWORD, signInByApi } from './sign-in';

/**
 * Assignment (docs/decisions/0028): the creator assigns a colleague from the « Assignés » card; the
 * colleague finds the report in « Mes dossiers » and edits it; the creator removes them after a
 * confirmation. The card and its dialog are axe-clean.
 */
describe('assigning a report and « Mes dossiers »', () => {
  const e = useE2E();
  let creator: Page;
  let code: string;

  const assertAxeClean = async (page: Page, what: string) => {
    const violations = await seriousViolations(page);
    expect(violations, `${what} :\n${describeViolations(violations)}`).toEqual([]);
  };

  beforeAll(async () => {
    await e.user('createur@example.mg', 'ROLE_USER', 'Rabe Createur');
    await e.user('assigne@example.mg', 'ROLE_USER', 'Rakoto Assigne');
    creator = await e.newPage();
    await signInByApi(creator, 'createur@example.mg', PASSWORD);
    code = await createReportByApi(creator);
  });

  it('lets the creator assign a colleague, who finds the report in « Mes dossiers » and edits it', async () => {
    await creator.goto(`/admin/signalement/detail/${code}`);
    const card = creator.getByTestId('assignees-card');
    // The first report read starts the server's read threads: slow on a loaded machine.
    await expect.poll(() => card.textContent(), { timeout: 30_000 }).toContain('Non assigné');
    await assertAxeClean(creator, 'Assignés card');
    await card.getByRole('button', { name: /Utilisateur à assigner/ }).click();
    await card
      .getByTestId('assignee-picker')
      .getByRole('option', { name: /Rakoto Assigne/ })
      .click();
    await card.getByTestId('assignee-add').click();
    await expect.poll(() => toast(creator, 'Rakoto Assigne est assigné(e) au signalement.').count()).toBe(1);
    await expect.poll(() => card.getByTestId('assignee-item').count()).toBe(1);
    await expect.poll(() => creator.getByTestId('assignees-value').textContent()).toBe('Rakoto Assigne');

    const assignee = await e.newPage();
    await signInByApi(assignee, 'assigne@example.mg', PASSWORD);
    await assignee.goto('/admin/dashboard');
    await expect.poll(() => assignee.getByTestId('my-cases-mine').textContent()).toContain('1');
    await assignee.getByRole('link', { name: 'Mes dossiers', exact: true }).click();
    await assignee.waitForURL((url) => url.searchParams.has('assigne'));
    const rows = assignee.getByTestId('signalement-row');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-code')).toBe(code);
    expect(await rows.first().getByTestId('assignees-cell').textContent()).toBe('Rakoto Assigne');

    await rows.first().getByTestId('signalement-link').click();
    await assignee.getByTestId('detail-description').fill('Suivi par la personne assignée.');
    await assignee.getByTestId('save-button').click();
    await expect.poll(() => toast(assignee, 'Signalement mis à jour avec succès !').count()).toBe(1);
    // An assignee edits but does not hand the report on: no « Assignés » card.
    expect(await assignee.getByTestId('assignees-card').count()).toBe(0);
  });

  it('lets the creator remove the assignee after a confirmation', async () => {
    await creator.reload();
    const card = creator.getByTestId('assignees-card');
    await card.getByTestId('assignee-remove').click();
    const dialog = creator.getByTestId('assignee-remove-dialog');
    await expect.poll(() => dialog.textContent()).toContain('Retirer Rakoto Assigne des assignés ?');
    await assertAxeClean(creator, 'removal dialog');
    await dialog.getByRole('button', { name: 'Retirer' }).click();
    await expect.poll(() => card.getByTestId('assignee-item').count()).toBe(0);
    await expect.poll(() => creator.getByTestId('assignees-value').textContent()).toBe('Non assigné');
  });
});
