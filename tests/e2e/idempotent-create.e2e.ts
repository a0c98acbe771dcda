// Decision 0020: a creation whose answer is lost (the server committed, the connection dropped before the
// reply) is sent again by the user's second click with the same Idempotency-Key, and the server answers
// with the report it created: one report, never two.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signInByApi, toast, useE2E } from './harness';

async function reportTotal(page: Page): Promise<number> {
  const res = await page.request.get('/api/signalements?itemsPerPage=1');
  return ((await res.json()) as { totalItems: number }).totalItems;
}

describe('a creation sent again after its answer was lost', () => {
  const e = useE2E();
  beforeAll(async () => {
    await e.user('agent@example.mg', 'ROLE_USER', 'Rabe Hery');
  });

  it('creates one report: the second click gets the first one', async () => {
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
    await toast(page, 'Échec de la création du signalement.').first().waitFor();
    expect(await reportTotal(page)).toBe(before + 1);

    await dialog.getByRole('button', { name: 'Initialiser' }).click();
    await page.waitForURL('**/admin/signalement/detail/**');
    const code = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);

    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(await reportTotal(page)).toBe(before + 1);
    expect((await page.request.get(`/api/signalements/${encodeURIComponent(code)}`)).status()).toBe(200);
  });
});
