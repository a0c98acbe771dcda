// Files the server reads at run time, located from the project root: the same paths whether the
// server runs from its TypeScript sources (tsx, tests), from the bundle `npm run build` writes to
// dist/server/index.mjs, or from the single executable's copy of the project's layout under
// data/.runtime/<id>/ (docs/decisions/0041-single-executable.md).
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The nearest folder above `from` that holds package.json. */
export function findProjectRoot(from: string): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`package.json introuvable au-dessus de ${from}`);
  }
}

export const PROJECT_ROOT = findProjectRoot(import.meta.dirname);

/** Whether this process is the single executable (`./signalements`). */
export const IN_EXECUTABLE = (process.getBuiltinModule('node:sea') as { isSea(): boolean }).isSea();

/**
 * The folder that holds `data/` when no setting names it: the project's, or for the single executable
 * the folder it was started in (its PROJECT_ROOT is the runtime copy, replaced by the next build).
 */
export const HOME = IN_EXECUTABLE ? process.cwd() : PROJECT_ROOT;

export const PATHS = {
  webRoot: join(PROJECT_ROOT, 'dist/web'),
  geoData: join(PROJECT_ROOT, 'server/db/seed/geo-data'),
  migrations: {
    sqlite: join(PROJECT_ROOT, 'drizzle/migrations/sqlite'),
    postgres: join(PROJECT_ROOT, 'drizzle/migrations/pg'),
  },
} as const;

/**
 * Creates `dir` (and any missing parent) for this user alone (0700), or takes the group's and others'
 * rights off an existing one: the database folder holds the database, its WAL, the data key and the
 * backups. A folder of another owner (a shared mount) is left as it is.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  tightenMode(dir);
}

/** Takes the group's and others' rights off an existing file or folder this user owns. */
export function tightenMode(path: string): void {
  if (process.platform === 'win32') return;
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return;
  }
  if ((stat.mode & 0o077) === 0 || stat.uid !== process.getuid?.()) return;
  chmodSync(path, stat.mode & 0o700);
}
