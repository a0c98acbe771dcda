import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '#server/db/seed/demo';
import { issuePasswordToken } from '#server/domains/auth/password-tokens';
import { findUserByEmail } from '#server/domains/utilisateurs/service';
import { useE2E } from './harness';
import { ADMIN, loginAs } from './sign-in';

interface Violation {
  directive: string;
  blocked: string;
  source: string;
}

/**
 * Records every Content-Security-Policy violation of the page, from before its first navigation:
 * the `securitypolicyviolation` events of each document (reported to Node at once, so a navigation
 * loses none) and the browser's own console message, which also names what a worker was refused.
 */
async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction('__cspViolation', (v: Violation) => {
    seen.push(`${v.directive} refused ${v.blocked || '(inline)'} at ${v.source}`);
  });
  await page.addInitScript(() => {
    const report = (window as unknown as { __cspViolation(v: Violation): void }).__cspViolation;
    window.addEventListener(
      'securitypolicyviolation',
      (event) =>
        void report({
          directive: event.effectiveDirective,
          blocked: event.blockedURI,
          source: `${event.sourceFile}:${event.lineNumber}`,
        }),
      true,
    );
  });
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) seen.push(message.text());
  });
  return seen;
}

/** Waits until a dashboard block has drawn (or said it has no data), and fails on an error state. */
async function settled(page: Page, testId: string) {
  const block = page.locator(`[data-testid="${testId}"]:not([data-state="loading"])`);
  await block.waitFor({ timeout: 20_000 });
  expect(await block.getAttribute('data-state'), testId).not.toBe('error');
}

/**
 * Moves the mouse over a chart's plot, or over a slice of a pie (whose box centre may fall outside it,
 * hence a mousemove sent to the slice itself), until apexcharts shows its tooltip: the tooltip's HTML
 * is built at that moment.
 */
async function hoverChart(page: Page, blockTestId: string, target: string) {
  const element = page.getByTestId(blockTestId).locator(target).first();
  await element.waitFor();
  if (target === '.apexcharts-pie-area') {
    const box = (await element.boundingBox())!;
    await element.dispatchEvent('mousemove', {
      clientX: box.x + box.width / 2,
      clientY: box.y + box.height / 2,
    });
  } else {
    await element.hover({ force: true });
  }
  await page.getByTestId(blockTestId).locator('.apexcharts-tooltip.apexcharts-active').waitFor();
}

