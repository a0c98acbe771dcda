// Bundle budget (README « Delivery », run by `npm test` after the build): the JavaScript a screen downloads
// on its first load, brotli-compressed as the server sends it. A screen loads index.html's entry, the lazy
// chunk of its page (web/routes.tsx) and every chunk those import statically. Log-in and list must stay
// under 170 KB; the dashboard's first load must not carry the charts or the map, which it imports lazily
// after its figures. Reads Vite's manifest (dist/web/.vite/manifest.json): run `npm run build` first.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cliOptions } from './cli';
import { brotliSize } from './compress-assets';
import { measured, writeFigures, type Cell } from './figures';
import { LARGE_CHUNKS } from './vite-plugins';

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, Chunk>;

/** 170 KB, the budget for the log-in and list screens (README « Delivery »). */
export const BUDGET_BYTES = 170 * 1000;
/** Manifest keys of the lazily loaded heavy parts the dashboard must not load with its figures. */
const HEAVY = /apexcharts|maplibre-gl|react-map-gl|features\/dashboard\/(apex-chart|geo-map)/;

export const SCREENS = [
  { name: 'Connexion (/login)', page: 'features/auth/login-page.tsx', budget: BUDGET_BYTES },
  {
    name: 'Liste (/signalement/list)',
    page: 'features/signalement/signalement-list-page.tsx',
    budget: BUDGET_BYTES,
  },
  {
    name: 'Tableau de bord (/dashboard)',
    page: 'features/dashboard/dashboard-page.tsx',
    budget: null,
    noHeavy: true,
  },
] as const;

/** The manifest keys a screen loads first: the entry, its page, and their static imports, transitively. */
export function firstLoad(manifest: Manifest, page: string): string[] {
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error('Manifeste sans point d’entrée.');
  if (!manifest[page]) throw new Error(`Page absente du manifeste : ${page}`);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  visit(entry);
  visit(page);
  return [...seen];
}

export function heavyChunks(keys: string[]): string[] {
  return keys.filter((key) => HEAVY.test(key));
}

function run(webRoot: string, figures: boolean): number {
  const manifestPath = join(webRoot, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) {
    console.error(`Manifeste introuvable (${manifestPath}) : lancez « npm run build ».`);
    return 1;
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const size = (key: string): number => {
    const file = join(webRoot, manifest[key]!.file);
    return existsSync(`${file}.br`) ? readFileSync(`${file}.br`).length : brotliSize(readFileSync(file));
  };
  const failures: string[] = [];
  const rows = SCREENS.map((screen) => {
    const keys = firstLoad(manifest, screen.page);
    const bytes = keys.reduce((sum, key) => sum + size(key), 0);
    if (screen.budget !== null && bytes > screen.budget) {
      failures.push(
        `${screen.name} : ${(bytes / 1000).toFixed(1)} KB de JS compressé, au-delà du budget de ${screen.budget / 1000} KB.`,
      );
    }
    const heavy = 'noHeavy' in screen ? heavyChunks(keys) : [];
    if (heavy.length > 0) {
      failures.push(
        `${screen.name} : le premier chargement inclut ${heavy.join(', ')} ; graphiques et carte doivent être importés à la demande.`,
      );
    }
    return {
      écran: screen.name,
      fichiers: keys.length,
      'JS brotli (KB)': Number((bytes / 1000).toFixed(1)),
      budget: screen.budget === null ? 'sans graphiques ni carte' : `${screen.budget / 1000} KB`,
      verdict: failures.some((f) => f.startsWith(screen.name)) ? 'DÉPASSÉ' : 'ok',
    };
  });
  console.info('Budget du premier chargement (JS, brotli qualité 11) :');
  const columns = Object.keys(rows[0]!) as (keyof (typeof rows)[number])[];
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => String(row[column]).length)),
  );
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
  console.info(line(columns));
  for (const row of rows) console.info(line(columns.map((column) => String(row[column]))));
  for (const failure of failures) console.error(failure);
  if (figures) {
    console.info(`\n${writeFigures(bundleFigures(webRoot, manifest, rows))}`);
  }
  return failures.length > 0 ? 1 : 0;
}

/** Files of the client from this size (minified) are listed with the first loads. */
const LISTED_FROM_BYTES = 100 * 1000;

/** docs/figures/bundle.json: each screen's first load, then the client's largest files, loaded on demand. */
function bundleFigures(
  webRoot: string,
  manifest: Manifest,
  rows: { écran: string; fichiers: number; 'JS brotli (KB)': number; budget: string; verdict: string }[],
) {
  const firstLoaded = new Set(
    SCREENS.flatMap((screen) => firstLoad(manifest, screen.page)).map((key) => manifest[key]!.file),
  );
  // Every file of assets/, not only the manifest's chunks: MapLibre's worker is an asset of its own.
  const large: Cell[][] = readdirSync(join(webRoot, 'assets'))
    .filter((file) => file.endsWith('.js'))
    .map((file) => {
      const data = readFileSync(join(webRoot, 'assets', file));
      const name = file.replace(/-[A-Za-z0-9_-]{8}\.js$/, '');
      const deliberate = LARGE_CHUNKS.some((chunk) => chunk.name === name);
      return {
        bytes: data.length,
        row: [
          name,
          Number((data.length / 1000).toFixed(1)),
          Number((brotliSize(data) / 1000).toFixed(1)),
          firstLoaded.has(`assets/${file}`) ? 'first load' : 'on demand',
          deliberate ? 'yes (scripts/vite-plugins.ts)' : data.length > 500_000 ? 'NO' : '',
        ],
      };
    })
    .filter(({ bytes }) => bytes >= LISTED_FROM_BYTES)
    .sort((a, b) => b.bytes - a.bytes)
    .map(({ row }) => row);
  return measured('bundle', 'npm run budget -- --figures', [
    {
      caption:
        'First load of each screen: its JavaScript, brotli quality 11, as the server sends it (KB of 1,000 bytes).',
      columns: ['Screen', 'files', 'JS brotli (KB)', 'budget', 'verdict'],
      rows: rows.map((row) => [row.écran, row.fichiers, row['JS brotli (KB)'], row.budget, row.verdict]),
    },
    {
      caption: `The client's JavaScript files of ${LISTED_FROM_BYTES / 1000} kB or more (minified, and brotli): over 500 kB only where listed with its reason.`,
      columns: ['file', 'minified (kB)', 'brotli (kB)', 'loaded', 'over 500 kB by decision'],
      rows: large,
    },
  ]);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const { positionals, values } = cliOptions(
    `Usage : npm run budget [-- [--figures] <dossier du client construit>]

Vérifie le budget de JavaScript du premier chargement de chaque écran (brotli, d'après le manifeste de
Vite) : connexion et liste au plus 170 KB, tableau de bord sans graphiques ni carte. Dossier par défaut :
dist/web. Sort en erreur si un budget est dépassé. Avec --figures, écrit aussi les tailles dans
docs/figures/bundle.json et affiche leur tableau pour le README (« npm run readme:figures »).`,
    { figures: { type: 'boolean' } },
  );
  process.exitCode = run(resolve(positionals[0] ?? 'dist/web'), values.figures === true);
}
