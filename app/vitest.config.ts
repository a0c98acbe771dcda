import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { testDeps } from './vitest.deps.ts';

const INCLUDE = [
  'server/**/*.test.ts',
  'shared/**/*.test.ts',
  'drizzle/**/*.test.ts',
  'web/**/*.test.{ts,tsx}',
  'scripts/**/*.test.ts',
];
const EXCLUDE = ['tests/e2e/**', 'node_modules/**'];

/**
 * The test files that replace a module (vi.mock): each runs in a process of its own, since a module that an
 * earlier file of the same process loaded would escape the replacement. Found by reading the files (from
 * this folder, wherever Vitest was started), so a new one needs no list kept by hand.
 */
const MOCKING = INCLUDE.flatMap((pattern) =>
  globSync(pattern, { cwd: import.meta.dirname, exclude: EXCLUDE }),
).filter((file) => /\bvi\s*\.\s*(mock|doMock)\b/.test(readFileSync(join(import.meta.dirname, file), 'utf8')));

export default defineConfig({
  test: {
    // The server and its threads' modules bundled once per run (tests/server-bundle.ts).
    globalSetup: ['tests/server-bundle.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file per core, as Vitest 4 ran them: Vitest 5 runs one fewer by default (a single file
    // at a time on a 2-core machine, which doubled the suite's time).
    maxWorkers: '100%',
    deps: testDeps,
    // What a test stubs (vi.stubGlobal, vi.stubEnv) is put back before the next test, and at the end of its
    // file (tests/put-back.ts): the next file of its process reads the same globals.
    unstubGlobals: true,
    unstubEnvs: true,
    setupFiles: ['tests/put-back.ts'],
    projects: [
      {
        // A worker runs its files one after the other in one process, loading the server's modules once
        // instead of once per file (the unit tests 606 → 494 s on the 2-core machine). Every file builds its
        // own app and database (tests/helpers) and puts back what it changes of the process (TZ, timers,
        // globals).
        test: { name: 'unit', include: INCLUDE, exclude: [...EXCLUDE, ...MOCKING], isolate: false },
      },
      { test: { name: 'unit (isolated)', include: MOCKING, exclude: EXCLUDE } },
    ],
  },
});
