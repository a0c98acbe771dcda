// The client build's own Vite plugins (vite.config.ts): precompression of the written files, and the line
// on chunk sizes. Imported by the Vite config, so every relative import names its file with its extension
// and nothing reaches the server's modules: the config stays loadable by `configLoader: 'native'`.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { build } from 'esbuild';
import type { Plugin } from 'vite';
import { compressAssets, summary } from './compress-assets.ts';

/** Vite's own line: a JavaScript file over 500 kB (minified, 1 kB = 1000 bytes) is a warning. */
export const CHUNK_LIMIT_BYTES = 500 * 1000;

export interface LargeChunk {
  /** The file's name without its content hash: `assets/<name>-<hash>.js`. */
  name: string;
  /** Ceiling in bytes, minified; a growth past it is a warning again. */
  maxBytes: number;
  reason: string;
}

/**
 * The files deliberately over the 500 kB line: each is one library that cannot be split further and is loaded
 * only by the screen that draws it, after that screen's figures (scripts/bundle-budget.ts checks that no
 * first load carries them). Any other file over 500 kB, or one of these over its ceiling, warns at build.
 */
export const LARGE_CHUNKS: readonly LargeChunk[] = [
  {
    name: 'maplibre-gl',
    maxBytes: 1_150_000,
    reason:
      'MapLibre GL, one library shipped as one ES module; loaded lazily by the dashboard map only (geo-map.tsx)',
  },
  {
    name: 'maplibre-gl-worker',
    maxBytes: 560_000,
    reason:
      "MapLibre's tile worker, one file the map starts in a Web Worker; fetched only by the dashboard map",
  },
  {
    name: 'apex-chart',
    maxBytes: 750_000,
    reason:
      "apexcharts' core with only the chart types and features used (apex-chart.ts); the core alone is about 600 kB; loaded lazily with the first chart of the dashboard or the analysis",
  },
];

/** `assets/maplibre-gl-BUwiJpK_.js` → `maplibre-gl`; null for a file that is not hashed JavaScript. */
export function chunkName(fileName: string): string | null {
  const match = /(?:^|\/)([^/]+)-[A-Za-z0-9_-]{8}\.m?js$/.exec(fileName);
  return match ? match[1]! : null;
}

/** The French warning for each JavaScript file over the line that is not listed, or over its own ceiling. */
export function chunkSizeWarnings(
  files: { fileName: string; bytes: number }[],
  large: readonly LargeChunk[] = LARGE_CHUNKS,
): string[] {
  const warnings: string[] = [];
  for (const { fileName, bytes } of files) {
    const name = chunkName(fileName);
    if (name === null) continue;
    const listed = large.find((chunk) => chunk.name === name);
    const kb = (bytes / 1000).toFixed(1);
    if (listed && bytes > listed.maxBytes) {
      warnings.push(
        `${fileName} : ${kb} kB, au-delà du plafond de ${listed.maxBytes / 1000} kB fixé dans scripts/vite-plugins.ts (${listed.reason}).`,
      );
    } else if (!listed && bytes > CHUNK_LIMIT_BYTES) {
      warnings.push(
        `${fileName} : ${kb} kB, au-delà de ${CHUNK_LIMIT_BYTES / 1000} kB. Découpez-le (import() à la demande), ou inscrivez-le dans LARGE_CHUNKS (scripts/vite-plugins.ts) avec sa raison.`,
      );
    }
  }
  return warnings;
}

/**
 * Holds the 500 kB line for every JavaScript file the build writes, chunks and assets alike (MapLibre's
 * worker is an asset Vite itself never measures), with the deliberate exceptions of LARGE_CHUNKS.
 */
export function chunkSizes(): Plugin {
  return {
    name: 'signalements-chunk-sizes',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = Object.values(bundle).map((output) => ({
        fileName: output.fileName,
        bytes:
          output.type === 'chunk'
            ? Buffer.byteLength(output.code)
            : typeof output.source === 'string'
              ? Buffer.byteLength(output.source)
              : output.source.length,
      }));
      for (const warning of chunkSizeWarnings(files)) this.warn(warning);
    },
  };
}

/** After the client is written, a .br and a .gz beside each compressible file (scripts/compress-assets.ts). */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'signalements-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      this.info(summary(await compressAssets(outDir)));
    },
  };
}

/** Every file under `dir`, as paths relative to it with forward slashes. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/**
 * The files the service worker keeps at install (docs/decisions/0049-installable-offline-shell.md): the whole
 * built client but Vite's manifest and the LARGE_CHUNKS, which only the dashboard's map and charts load and
 * which the worker keeps the first time they are used instead.
 */
export function precachedFiles(fileNames: readonly string[]): string[] {
  return fileNames
    .filter((fileName) => !fileName.startsWith('.vite/') && fileName !== 'sw.js')
    .filter((fileName) => !/\.(?:br|gz)$/.test(fileName))
    .filter((fileName) => {
      const name = chunkName(fileName);
      return name === null || !LARGE_CHUNKS.some((chunk) => chunk.name === name);
    })
    .sort();
}

/**
 * Writes `sw.js` beside index.html: web/sw/sw.ts bundled by esbuild, with the list of files to keep and a
 * version that changes with any of them (a new build gives a new worker, which deletes the old caches).
 */
export function serviceWorker(entry: string): Plugin {
  let publicDir = '';
  let base = '/';
  return {
    name: 'signalements-service-worker',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      publicDir = config.publicDir;
      base = config.base;
    },
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const contents = new Map<string, Uint8Array | string>();
        for (const output of Object.values(bundle)) {
          contents.set(output.fileName, output.type === 'chunk' ? output.code : output.source);
        }
        if (publicDir) {
          for (const file of filesUnder(publicDir)) contents.set(file, readFileSync(join(publicDir, file)));
        }
        const files = precachedFiles([...contents.keys()]);
        const hash = createHash('sha256');
        for (const file of files) hash.update(file).update('\0').update(contents.get(file)!).update('\0');
        const result = await build({
          entryPoints: [entry],
          bundle: true,
          write: false,
          format: 'iife',
          target: 'es2022',
          minify: true,
          legalComments: 'none',
          logLevel: 'warning',
          define: {
            __SW_VERSION__: JSON.stringify(hash.digest('hex').slice(0, 16)),
            __SW_PRECACHE__: JSON.stringify(files.map((file) => `${base}${file}`)),
          },
        });
        this.emitFile({ type: 'asset', fileName: 'sw.js', source: result.outputFiles[0]!.text });
      },
    },
  };
}
