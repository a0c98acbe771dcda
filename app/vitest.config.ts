import { defineConfig } from 'vitest/config';
import { testDeps } from './vitest.deps.ts';

export default defineConfig({
  test: {
    include: [
      'server/**/*.test.ts',
      'shared/**/*.test.ts',
      'drizzle/**/*.test.ts',
      'web/**/*.test.{ts,tsx}',
      'scripts/**/*.test.ts',
    ],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    // The server and its threads' modules bundled once per run (tests/server-bundle.ts).
    globalSetup: ['tests/server-bundle.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file per core, as Vitest 4 ran them: Vitest 5 runs one fewer by default (a single file
    // at a time on a 2-core machine, which doubled the suite's time).
    maxWorkers: '100%',
    deps: testDeps,
  },
});
