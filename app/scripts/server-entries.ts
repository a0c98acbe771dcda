// What the server's build is made of, for `npm run build:server` (build-server.ts) and the single executable
// (package.ts): its entries, and which packages stay in node_modules.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BuildOptions } from 'esbuild';

const root = resolve(import.meta.dirname, '..');

/** The entries: the server, and the modules its threads load beside it. */
export const SERVER_ENTRIES = [
  'server/index.ts',
  'server/domains/signalements/export-thread.ts',
  'server/db/threads/reader-thread.mjs',
  'server/domains/signalements/tasks/read-task-thread.ts',
];

/** Packages bundled into the server's files rather than loaded from node_modules (build-server.ts says why). */
export const BUNDLED_PACKAGES = ['drizzle-orm'];

/** Every package of package.json but the bundled ones: each stays an import of node_modules. */
export function externalPackages(): string[] {
  const manifest = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as Record<
    string,
    Record<string, string> | undefined
  >;
  const names = ['dependencies', 'devDependencies', 'optionalDependencies'].flatMap((field) =>
    Object.keys(manifest[field] ?? {}),
  );
  return [...new Set(names)].filter((name) => !BUNDLED_PACKAGES.includes(name)).sort();
}

/**
 * How esbuild bundles the server's modules, wherever they are written (build-server.ts, the benchmarks, the
 * tests: tests/server-bundle.ts): each entry a flat `<name>.mjs` of `outdir`, drizzle-orm bundled in, every other package
 * external.
 */
export function serverBundleOptions(entryPoints: string[], outdir: string): BuildOptions {
  return {
    absWorkingDir: root,
    entryPoints,
    outdir,
    entryNames: '[name]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    // A package name also covers its subpaths (esbuild: `pg` keeps `pg/lib/…` external too).
    external: externalPackages(),
    logLevel: 'warning',
  };
}
