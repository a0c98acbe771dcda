// Vitest's global setup (vitest.config.ts): bundles the server and the modules its threads run (read tasks,
// exports) as `npm run build:server` bundles them, into a folder of this run, and names it to the test
// processes in SERVER_BUNDLE_DIR. A thread started from the TypeScript sources goes through tsx and loads
// drizzle-orm's 448 files, about a second and 150 MB or more under Node 24 (decision 0050), and the suite
// starts one for every test app and every export (server/db/threads/entry.ts); so does every server process
// a test starts from server/index.ts (tests/helpers/server-process.ts). Bundled again before each rerun of
// watch mode, so that a thread or a server process never runs older code than its test.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { SERVER_ENTRIES, serverBundleOptions } from '../scripts/server-entries';

const ROOT = resolve(import.meta.dirname, '..');

export default async function setup(project: TestProject) {
  // Under node_modules, so that the bundles find the packages they leave external as the build's do.
  const cache = join(ROOT, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  // A run that was killed left its folder: those of a day ago or more go (a run takes minutes).
  for (const name of readdirSync(cache)) {
    const old = join(cache, name);
    if (name.startsWith('server-bundle-') && statSync(old).mtimeMs < Date.now() - 86_400_000)
      rmSync(old, { recursive: true, force: true });
  }
  const dir = mkdtempSync(join(cache, 'server-bundle-'));
  const bundle = async () => {
    await build(serverBundleOptions(SERVER_ENTRIES, dir));
  };
  await bundle();
  process.env.SERVER_BUNDLE_DIR = dir;
  project.onTestsRerun(bundle);
  return () => rmSync(dir, { recursive: true, force: true });
}
