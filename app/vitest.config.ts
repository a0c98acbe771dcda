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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    deps: testDeps,
  },
});
