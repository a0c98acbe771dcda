// The one way to start a thread (decision 0024): from its module in the build, or from its source.
// `source` names the module beside its caller, `new URL('./export-thread.ts', import.meta.url)`:
// - built (`npm run build:server` bundles every entry flat into dist/server/, this file included), the
//   thread runs <name>.mjs beside the bundle, dist/server/<name>.mjs, which must be an entry of esbuild's
//   list in package.json;
// - from the sources (npm run dev, tests: this file is a .ts), a plain .mjs module runs as is and a .ts
//   one through tsx (tsx-entry.mjs, which imports the file given as its argument);
// - in the tests, the threads' modules are bundled as the build bundles them, once per run
//   (tests/server-bundle.ts, which names the folder in SERVER_BUNDLE_DIR): a thread through tsx loads
//   drizzle-orm's 448 files, a second and 150 MB or more on Node 24 (decision 0050), for each thread.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const FROM_SOURCES = import.meta.url.endsWith('.ts');

/** The module a thread runs and the arguments it gets (process.argv in the thread). */
export interface ThreadEntry {
  url: URL;
  argv: string[];
}

export function threadEntry(source: URL): ThreadEntry {
  if (!FROM_SOURCES) {
    const name = source.pathname.slice(source.pathname.lastIndexOf('/') + 1).replace(/\.(ts|mjs)$/, '');
    return { url: new URL(`./${name}.mjs`, import.meta.url), argv: [] };
  }
  if (source.pathname.endsWith('.ts')) {
    const bundles = process.env.SERVER_BUNDLE_DIR;
    const name = source.pathname.slice(source.pathname.lastIndexOf('/') + 1).replace(/\.ts$/, '');
    if (bundles && existsSync(join(bundles, `${name}.mjs`)))
      return { url: pathToFileURL(join(bundles, `${name}.mjs`)), argv: [] };
    return { url: new URL('./tsx-entry.mjs', import.meta.url), argv: [source.href] };
  }
  return { url: source, argv: [] };
}

/** A thread of `entry` with these options (workerData, resourceLimits…). */
export function startThread(entry: ThreadEntry, options: WorkerOptions = {}): Worker {
  return new Worker(entry.url, { ...options, argv: [...entry.argv, ...(options.argv ?? [])] });
}