describe('Content-Security-Policy in a real browser', () => {
  const e = useE2E();
  beforeAll(async () => {
    await seedDemo(e.running.ctx, { reports: 200, seed: 5 });
    await e.user('nouveau@example.mg', 'ROLE_USER', 'Randria Nouveau');
  });

  it('sends the policy with the page and reports what breaks it (the watch itself works)', async () => {
    const page = await e.newPage();
    const violations = await watchViolations(page);
    const response = await page.goto('/admin/login');
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByLabel(/e-?mail/i).waitFor();
    expect(violations).toEqual([]);

    e.allowConsoleErrors(/Content Security Policy/);
    await page.evaluate(() => {
      const style = document.createElement('style');
      style.textContent = 'body { color: red; }';
      document.head.append(style);
    });
    await expect.poll(() => violations.length).toBeGreaterThanOrEqual(1);
    expect(violations.join('\n')).toContain('style-src');
  });

  it('lets the service worker install and the manifest load without a violation', async () => {
    const page = await e.newPage({ serviceWorkers: 'allow' });
    const violations = await watchViolations(page);
    const response = await page.goto('/admin/login');
    const policy = response!.headers()['content-security-policy'];
    expect(policy).toContain("worker-src 'self'");
    expect(policy).toContain("manifest-src 'self'");
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    // Chromium fetches and parses the manifest as it would to install the app.
    const cdp = await page.context().newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as {
      url: string;
      errors: { message: string }[];
      data?: string;
    };
    expect(manifest.url).toMatch(/\/admin\/manifest\.webmanifest$/);
    expect(manifest.errors).toEqual([]);
    expect(JSON.parse(manifest.data!)).toMatchObject({ name: 'Signalements', lang: 'fr' });
    expect(violations).toEqual([]);
  });

  it('lets every screen of the client work without a single violation', async () => {
    const page = await e.newPage();
    const violations = await watchViolations(page);

    // Login, then the dashboard with its charts (and their tooltips) and the map.
    await loginAs(page, ADMIN.email, ADMIN.password);
    for (const id of [
      'per-day-block',
      'map-block',
      'canal-block',
      'subject-block',
      'niveau-block',
      'resultat-block',
    ])
      await settled(page, id);
    // A refused worker or fetch stops the map from loading: fail on the violation, not on the wait.
    const map = page.getByTestId('geo-map');
    const mapState = async () =>
      violations.length
        ? violations
        : `${await map.getAttribute('data-loaded')} ${await map.getAttribute('data-regions')}`;
    await expect.poll(mapState, { timeout: 20_000 }).toBe('true loaded');
    await hoverChart(page, 'per-day-block', '.apexcharts-area-series');
    await hoverChart(page, 'canal-block', '.apexcharts-pie-area');
    await hoverChart(page, 'subject-block', '.apexcharts-bar-area');
    expect(violations, 'dashboard').toEqual([]);

    await page.getByRole('link', { name: "Vue d'ensemble des plaintes" }).click();
    await page.waitForURL('**/admin/dashboard/analyse');
    for (const id of [
      'overview-summary',
      'overview-series',
      'overview-status',
      'overview-distribution',
      'overview-top-users',
      'overview-top-partners',
      'overview-per-day',
    ])
      await settled(page, id);
    await page.getByTestId('overview-series').locator('.apexcharts-legend').waitFor();
    expect(violations, 'analyse').toEqual([]);

    await page.goto('/admin/signalement/list');
    await page.getByTestId('signalement-row').first().waitFor();
    await page.getByTestId('create-button').click();
    await page
      .getByTestId('create-dialog')
      .getByRole('heading', { name: 'Initialiser un nouveau signalement' })
      .waitFor();
    await page.keyboard.press('Escape');
    expect(violations, 'liste').toEqual([]);

    await page.getByTestId('signalement-row').first().click();
    await page.waitForURL('**/admin/signalement/detail/**');
    await page.getByTestId('signalement-detail').waitFor();
    await page.getByTestId('header-card').waitFor();
    const code = (await page.getByTestId('signalement-code').textContent())!.trim();
    expect(violations, 'détail').toEqual([]);

    await page.goto('/admin/signalement/create');
    await page.getByRole('heading', { name: 'Formulaire' }).first().waitFor();
    await page.goto('/admin/configuration');
    await page.getByRole('heading', { name: 'Configuration' }).first().waitFor();
    expect(violations, 'formulaire, configuration').toEqual([]);

    await page.goto('/admin/users');
    await page.getByTestId('users-table').waitFor();
    await page.getByRole('button', { name: 'Nouvel Utilisateur' }).click();
    await page.getByTestId('user-form-dialog').getByLabel('Nom et prénom').waitFor();
    await page.keyboard.press('Escape');
    expect(violations, 'utilisateurs').toEqual([]);

    await page.goto('/admin/partenaires');
    await page.getByTestId('partenaires-table').waitFor();
    await page.getByRole('button', { name: 'Nouveau Partenaire' }).click();
    await page.getByTestId('partenaire-form-dialog').getByLabel('Désignation').waitFor();
    await page.keyboard.press('Escape');
    expect(violations, 'partenaires').toEqual([]);

    // The pages reached without a session: the public summary and the set-password link.
    const visitor = await e.newPage({ width: 375, height: 740 });
    const visitorViolations = await watchViolations(visitor);
    await visitor.goto(`/admin/resume/${code}`);
    await visitor.getByTestId('resume-header').waitFor();
    expect(await visitor.getByTestId('resume-code').textContent()).toBe(code);
    const user = (await findUserByEmail(e.running.db, 'nouveau@example.mg'))!;
    const { token } = await issuePasswordToken(e.running.db, user.id, 'setup');
    await visitor.goto(`/admin/definir-mot-de-passe/${token}`);
    await visitor.getByTestId('definir-intro').waitFor();
    await visitor.getByLabel('Nouveau mot de passe').waitFor();
    expect(visitorViolations, 'résumé, définir le mot de passe').toEqual([]);
    expect(violations).toEqual([]);
  });
});
