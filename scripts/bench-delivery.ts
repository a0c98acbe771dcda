// Load benchmark (not a test; README « Benchmarks »): the built client in Chromium on a Fast-3G-like link
// (150 ms latency, 1.6 Mb/s down, 750 kb/s up, cache disabled). Prints first contentful paint, largest
// contentful paint, and the time until list rows or dashboard cards are visible, for log-in, list, a
// detail and the dashboard. Builds nothing: run `npm run build` first, then `npm run bench:delivery`.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateTOTP } from '@oslojs/otp';
import { chromium, type Page } from 'playwright-core';
import { seedDemo } from '#server/db/seed/demo';
import { start } from '#server/start';
import { cliOptions } from './cli';

cliOptions(
  `Usage : npm run bench:delivery

Charge la connexion, la liste, un détail et le tableau de bord dans Chromium sur un lien de type « Fast 3G »
(150 ms, 1,6 Mb/s) avec 2 000 signalements de démonstration, et affiche FCP, LCP et le temps d'affichage
des lignes ou des cartes. Lancez d'abord « npm run build ».`,
  {},
);

const ADMIN = { email: 'admin@example.mg', password: 'cle-de-voute-bench-42' };

async function signIn(page: Page): Promise<void> {
  const login = await page.request.post('/api/login', { data: ADMIN });
  const { twoFactor } = (await login.json()) as { twoFactor: 'enrol' | 'verify' | null };
  if (twoFactor !== 'enrol') throw new Error(`second facteur inattendu : ${twoFactor}`);
  const setup = await page.request.post('/trpc/twoFactor.setup', { data: {} });
  const { secret } = ((await setup.json()) as { result: { data: { secret: string } } }).result.data;
  const code = generateTOTP(decodeBase32IgnorePadding(secret), 30, 6);
  const enrol = await page.request.post('/trpc/twoFactor.enrol', {
    data: { password: ADMIN.password, code },
  });
  if (enrol.status() !== 200) throw new Error(`enrôlement refusé : ${enrol.status()}`);
}

/** FCP and LCP as the page observed them (buffered entries). */
async function paints(page: Page): Promise<{ fcp: number; lcp: number }> {
  return page.evaluate(
    () =>
      new Promise<{ fcp: number; lcp: number }>((done) => {
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
        let lcp = NaN;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) lcp = entry.startTime;
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(() => done({ fcp, lcp }), 200);
      }),
  );
}

async function main() {
  if (!existsSync(resolve(import.meta.dirname, '../dist/web/index.html'))) {
    console.error('Client non construit : lancez « npm run build ».');
    process.exitCode = 1;
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'signalements-bench-delivery-'));
  const running = await start({
    DATABASE_URL: `file:${join(dir, 'bench.db')}`,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    PUBLIC_URL: 'http://127.0.0.1',
  });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    await seedDemo(running.ctx, { reports: 2000, seed: 12 });
    const context = await browser.newContext({
      baseURL: running.url,
      locale: 'fr-FR',
      viewport: { width: 1280, height: 800 },
    });
    const setupPage = await context.newPage();
    await signIn(setupPage);
    const first = await setupPage.request.get('/api/signalements?itemsPerPage=1');
    const body = (await first.json()) as {
      member?: { code?: string }[];
      'hydra:member'?: { code?: string }[];
    };
    const code = (body.member ?? body['hydra:member'] ?? [])[0]?.code;
    await setupPage.close();

    const screens = [
      { name: 'Connexion', url: '/admin/login', ready: 'input[type="password"]', anonymous: true },
      { name: 'Liste', url: '/admin/signalement/list', ready: 'tbody tr' },
      ...(code ? [{ name: 'Détail', url: `/admin/signalement/detail/${code}`, ready: 'h1' }] : []),
      { name: 'Tableau de bord', url: '/admin/dashboard', ready: '.card-body' },
    ];
    console.info('Fast-3G simulé (150 ms, 1,6 Mb/s descendant, 750 kb/s montant, sans cache) :');
    console.info('écran            FCP (ms)  LCP (ms)  contenu visible (ms)');
    for (const screen of screens) {
      const ctx =
        'anonymous' in screen ? await browser.newContext({ baseURL: running.url, locale: 'fr-FR' }) : context;
      const page = await ctx.newPage();
      const cdp = await ctx.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: (1.6 * 1024 * 1024) / 8,
        uploadThroughput: (750 * 1024) / 8,
      });
      const started = Date.now();
      await page.goto(screen.url, { waitUntil: 'commit' });
      await page.locator(screen.ready).first().waitFor({ state: 'visible', timeout: 60_000 });
      const visible = Date.now() - started;
      const { fcp, lcp } = await paints(page);
      console.info(
        `${screen.name.padEnd(16)} ${String(Math.round(fcp)).padStart(8)}  ${String(Math.round(lcp)).padStart(8)}  ${String(visible).padStart(20)}`,
      );
      await page.close();
      if ('anonymous' in screen) await ctx.close();
    }
  } finally {
    await browser.close();
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
