// Load benchmark (not a test; README « Benchmarks »): the built client in Chromium on a Fast-3G-like link
// (150 ms latency, 1.6 Mb/s down, 750 kb/s up, cache disabled). For log-in, list, a detail and the
// dashboard: first contentful paint, the time until the screen's content is visible (the form, list rows,
// the title, the dashboard's cards), the time until it is complete (the network idle; on the dashboard,
// every chart and the map drawn as well), and the largest contentful paint read then, once everything has
// painted (read as soon as the cards showed, the dashboard's was 1.8 s; its charts and map come later).
// Writes docs/figures/delivery.json and prints its table (npm run readme:figures puts it in the README).
// Builds nothing: run `npm run build` first, then `npm run bench:delivery`.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateTOTP } from '@oslojs/otp';
import { chromium, type Page } from 'playwright-core';
import { seedDemo } from '#server/db/seed/demo';
import { start } from '#server/start';
import { cliOptions } from './cli';
import { measured, writeFigures } from './figures';

const { values } = cliOptions(
  `Usage : npm run bench:delivery [-- --runs 2]

Charge la connexion, la liste, un détail et le tableau de bord dans Chromium sur un lien de type « Fast 3G »
(150 ms, 1,6 Mb/s) avec 2 000 signalements de démonstration, --runs fois (2 par défaut), et affiche FCP,
le temps d'affichage du contenu (formulaire, lignes, titre, cartes), le temps jusqu'à l'écran complet
(réseau au repos ; graphiques et carte dessinés pour le tableau de bord) et le LCP lu alors. Écrit
docs/figures/delivery.json. Lancez d'abord « npm run build ».`,
  { runs: { type: 'string' } },
);
const runs = Number(values.runs ?? 2);
if (!Number.isInteger(runs) || runs < 1 || runs > 20) {
  console.error('--runs : un entier de 1 à 20.');
  process.exit(1);
}

interface Timing {
  fcp: number;
  visible: number;
  complete: number;
  lcp: number;
  element: string;
}

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

/** The dashboard is complete once each chart and the map have drawn (tests/e2e/dashboard*.e2e.ts wait alike). */
async function dashboardDrawn(page: Page): Promise<void> {
  for (const block of ['per-day-block', 'canal-block', 'subject-block', 'niveau-block', 'resultat-block']) {
    await page.getByTestId(block).locator('.apexcharts-svg').first().waitFor({ timeout: 60_000 });
  }
  await page.locator('[data-testid="geo-map"][data-loaded="true"][data-regions="loaded"]').waitFor({
    timeout: 60_000,
  });
}

/** FCP and LCP as the page observed them (buffered entries), and what the LCP painted. */
async function paints(page: Page): Promise<{ fcp: number; lcp: number; element: string }> {
  return page.evaluate(
    () =>
      new Promise<{ fcp: number; lcp: number; element: string }>((done) => {
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
        let lcp = NaN;
        let element = '';
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            lcp = entry.startTime;
            const node = (entry as PerformanceEntry & { element?: Element | null }).element;
            const block = node?.closest('[data-testid]')?.getAttribute('data-testid');
            element = node ? `${node.tagName.toLowerCase()}${block ? ` in ${block}` : ''}` : '';
          }
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(() => done({ fcp, lcp, element }), 200);
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

    const screens: {
      name: string;
      url: string;
      ready: string;
      anonymous?: true;
      drawn?: typeof dashboardDrawn;
    }[] = [
      { name: 'Log-in', url: '/admin/login', ready: 'input[type="password"]', anonymous: true },
      { name: 'List', url: '/admin/signalement/list', ready: 'tbody tr' },
      ...(code ? [{ name: 'Detail', url: `/admin/signalement/detail/${code}`, ready: 'h1' }] : []),
      { name: 'Dashboard', url: '/admin/dashboard', ready: '.card-body', drawn: dashboardDrawn },
    ];
    const figures = new Map(screens.map((screen) => [screen.name, [] as Timing[]]));
    console.info('Fast-3G simulé (150 ms, 1,6 Mb/s descendant, 750 kb/s montant, sans cache) :');
    console.info('écran       essai  FCP (ms)  contenu visible (ms)  complet (ms)  LCP (ms)  élément du LCP');
    for (let run = 1; run <= runs; run++) {
      for (const screen of screens) {
        const ctx = screen.anonymous
          ? await browser.newContext({ baseURL: running.url, locale: 'fr-FR' })
          : context;
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
        let lastResponse = 0;
        const settled = () => (lastResponse = Date.now());
        page.on('requestfinished', settled);
        page.on('requestfailed', settled);
        const started = Date.now();
        await page.goto(screen.url, { waitUntil: 'commit' });
        await page.locator(screen.ready).first().waitFor({ state: 'visible', timeout: 60_000 });
        const visible = Date.now() - started;
        await screen.drawn?.(page);
        const drawn = Date.now();
        // Complete: the last response received once nothing was left to fetch for half a second (lazy
        // chunks, the map's regions and worker), or the last chart drawn if that came later.
        await page.waitForLoadState('networkidle', { timeout: 60_000 });
        const complete = Math.max(screen.drawn ? drawn : 0, lastResponse, started + visible) - started;
        const { fcp, lcp, element } = await paints(page);
        const timing = { fcp: Math.round(fcp), visible, complete, lcp: Math.round(lcp), element };
        figures.get(screen.name)!.push(timing);
        console.info(
          `${screen.name.padEnd(11)} ${String(run).padStart(5)}  ${String(timing.fcp).padStart(8)}  ${String(visible).padStart(20)}  ${String(complete).padStart(12)}  ${String(timing.lcp).padStart(8)}  ${element}`,
        );
        await page.close();
        if (screen.anonymous) await ctx.close();
      }
    }
    const cells = (name: string, key: Exclude<keyof Timing, 'element'>) =>
      figures
        .get(name)!
        .map((timing) => timing[key].toLocaleString('en-US'))
        .join(' / ');
    const markdown = writeFigures(
      measured('delivery', `npm run bench:delivery -- --runs ${runs}`, [
        {
          caption: `Fast-3G-like link (150 ms latency, 1.6 Mb/s down, 750 kb/s up, cache disabled), 2,000 demo reports, ${runs} run${runs > 1 ? 's' : ''} (milliseconds, one figure per run). FCP is the inline loading state; content visible: the form, the list rows, the title, the dashboard's cards; complete: nothing left to fetch (and on the dashboard every chart and the map drawn); LCP is read once complete; its element is the one the browser named, with the nearest block that has a test id.`,
          columns: ['Screen', 'FCP', 'content visible', 'complete', 'LCP', 'LCP element'],
          rows: screens.map((screen) => [
            screen.name,
            cells(screen.name, 'fcp'),
            cells(screen.name, 'visible'),
            cells(screen.name, 'complete'),
            cells(screen.name, 'lcp'),
            [...new Set(figures.get(screen.name)!.map((timing) => timing.element))].join(' / '),
          ]),
        },
      ]),
    );
    console.info(`\n${markdown}`);
  } finally {
    await browser.close();
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
