// The build's warnings, as the tools print them (excerpts of real outputs), are found; a clean build's output
// is not flagged; and the chunk size line holds every JavaScript file but the listed exceptions.
import { describe, expect, it } from 'vitest';
import { warningLines } from './build-check';
import { chunkName, chunkSizeWarnings, LARGE_CHUNKS, precachedFiles } from './vite-plugins';

const CLEAN = `
> signalements@0.1.0 build
> vite build && npm run build:server

vite v8.3.8 building client environment for production...
transforming...
✓ 408 modules transformed.
rendering chunks...
computing gzip size...
dist/web/index.html                                        1.90 kB │ gzip:   0.74 kB
dist/web/assets/warning-banner-B_Qm7dIe.js                 0.51 kB │ gzip:   0.33 kB
dist/web/assets/maplibre-gl-BUwiJpK_.js                1,106.49 kB │ gzip: 298.84 kB

✓ built in 8.46s
[plugin signalements-precompress] 51 fichiers précompressés : 3194.5 KiB → brotli 744.0 KiB, gzip 888.3 KiB

> signalements@0.1.0 build:server
> esbuild server/index.ts --bundle --platform=node --log-level=warning --outdir=dist/server
`;

describe('build warnings', () => {
  it('finds none in a clean build, whatever the files are named', () => {
    expect(warningLines(CLEAN)).toEqual([]);
  });

  it("leaves npm's word on the machine's own configuration (a key of ~/.npmrc it does not know)", () => {
    const machine = ['env', 'user', 'global']
      .map(
        (where) =>
          `npm warn Unknown ${where} config "nodedir". This will stop working in the next major version of npm. See \`npm help npmrc\` for supported config options.`,
      )
      .join('\n');
    expect(warningLines(`${machine}\n${CLEAN}${machine}\n`)).toEqual([]);
  });

  it.each([
    [
      "\u001b[33m(!) Your Vite config uses features that are unsupported by `configLoader: 'native'`, which is planned to become the default in a future major version of Vite:\u001b[39m",
    ],
    [' WARN  advancedChunks option is deprecated, please use codeSplitting instead.'],
    [
      '\u001b[33m[PLUGIN_TIMINGS] \u001b[0mJavaScript callbacks ran for 13.2s. The build took 7.4s. Callbacks such as `closeBundle` run after the build ends, so callback time can be more than build time.',
    ],
    ['(!) Some chunks are larger than 500 kB after minification. Consider:'],
    [
      '[plugin signalements-chunk-sizes] assets/apex-chart-DEiz5u3J.js : 711.7 kB, au-delà du plafond de 700 kB',
    ],
    ['[plugin vite:reporter] something the reporter warns about'],
    ['▲ [WARNING] Comparison using the "===" operator here is always false [equals-negative-zero]'],
    ['npm warn EBADENGINE Unsupported engine {'],
    [
      'npm warn Unknown project config "nodedir". This will stop working in the next major version of npm. See `npm help npmrc` for supported config options.',
    ],
    ['(node:4242) ExperimentalWarning: Type Stripping is an experimental feature'],
    ['(node:4242) [DEP0040] DeprecationWarning: The `punycode` module is deprecated.'],
  ])('finds %s', (line) => {
    expect(warningLines(`${CLEAN}${line}\n`)).toHaveLength(1);
  });
});

describe('chunk sizes', () => {
  it('names a hashed JavaScript file without its hash', () => {
    expect(chunkName('assets/maplibre-gl-BUwiJpK_.js')).toBe('maplibre-gl');
    expect(chunkName('assets/maplibre-gl-worker-DTh23QKw.js')).toBe('maplibre-gl-worker');
    expect(chunkName('assets/regions-BneNIzdy.geojson')).toBeNull();
  });

  it('lets the listed libraries pass under their ceiling, and warns for any other file over 500 kB', () => {
    const maplibre = LARGE_CHUNKS.find((chunk) => chunk.name === 'maplibre-gl')!;
    expect(
      chunkSizeWarnings([
        { fileName: 'assets/maplibre-gl-BUwiJpK_.js', bytes: maplibre.maxBytes },
        { fileName: 'assets/index-5Py-D21B.js', bytes: 500_000 },
      ]),
    ).toEqual([]);
    const warnings = chunkSizeWarnings([
      { fileName: 'assets/maplibre-gl-BUwiJpK_.js', bytes: maplibre.maxBytes + 1 },
      { fileName: 'assets/index-5Py-D21B.js', bytes: 500_001 },
    ]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('plafond');
    expect(warnings[1]).toContain('LARGE_CHUNKS');
  });

  it('gives every deliberate exception a reason and a ceiling above the line', () => {
    for (const chunk of LARGE_CHUNKS) {
      expect(chunk.reason.length).toBeGreaterThan(20);
      expect(chunk.maxBytes).toBeGreaterThan(500_000);
    }
  });
});

describe("the service worker's precache", () => {
  it('keeps the built client but the large libraries, the worker itself and what is never served', () => {
    expect(
      precachedFiles([
        'index.html',
        'assets/index-5Py-D21B.js',
        'assets/index-BH8TD0u5.css',
        'assets/regions-BneNIzdy.geojson',
        'assets/maplibre-gl-BUwiJpK_.js',
        'assets/maplibre-gl-worker-DTh23QKw.js',
        'assets/apex-chart-DEiz5u3J.js',
        'assets/apex-chart-CATwEGZH.css',
        '.vite/manifest.json',
        'index.html.br',
        'sw.js',
        'manifest.webmanifest',
        'icons/icon-192.png',
      ]),
    ).toEqual([
      'assets/apex-chart-CATwEGZH.css',
      'assets/index-5Py-D21B.js',
      'assets/index-BH8TD0u5.css',
      'assets/regions-BneNIzdy.geojson',
      'icons/icon-192.png',
      'index.html',
      'manifest.webmanifest',
    ]);
  });
});
