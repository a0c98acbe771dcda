import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '#server/db/seed/demo';
import { describeViolations, seriousViolations, settleAnimations } from './axe';
import { useE2E } from './harness';
import { ADMIN, PASSWORD, signInByApi } from './sign-in';

const READER = { email: 'lecteur@example.mg', nomPrenom: 'Rakoto Lecteur' };
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };
/** Distinct reports whose people, read within the window, raise an access alert (ACCESS_ALERT_READS). */
const ALERT_READS = 2;
const WIDTHS = [375, 414, 768];

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const box = async (locator: Locator): Promise<Box> => (await locator.boundingBox())!;

async function expectNoSidewaysScroll(page: Page, what: string) {
  const [scrollWidth, clientWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scrollWidth, `${what} : défilement horizontal`).toBeLessThanOrEqual(clientWidth!);
}

function expectInside(inner: Box, outer: Box, what: string) {
  expect(inner.x, `${what} : bord gauche`).toBeGreaterThanOrEqual(outer.x - 0.5);
  expect(inner.x + inner.width, `${what} : bord droit`).toBeLessThanOrEqual(outer.x + outer.width + 0.5);
}

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1;

/** Every axis label of the block's chart lies within the block's box (not clipped by the card or the page). */
async function expectChartLabelsInside(block: Locator, what: string) {
  await block.scrollIntoViewIfNeeded();
  await expect.poll(() => block.locator('.apexcharts-xaxis-label').count()).toBeGreaterThan(0);
  const [outer, labels] = await block.evaluate((el) => {
    const chart = el.querySelector('.apexcharts-canvas')!.getBoundingClientRect();
    const card = el.getBoundingClientRect();
    const right = Math.min(card.right, chart.right, document.documentElement.clientWidth);
    const left = Math.max(card.left, chart.left, 0);
    return [
      { x: left, y: 0, width: right - left, height: 0 },
      Array.from(el.querySelectorAll('.apexcharts-xaxis-label, .apexcharts-yaxis-label'))
        .map((l) => ({ text: l.textContent ?? '', rect: l.getBoundingClientRect() }))
        .filter((l) => l.rect.width > 0)
        .map((l) => ({ text: l.text, x: l.rect.x, y: l.rect.y, width: l.rect.width, height: l.rect.height })),
    ] as const;
  });
  expect(labels.length, what).toBeGreaterThan(0);
  for (const label of labels) expectInside(label, outer, `${what}, étiquette « ${label.text} »`);
}

async function expectAccessible(page: Page, what: string) {
  await settleAnimations(page);
  const violations = await seriousViolations(page);
  expect(violations, `${what} :\n${describeViolations(violations)}`).toEqual([]);
}

/**
 * On phones (375, 414 px) and a tablet beside the sidebar (768 px): the dashboard with an access
 * alert, the « Journal des accès » and the analysis view fit the screen, « Marquer comme vue » is whole and
 * beside no text, the charts' labels are not clipped (the creation dialog's guard and the exports' French
 * failures: phone-dialogs.e2e.ts).
 */
