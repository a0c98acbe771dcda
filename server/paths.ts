// Files the server reads at run time, located from the project root: the same paths whether the
// server runs from its TypeScript sources (tsx, tests) or from the bundle `npm run build` writes to
// dist/server/index.mjs.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The nearest folder above `from` that holds package.json. */
export function findProjectRoot(from: string): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`package.json introuvable au-dessus de ${from}`);
  }
}

export const PROJECT_ROOT = findProjectRoot(import.meta.dirname);

export const PATHS = {
  webRoot: join(PROJECT_ROOT, 'dist/web'),
  geoData: join(PROJECT_ROOT, 'server/db/seed/geo-data'),
  migrations: {
    sqlite: join(PROJECT_ROOT, 'drizzle/migrations/sqlite'),
    postgres: join(PROJECT_ROOT, 'drizzle/migrations/pg'),
  },
} as const;
