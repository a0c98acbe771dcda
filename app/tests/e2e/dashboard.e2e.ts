import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertFixture } from '#server/domains/dashboard/test-fixture';
import { createUser } from '#server/domains/utilisateurs/service';
import { toast, useE2E } from './harness';
import { ADMIN, PASSWORD } from './sign-in';

// The hand-built data set of the server tests: five reports, four in March 2025 (see test-fixture.ts).
const fr = new Intl.NumberFormat('fr-FR');
const DAY_MS = 86_400_000;

async function metrics(page: Page) {
  const value = (key: string) => page.getByTestId(`metric-${key}`).getByTestId('metric-value').textContent();
  return {
    total: await value('total'),
    treated: await value('treated'),
    inProgress: await value('inProgress'),
    closed: await value('closed'),
  };
}

const ready = (page: Page, testId: string) =>
  page.locator(`[data-testid="${testId}"][data-state="ready"]`).waitFor({ timeout: 20_000 });

/** Opens the picker (whatever its label) and goes back until March 2025 shows. */
async function openOnMarch2025(page: Page) {
  await page.getByTestId('date-range-picker').getByRole('button').first().click();
  for (let i = 0; i < 120 && (await page.getByRole('grid', { name: 'mars 2025' }).count()) === 0; i++) {
    await page.getByRole('button', { name: 'Mois précédent' }).click();
  }
  await page.getByRole('grid', { name: 'mars 2025' }).waitFor();
}

