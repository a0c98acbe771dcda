// drizzle-orm pre-bundled by Vitest's dependency optimizer, for both test configurations (vitest.config.ts,
// tests/e2e/vitest.config.ts). Loaded from node_modules under Node 24, each of its 448 module files reads
// its 179 KB package.json again: about 600 ms and 150 MB more per test file (each file gets a fresh
// process); pre-bundled, 30 ms (docs/decisions/0050). The server's build bundles it likewise.
export const DRIZZLE_ENTRIES = [
  'drizzle-orm',
  'drizzle-orm/sqlite-core',
  'drizzle-orm/pg-core',
  'drizzle-orm/better-sqlite3',
  'drizzle-orm/better-sqlite3/migrator',
  'drizzle-orm/node-postgres',
  'drizzle-orm/node-postgres/migrator',
  'drizzle-orm/sqlite-proxy',
  'drizzle-orm/migrator',
];

export const testDeps = {
  optimizer: { ssr: { enabled: true, include: DRIZZLE_ENTRIES, exclude: ['pg', 'better-sqlite3'] } },
};
