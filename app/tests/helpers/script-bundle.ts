// Scripts of scripts/ as the tests start them: bundled as the server is (serverBundleOptions: drizzle-orm
// in, every other package external) into a folder of their own under node_modules/.cache, where their
// packages resolve as the build's do. Through tsx each process transformed the server's modules again and
// read drizzle-orm's package.json once per file of it (decision 0050): 3–6 s per process on the 2-core
// machine, against 0.3–1.3 s bundled. The code is the sources' (PROJECT_ROOT is still found above the
// folder, server/paths.ts); a test that checks the npm script's own command keeps tsx.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { SERVER_ENTRIES, serverBundleOptions } from '../../scripts/server-entries';

const ROOT = resolve(import.meta.dirname, '../..');

export interface BundledScripts {
  /** The arguments of `node` that run `script` (its path from the project's root, as `scripts/x.ts`). */
  argv(script: string): string[];
  remove(): void;
}

export async function bundleScripts(scripts: string[]): Promise<BundledScripts> {
  const cache = join(ROOT, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  // Removed by remove(); a killed run's folder goes with the server bundles' (tests/server-bundle.ts).
  const dir = mkdtempSync(join(cache, 'server-bundle-scripts-'));
  // With the modules of the server's threads, which a bundled module starts from its own folder
  // (server/db/threads/entry.ts): a script that opens SQLite starts its reader threads.
  const threads = SERVER_ENTRIES.filter((entry) => entry !== 'server/index.ts');
  await build(serverBundleOptions([...scripts, ...threads], dir));
  return {
    argv(script) {
      if (!scripts.includes(script)) throw new Error(`${script} n'a pas été empaqueté`);
      return [join(dir, `${basename(script, '.ts')}.mjs`)];
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
