// Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside every compressible file of the
// built client, once at build time, so the server only picks one by Accept-Encoding (@fastify/static
// `preCompressed`) and never compresses on a request. Run by the Vite plugin in scripts/vite-plugins.ts after
// `vite build`; `tsx scripts/precompress.ts [dir]` does it again by hand. Node's own modules only: the Vite
// config loads this file, and its imports stay loadable by Node's native TypeScript loader.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import {
  brotliCompress as brotliCallback,
  brotliCompressSync,
  constants,
  gzip as gzipCallback,
} from 'node:zlib';

const brotliAsync = promisify(brotliCallback);
const gzipAsync = promisify(gzipCallback);

/** Text formats worth compressing; images, fonts and source maps (never built for the client) are left as they are. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/i;
/** Below this size the headers cost more than the saving. */
const MIN_BYTES = 512;

export interface CompressedFile {
  file: string;
  raw: number;
  br: number;
  gz: number;
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // .vite holds the manifest: read by scripts, never served.
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

function brotliOptions(data: Buffer) {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  };
}

/** The size the browser downloads for `data` served as brotli at quality 11. */
export function brotliSize(data: Buffer): number {
  return brotliCompressSync(data, brotliOptions(data)).length;
}

/**
 * Compresses every compressible file under `dir`; a variant is kept only when it is smaller than the
 * original (the server then falls back to the next encoding, and finally to the file itself).
 */
export async function compressAssets(dir: string): Promise<CompressedFile[]> {
  const files = [...walk(dir)].filter((path) => COMPRESSIBLE.test(path) && statSync(path).size >= MIN_BYTES);
  // zlib's asynchronous calls run on libuv's thread pool: the files are compressed in parallel.
  return Promise.all(
    files.map(async (path) => {
      const data = readFileSync(path);
      const [br, gz] = await Promise.all([
        brotliAsync(data, brotliOptions(data)),
        gzipAsync(data, { level: 9 }),
      ]);
      if (br.length < data.length) writeFileSync(`${path}.br`, br);
      if (gz.length < data.length) writeFileSync(`${path}.gz`, gz);
      return { file: relative(dir, path), raw: data.length, br: br.length, gz: gz.length };
    }),
  );
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

export function summary(files: CompressedFile[]): string {
  const total = (key: 'raw' | 'br' | 'gz') => files.reduce((sum, f) => sum + f[key], 0);
  return `${files.length} fichiers précompressés : ${kib(total('raw'))} → brotli ${kib(total('br'))}, gzip ${kib(total('gz'))}`;
}
