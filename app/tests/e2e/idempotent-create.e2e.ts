// Decision 0020: a creation whose answer is lost (the server committed, the connection dropped before the
// reply) is sent again with the same Idempotency-Key — by the outbox since decision 0048 — and the server
// answers with the report it created: one report, never two.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { toast, useE2E } from './harness';
import { PASSWORD, signInByApi } from './sign-in';

async function reportTotal(page: Page): Promise<number> {
  const res = await page.request.get('/api/signalements?itemsPerPage=1');
  return ((await res.json()) as { totalItems: number }).totalItems;
}

describe('a creation sent again after its answer was lost', () => {
  const e = useE2E();
  beforeAll(async () => {
    await e.user('agent@example.mg', 'ROLE_USER', 'Rabe Hery');
  });

  it('creates one report: the outbox sends it again with the same key and gets the first one', async () => {
    const page = await e.newPage();
    await signInByApi(page, 'agent@example.mg', PASSWORD);
    const before = await reportTotal(page);

    // The first create reaches the server, which commits; its answer never comes back.
    const keys: string[] = [];
    let dropped = false;
    await page.route('**/trpc/signalements.create**', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (dropped) return route.continue();
      dropped = true;
      await route.fetch();
      await route.abort('connectionreset');
    });
    e.allowConsoleErrors(/ERR_CONNECTION_RESET|Failed to fetch|net::/);

    await page.goto('/admin/signalement/list');
    await page.getByTestId('create-button').click();
    const dialog = page.getByTestId('create-dialog');
    await dialog.getByRole('button', { name: 'Partenaire concerné' }).click();
    await dialog.getByRole('option', { name: /Ivorary/ }).click();
    await dialog.getByRole('button', { name: 'Objet(s) de la plainte' }).click();
    await dialog.getByRole('checkbox', { name: 'Corruption' }).check();
    await dialog.getByRole('heading').click();
    await dialog.getByLabel('Canal de réception principal').selectOption('TELEPHONE');

    await dialog.getByRole('button', { name: 'Initialiser' }).click();
    await expect.poll(() => dropped).toBe(true);
    // The lost answer is a network failure: the create waits in the outbox (decision 0048), which sends it
    // again by itself with the same key; the server answers with the report it created the first time.
    await toast(page, "Modification enregistrée sur cet appareil, en attente d'envoi.").first().waitFor();
    expect(await reportTotal(page)).toBe(before + 1);
    await expect.poll(() => keys.length, { timeout: 20_000 }).toBe(2);
    await expect.poll(() => page.getByTestId('outbox-indicator').count()).toBe(0);

    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(await reportTotal(page)).toBe(before + 1);
  });
});
