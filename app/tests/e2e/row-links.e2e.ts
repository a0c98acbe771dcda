import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { businessDay, DEFAULT_BUSINESS_TIME_ZONE } from '#shared/calendar';
import { seedDemo } from '#server/db/seed/demo';
import { useE2E } from './harness';
import { PASSWORD, signInByApi } from './sign-in';

const NNBSP = '\u202f';

async function logIn(page: Page, email: string) {
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByLabel(/mot de passe/i).fill(PASSWORD);
  await page.getByRole('button', { name: /se connecter/i }).click();
}

/**
 * Rows are links, a deep link survives the log-in, and smaller
 * details: a stale log-in error, French grouping of the list total, the role badge's name, the
 * sidebar's panel on a long page.
 */
describe('links, log-in return and list details', () => {
  const e = useE2E();
  let code: string;
  beforeAll(async () => {
    await e.user('agent@example.mg', 'ROLE_USER', 'Rabe Agent');
    await e.user('gestion@example.mg', 'ROLE_ANALYSTE', 'Rasoa Gestion');
    await seedDemo(e.running.ctx, { reports: 1_234, seed: 3 });
    const page = await e.newPage();
    await signInByApi(page, 'agent@example.mg', PASSWORD);
    const list = await page.request.get('/api/signalements?itemsPerPage=1');
    code = ((await list.json()) as { member: Array<{ code: string }> }).member[0]!.code;
    await page.context().close();
  });

  it('makes each row a link to its detail: Ctrl-click opens it in a new tab, a click in this one', async () => {
    const page = await e.newPage({ width: 1440, height: 900 });
    await signInByApi(page, 'agent@example.mg', PASSWORD);
    await page.goto('/admin/signalement/list');
    const row = page.locator(`[data-testid="signalement-row"][data-code="${code}"]`);
    await row.waitFor();
    expect(await row.getByRole('link').getAttribute('href')).toBe(`/admin/signalement/detail/${code}`);

    // Ctrl-click on the row's middle (not on the code): a new tab on the detail.
    const middle = async () => {
      const box = (await row.boundingBox())!;
      return { x: box.width / 2, y: box.height / 2 };
    };
    const [tab] = await Promise.all([
      page.context().waitForEvent('page'),
      row.click({ position: await middle(), modifiers: ['Control'] }),
    ]);
    await tab!.waitForURL(`**/admin/signalement/detail/${code}`);
    expect(new URL(page.url()).pathname).toBe('/admin/signalement/list');
    await tab!.close();

    await row.click({ position: await middle() });
    await page.waitForURL(`**/admin/signalement/detail/${code}`);
  });

  it('asks for the session and the list’s first page in one request, and the page’s code alongside (slow links)', async () => {
    const page = await e.newPage({ width: 1440, height: 900 });
    await signInByApi(page, 'agent@example.mg', PASSWORD);
    const order: string[] = [];
    page.on('request', (request) => order.push(`start ${new URL(request.url()).pathname}`));
    page.on('requestfinished', (request) => order.push(`end ${new URL(request.url()).pathname}`));
    await page.goto('/admin/signalement/list');
    await page.getByTestId('signalement-row').first().waitFor();
    const trpcCalls = order.filter((o) => o.startsWith('start /trpc/'));
    expect(trpcCalls[0]).toBe('start /trpc/auth.session,signalements.list');
    // The list is not asked for a second time when its page mounts.
    expect(trpcCalls.filter((o) => o.includes('signalements.list'))).toHaveLength(1);
    // The list page's chunk is requested before the session's answer arrives.
    const chunk = order.findIndex((o) => /^start \/admin\/assets\/signalement-list-page-/.test(o));
    const answered = order.indexOf('end /trpc/auth.session,signalements.list');
    expect(chunk).toBeGreaterThanOrEqual(0);
    expect(chunk).toBeLessThan(answered);
  });

  it('groups the list total the French way', async () => {
    const page = await e.newPage({ width: 1440, height: 900 });
    await signInByApi(page, 'agent@example.mg', PASSWORD);
    await page.goto('/admin/signalement/list');
    await expect.poll(() => page.getByText(/^Total:/).textContent()).toBe(`Total: 1${NNBSP}234 élément(s)`);
  });

  it('logs no failed request and no console error on a visit without a session', async () => {
    const page = await e.newPage();
    const seen: string[] = [];
    page.on('console', (message) => {
      // The harness blocks service workers (harness.ts): Playwright's own notice of it is not the page's.
      if (message.text() === 'Service Worker registration blocked by Playwright') return;
      if (message.type() === 'error' || message.type() === 'warning') seen.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() >= 400) seen.push(`${response.status()} ${response.url()}`);
    });
    await page.goto('/admin/login');
    await page.getByRole('button', { name: /se connecter/i }).waitFor();
    await page.goto(`/admin/signalement/detail/${code}`);
    await page.waitForURL('**/admin/login?retour=*');
    await page.getByRole('button', { name: /se connecter/i }).waitFor();
    expect(seen).toEqual([]);
  });

  it('comes back to a deep link after the log-in, keeping its query string', async () => {
    const page = await e.newPage();
    await page.goto(`/admin/signalement/detail/${code}`);
    await page.waitForURL('**/admin/login?retour=*');
    await logIn(page, 'agent@example.mg');
    await page.waitForURL(`**/admin/signalement/detail/${code}`);

    const other = await e.newPage();
    await other.goto('/admin/signalement/list?q=fraude&page=2');
    await other.waitForURL('**/admin/login?retour=*');
    await logIn(other, 'agent@example.mg');
    await other.waitForURL(
      (url) => url.pathname === '/admin/signalement/list' && url.search === '?q=fraude&page=2',
    );

    // The list's first page was asked for before the log-in (and refused): after it the rows come, not
    // that old refusal.
    const third = await e.newPage();
    await third.goto('/admin/signalement/list');
    await third.waitForURL('**/admin/login?retour=*');
    await logIn(third, 'agent@example.mg');
    await third.waitForURL('**/admin/signalement/list');
    await third
      .getByRole('link', { name: new RegExp(code) })
      .first()
      .waitFor();
    expect(await third.getByRole('button', { name: 'Réessayer' }).count()).toBe(0);
  });

  it('never follows a return address out of the application', async () => {
    for (const hostile of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', '/login']) {
      const page = await e.newPage();
      await page.goto(`/admin/login?retour=${encodeURIComponent(hostile)}`);
      await logIn(page, 'agent@example.mg');
      await page.waitForURL('**/admin/dashboard');
      expect(new URL(page.url()).origin).toBe(e.baseUrl);
      await page.context().close();
    }
  });

  it('drops the previous log-in error when a new attempt has field errors', async () => {
    // A wrong password is answered 401.
    e.allowConsoleErrors(/status of 401|^401 /);
    const page = await e.newPage();
    await page.goto('/admin/login');
    await page.getByLabel(/e-?mail/i).fill('agent@example.mg');
    await page.getByLabel(/mot de passe/i).fill('mauvais-mot-de-passe');
    await page.getByRole('button', { name: /se connecter/i }).click();
    await expect
      .poll(() => page.getByTestId('login-error').textContent())
      .toContain('Email ou mot de passe incorrect.');
    await page.getByLabel(/mot de passe/i).fill('');
    await page.getByRole('button', { name: /se connecter/i }).click();
    await expect.poll(() => page.locator('#login-password-error').count()).toBe(1);
    expect(await page.getByTestId('login-error').count()).toBe(0);
  });

  it('shows and reads dates as dd/MM/yyyy in an English-language browser', async () => {
    const page = await e.newPage({ width: 1440, height: 900, locale: 'en-US' });
    await signInByApi(page, 'agent@example.mg', PASSWORD);
    await page.goto('/admin/signalement/list?du=2000-01-31');
    expect(await page.getByTestId('filter-after').inputValue()).toBe('31/01/2000');
    // Typing a day filters by it once it is whole.
    await page.getByTestId('filter-before').fill('15/02/2000');
    await page.waitForURL((url) => url.searchParams.get('au') === '2000-02-15');

    await page.getByTestId('create-button').click();
    const dialog = page.getByTestId('create-dialog');
    const date = dialog.getByLabel('Date de signalement');
    expect(await date.inputValue()).toBe(
      businessDay(new Date(), DEFAULT_BUSINESS_TIME_ZONE).split('-').reverse().join('/'),
    );
    await dialog.getByRole('button', { name: 'Partenaire concerné' }).click();
    await dialog.getByRole('option', { name: /Ivorary/ }).click();
    await dialog.getByRole('button', { name: 'Objet(s) de la plainte' }).click();
    await dialog.getByRole('checkbox', { name: 'Corruption' }).check();
    await page.keyboard.press('Escape');
    await dialog.getByLabel('Canal de réception principal').selectOption('TELEPHONE');
    await date.fill('05/03/2024');
    await dialog.getByRole('button', { name: 'Initialiser' }).click();
    await page.waitForURL('**/admin/signalement/detail/**');
    const created = new URL(page.url()).pathname.split('/').pop()!;
    const report = (await (await page.request.get(`/api/signalements/${created}`)).json()) as {
      signalementAt: string;
    };
    expect(businessDay(new Date(report.signalementAt), DEFAULT_BUSINESS_TIME_ZONE)).toBe('2024-03-05');
  });

  it('names a role the header shows raw, and keeps the sidebar panel down a long page', async () => {
    const page = await e.newPage({ width: 1440, height: 900 });
    await signInByApi(page, 'gestion@example.mg', PASSWORD);
    await page.goto('/admin/signalement/list?page=3');
    const badge = page.getByTestId('role-badge');
    await expect.poll(() => badge.textContent()).toBe('ROLE_ANALYSTE');
    expect(await badge.getAttribute('title')).toBe('Analyste');

    await page.getByTestId('signalement-row').first().waitFor();
    await page.setViewportSize({ width: 1440, height: 500 });
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    const box = (await page.getByTestId('sidebar').boundingBox())!;
    expect(box.y).toBeLessThanOrEqual(0);
    expect(box.y + box.height).toBeGreaterThanOrEqual(500);
  });
});