describe('live dashboard in a real browser', () => {
  const e = useE2E({}, { closeTestPages: true });
  /**
   * The dashboard, where a log-in lands. Logging in is not what these tests look at: the page starts
   * with the file's shared session of the account (one log-in per account and file).
   */
  async function openDashboard(account: { email: string; password: string }) {
    const page = await e.newPage({ signedInAs: account });
    await page.goto('/admin/dashboard');
    return page;
  }
  beforeAll(async () => {
    const u1 = (
      await createUser(e.running.db, {
        email: 'agent@example.mg',
        roleCode: 'ROLE_USER',
        nomPrenom: 'Rabe Hery',
        password: PASSWORD,
      })
    ).code;
    const u2 = (
      await createUser(e.running.db, {
        email: 'analyste@example.mg',
        roleCode: 'ROLE_ANALYSTE',
        nomPrenom: 'Rasoa Vola',
        password: PASSWORD,
      })
    ).code;
    await insertFixture(e.running.db, { u1, u2 });
  });

  it('renders every block with the figures of the data set', async () => {
    const page = await openDashboard({ email: 'agent@example.mg', password: PASSWORD });
    await expect.poll(() => page.getByRole('heading', { name: 'Tableau de bord' }).isVisible()).toBe(true);
    const trigger = page.getByRole('button', { name: 'Choisir une plage de dates' });
    expect(Math.round((await trigger.boundingBox())!.width)).toBe(300);

    for (const id of [
      'per-day-block',
      'map-block',
      'canal-block',
      'subject-block',
      'niveau-block',
      'resultat-block',
    ])
      await ready(page, id);
    await expect
      .poll(() => metrics(page))
      .toEqual({ total: '5', treated: '3', inProgress: '2', closed: '2' });
    for (const label of [
      'Total Signalement',
      'Signalement Traité',
      'Signalement En Cours',
      'Signalement Clôturé',
    ]) {
      expect(await page.getByText(label, { exact: true }).isVisible()).toBe(true);
    }

    // Without a range the daily chart runs from the first report (28/02/2025) to today (UTC).
    const days = Math.floor(Date.now() / DAY_MS) - Date.UTC(2025, 1, 28) / DAY_MS + 1;
    expect(await page.getByTestId('per-day-summary').textContent()).toBe(
      `5 signalement(s) au total • Moyenne: ${fr.format(Math.round((5 / days) * 10) / 10)}/jour • Maximum: 2`,
    );
    await page.getByTestId('per-day-block').locator('.apexcharts-canvas').waitFor();

    const map = page.getByTestId('geo-map');
    await expect.poll(() => map.getAttribute('data-loaded')).toBe('true');
    expect(await map.getAttribute('data-circles')).toBe('24');
    expect(await page.getByTestId('map-legend').innerText()).toBe('Faible\nMoyen\nÉlevé\nTrès élevé');
    expect(await page.getByTestId('map-attribution').textContent()).toContain('BNGRC / OCHA');
    const firstRows = page.getByTestId('map-table').locator('tbody tr');
    await expect.poll(() => firstRows.nth(0).innerText()).toMatch(/^Analamanga\s+3\s+75,0\s%$/);
    await expect.poll(() => firstRows.nth(1).innerText()).toMatch(/^Vakinankaratra\s+1\s+25,0\s%$/);

    const legend = async (id: string) => page.getByTestId(id).getByTestId('legend-item').allInnerTexts();
    expect((await legend('canal-block')).slice(0, 2).map((t) => t.replace(/\s+/g, ' '))).toEqual([
      'Téléphone 3 75,0 %',
      'Email 1 25,0 %',
    ]);
    expect((await legend('niveau-block')).map((t) => t.replace(/\s+/g, ' '))).toEqual([
      'Faible 1 33,3 %',
      'Moyen 0 0,0 %',
      'Élevé 0 0,0 %',
      'Critique 2 66,7 %',
    ]);
    const results = page.getByTestId('resultat-block').getByTestId('legend-item');
    expect((await results.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '))[0]).toBe('Avéré 1 33,3 %');
    const dot = (i: number) =>
      results
        .nth(i)
        .locator('span')
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect([await dot(0), await dot(1), await dot(2), await dot(3), await dot(4)]).toEqual([
      'rgb(34, 197, 94)',
      'rgb(239, 68, 68)',
      'rgb(245, 158, 11)',
      'rgb(156, 163, 175)',
      'rgb(139, 92, 246)',
    ]);

    // Subjects with at least one report, most frequent first.
    // A long label is shortened on screen; its full text is then in the label's <title>.
    const bars = await page
      .getByTestId('subject-block')
      .locator('.apexcharts-yaxis-label')
      .evaluateAll((labels) => labels.map((l) => (l.querySelector('title') ?? l).textContent!.trim()));
    expect(bars).toEqual(['Corruption', 'Fraude', 'Détournement de deniers publics']);
  });

  it('changes the figures with the date range, and says when a range has no data', async () => {
    const page = await openDashboard(ADMIN);
    await ready(page, 'per-day-block');
    await openOnMarch2025(page);
    await page.getByRole('button', { name: 'samedi 1 mars 2025' }).click();
    await page.getByRole('button', { name: 'mercredi 5 mars 2025' }).click();
    expect(await page.getByTestId('date-range-label').textContent()).toBe('01/03/2025 - 05/03/2025');
    await expect
      .poll(() => metrics(page))
      .toEqual({ total: '4', treated: '2', inProgress: '2', closed: '1' });
    await expect
      .poll(() => page.getByTestId('per-day-summary').textContent())
      .toBe('4 signalement(s) au total • Moyenne: 0,8/jour • Maximum: 2');

    // Keyboard: from 1 March, the right arrow reaches 2 March; Enter twice picks a one-day range.
    await openOnMarch2025(page);
    await page.getByRole('button', { name: 'samedi 1 mars 2025' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'dimanche 2 mars 2025',
    );
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('date-range-label').textContent()).toBe('01/03/2025 - 01/03/2025');
    await expect
      .poll(() => metrics(page))
      .toEqual({ total: '2', treated: '1', inProgress: '1', closed: '0' });

    await openOnMarch2025(page);
    await page.getByRole('button', { name: 'lundi 10 mars 2025' }).click();
    await page.getByRole('button', { name: 'mercredi 12 mars 2025' }).click();
    await expect
      .poll(() => metrics(page))
      .toEqual({ total: '0', treated: '0', inProgress: '0', closed: '0' });
    for (const id of ['per-day-block', 'canal-block', 'subject-block', 'niveau-block', 'resultat-block']) {
      await page.locator(`[data-testid="${id}"][data-state="empty"]`).waitFor();
      expect(await page.getByTestId(id).getByTestId('block-empty').textContent()).toBe(
        'Aucune donnée disponible',
      );
    }
    await expect
      .poll(() => page.getByTestId('map-block').getByTestId('block-empty').textContent())
      .toBe('Aucune donnée disponible');

    await page.getByRole('button', { name: /10\/03\/2025/ }).click();
    await page.getByRole('button', { name: 'Effacer' }).click();
    expect(await page.getByTestId('date-range-label').textContent()).toBe('Choisir une plage de dates');
    await expect
      .poll(() => metrics(page))
      .toEqual({ total: '5', treated: '3', inProgress: '2', closed: '2' });
  });

  it('switches the map between regions, districts and communes and pages its side table by 8', async () => {
    const page = await openDashboard(ADMIN);
    await ready(page, 'map-block');
    const region = page.getByRole('button', { name: 'Région', exact: true });
    expect(await region.getAttribute('aria-pressed')).toBe('true');
    const rows = page.getByTestId('map-table').locator('tbody tr');
    // The side table fills in after the block's data arrives: wait for it rather than read it once.
    await expect.poll(() => rows.count()).toBe(8);
    await expect.poll(() => page.getByTestId('map-page').textContent()).toBe('Page 1 sur 3');
    await page.getByRole('button', { name: 'Page suivante' }).click();
    await expect.poll(() => page.getByTestId('map-page').textContent()).toBe('Page 2 sur 3');
    const second = await rows.allInnerTexts();
    expect(second).toHaveLength(8);
    expect(second.every((r) => /\s0\s+0,0\s%$/.test(r))).toBe(true);

    await page.getByRole('button', { name: 'District', exact: true }).click();
    await expect.poll(() => page.getByTestId('map-page').textContent()).toBe('Page 1 sur 15');
    await expect.poll(() => page.getByTestId('geo-map').getAttribute('data-circles')).toBe('119');
    await expect.poll(() => rows.nth(0).innerText()).toMatch(/\s2\s+100,0\s%$/);
    await page.getByRole('button', { name: 'Page suivante' }).click();
    await page.getByRole('button', { name: 'Commune', exact: true }).click();
    await expect.poll(() => page.getByTestId('map-page').textContent()).toBe('Page 1 sur 198');
    await expect.poll(() => page.getByTestId('geo-map').getAttribute('data-circles')).toBe('1579');
    expect(
      await page.getByRole('button', { name: 'Commune', exact: true }).getAttribute('aria-pressed'),
    ).toBe('true');
  });

  it('shows the error of a block whose call fails while the other blocks render', async () => {
    // The browser reports the failed calls themselves; nothing else may reach the console.
    const failedCalls = e.allowConsoleErrors(/status of (401|500|502)/);
    const page = await openDashboard(ADMIN);
    const internal = {
      error: {
        message: 'Une erreur interne est survenue. Veuillez réessayer plus tard.',
        code: -32603,
        data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 },
      },
    };
    await page.route('**/trpc/dashboard.perCanal*', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify(internal) }),
    );
    await page.route('**/trpc/dashboard.perSubject*', (route) =>
      route.fulfill({ status: 502, contentType: 'text/plain', body: 'Bad Gateway' }),
    );
    await page.reload();

    const canal = page.locator('[data-testid="canal-block"][data-state="error"]');
    await canal.waitFor({ timeout: 20_000 });
    expect(await canal.getByTestId('block-error').textContent()).toBe(
      'Impossible de charger les données de canal',
    );
    await toast(page, 'Erreur lors du chargement des canaux').waitFor();
    const subject = page.locator('[data-testid="subject-block"][data-state="error"]');
    await subject.waitFor({ timeout: 20_000 });
    expect(await subject.getByTestId('block-error').textContent()).toBe(
      'Erreur lors du chargement des données',
    );

    for (const id of ['per-day-block', 'map-block', 'niveau-block', 'resultat-block']) await ready(page, id);
    await expect
      .poll(() => metrics(page))
      .toEqual({ total: '5', treated: '3', inProgress: '2', closed: '2' });
    expect(failedCalls.some((m) => /status of 500/.test(m))).toBe(true);
    // Its calls keep failing: nothing of it may reach the next test's console.
    await page.context().close();
  });
});