describe('phone and small-screen defects', () => {
  const e = useE2E({ ACCESS_ALERT_READS: String(ALERT_READS) }, { closeTestPages: true });

  beforeAll(async () => {
    await seedDemo(e.running.ctx, { reports: 150, seed: 4 });
    await e.user(READER.email, 'ROLE_USER', READER.nomPrenom);
    const reader = await e.newPage();
    await signInByApi(reader, READER.email, PASSWORD);
    for (let i = 0; i < ALERT_READS; i++) {
      const created = await reader.request.post('/api/signalements', {
        headers: SAME_ORIGIN,
        data: {
          partenaire: '/api/partenaires/IVY',
          subjects: ['/api/subjects/CORRUPTION'],
          canalPrincipal: '/api/canals/TELEPHONE',
          signalementAt: '2025-03-10',
        },
      });
      expect(created.status()).toBe(201);
      const { code } = (await created.json()) as { code: string };
      const input = encodeURIComponent(JSON.stringify({ signalement: code }));
      expect((await reader.request.get(`/trpc/sources.list?input=${input}`)).status()).toBe(200);
    }
    await reader.context().close();
  });

  for (const width of WIDTHS) {
    it(`fits the dashboard with its access alert at ${width} px`, async () => {
      const page = await e.newPage({ width, height: 800, signedInAs: ADMIN });
      await page.goto('/admin/dashboard');
      const alert = page.getByTestId('access-alert').first();
      await alert.waitFor();
      const perDay = page.locator('[data-testid="per-day-block"][data-state="ready"]');
      await perDay.waitFor({ timeout: 20_000 });
      await expectNoSidewaysScroll(page, 'tableau de bord');

      const markSeen = alert.getByRole('button', { name: 'Marquer comme vue' });
      const button = await box(markSeen);
      expectInside(button, { x: 0, y: 0, width, height: 0 }, '« Marquer comme vue »');
      expectInside(button, await box(alert), '« Marquer comme vue » dans l’alerte');
      for (const text of await alert.getByTestId('access-alert-text').locator('p').all()) {
        expect(overlap(button, await box(text)), '« Marquer comme vue » couvre le texte').toBe(false);
      }

      await expectChartLabelsInside(perDay, 'Signalements par jour');
      for (const id of ['subject-block']) {
        const block = page.locator(`[data-testid="${id}"][data-state="ready"]`);
        if (await block.count()) await expectChartLabelsInside(block, id);
      }
      await expectNoSidewaysScroll(page, 'tableau de bord, graphiques');
      if (width === 375) await expectAccessible(page, 'tableau de bord (375 px)');
    });

    it(`shows the « Journal des accès » as cards at ${width} px, « Connexion » on one line`, async () => {
      const page = await e.newPage({ width, height: 800, signedInAs: ADMIN });
      await page.goto('/admin/journal-acces');
      const rows = page.getByTestId('journal-row');
      await rows.first().waitFor();
      await expectNoSidewaysScroll(page, 'journal');
      const region = await box(page.getByRole('region', { name: 'Journal des accès' }));
      for (const row of (await rows.all()).slice(0, 5)) {
        for (const cell of await row.locator('td').all()) {
          if (await cell.isVisible()) expectInside(await box(cell), region, 'cellule du journal');
        }
      }
      const connexion = page
        .locator('[data-testid="journal-row"][data-kind="connexion"]')
        .first()
        .getByTestId('journal-row-kind');
      expect(await connexion.textContent()).toBe('Connexion');
      const lines = await connexion.evaluate((badge) => {
        const range = document.createRange();
        range.selectNodeContents(badge);
        return new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size;
      });
      expect(lines, '« Connexion » coupé en deux lignes').toBe(1);
      if (width === 375) await expectAccessible(page, 'journal des accès (375 px)');
    });

    it(`fits the analysis view and its charts' labels at ${width} px`, async () => {
      const page = await e.newPage({ width, height: 800, signedInAs: ADMIN });
      await page.goto('/admin/dashboard/analyse');
      const series = page.locator('[data-testid="overview-series"][data-state="ready"]');
      await series.waitFor({ timeout: 20_000 });
      for (const id of ['overview-distribution', 'overview-per-day', 'overview-top-partners']) {
        await page.locator(`[data-testid="${id}"]:not([data-state="loading"])`).waitFor();
      }
      await expectNoSidewaysScroll(page, 'vue d’ensemble');
      const main = await box(page.locator('main > *').last());
      for (const block of await page.locator('main section[data-testid^="overview-"]').all()) {
        const id = (await block.getAttribute('data-testid'))!;
        expectInside(await box(block), main, `bloc ${id}`);
        const [scroll, client] = await block.evaluate((el) => [el.scrollWidth, el.clientWidth]);
        expect(scroll, `bloc ${id} : contenu plus large que le bloc`).toBeLessThanOrEqual(client!);
      }
      await expectChartLabelsInside(series, 'Évolution des signalements');
      await expectChartLabelsInside(
        page.locator('[data-testid="overview-per-day"][data-state="ready"]'),
        'Signalements reçus par jour',
      );
      if (width === 375) await expectAccessible(page, 'vue d’ensemble (375 px)');
    });
  }
});
