import { defineConfig } from 'vitest/config';
import { testDeps } from '../../vitest.deps.ts';

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['tests/e2e/**/*.e2e.ts'],
    // The server and its threads' modules bundled once per run (tests/server-bundle.ts).
    globalSetup: ['tests/server-bundle.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A browser on a loaded 2-core machine can take seconds to settle: poll up to 10 s (default 1 s).
    expect: { poll: { timeout: 10_000, interval: 100 } },
    pool: 'forks',
    // A worker runs its files one after the other in one process: each file starts its own server and
    // browser (harness.ts, which forgets the previous file's accounts), and the server's modules are loaded
    // once per worker instead of once per file (README « Test »: the browser tests' CPU 5 min 18 s → 4 min
    // 5 s and 4 min 26 s on the 2-core machine; their time moves with its load).
    isolate: false,
    // Stubs put back before each test and at the end of each file (tests/put-back.ts).
    unstubGlobals: true,
    unstubEnvs: true,
    setupFiles: ['tests/put-back.ts'],
    deps: testDeps,
    // Each file starts its own server and browser; two at a time fits the 2-core CI machine.
    maxWorkers: 2,
  },
});
