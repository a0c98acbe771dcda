// The single executable's files on disk (docs/decisions/0041-single-executable.md): the server bundle, its
// thread modules, the client, the migrations, the geography and the native modules travel as assets of
// the executable; at start they are written once to data/.runtime/<id>/ (the id names the version and
// the content), laid out as the project is, so that the bundle finds them as `npm start` does. Builtins
// only: this runs in the executable's main script, where require() loads nothing else.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';

/** What the executable carries (asset `manifest.json`, written by scripts/package.ts). */
export interface Manifest {
  name: string;
  version: string;
  /** `<version>-<hash of every file's path and content>`: a new build gets a new folder. */
  id: string;
  /** Asset keys, each the file's path under the runtime folder (`dist/server/index.mjs`). */
  files: string[];
}

/** The folder of every extracted runtime, under the folder the executable starts in. */
export const runtimesDir = (home: string) => join(home, 'data', '.runtime');

/** A key that stays inside the runtime folder once joined to it. */
export function safeKey(key: string): boolean {
  if (!key || isAbsolute(key) || key.includes('\\') || key.includes('\0')) return false;
  const normal = normalize(key);
  return normal === key && !normal.startsWith('..') && !normal.split(sep).includes('..');
}

/**
 * The runtime folder of `manifest`, written if missing. Files go to a temporary folder renamed into
 * place at the end, so a folder that exists is complete: a start interrupted midway leaves only a
 * temporary folder (removed by the next prune), and two starts at once both succeed (one rename wins).
 */
export function ensureRuntime(home: string, manifest: Manifest, read: (key: string) => ArrayBuffer): string {
  const root = runtimesDir(home);
  const dir = join(root, manifest.id);
  if (isDirectory(dir)) return dir;
  // data/ holds the database and its key: owner-only, as the server makes it (server/paths.ts).
  mkdirSync(join(home, 'data'), { recursive: true, mode: 0o700 });
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const temporary = join(root, `.tmp-${manifest.id}-${process.pid}`);
  rmSync(temporary, { recursive: true, force: true });
  try {
    for (const key of manifest.files) {
      if (!safeKey(key)) throw new Error(`fichier intégré au nom invalide : ${key}`);
      const target = join(temporary, key);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, new Uint8Array(read(key)));
    }
    try {
      renameSync(temporary, dir);
    } catch (error) {
      // Another start of the same executable finished first: its folder is the same.
      if (!isDirectory(dir)) throw error;
    }
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
  return dir;
}

/** Removes the runtimes of other builds (and left-over temporary folders); returns their names. */
export function pruneRuntimes(home: string, keepId: string): string[] {
  let names: string[];
  try {
    names = readdirSync(runtimesDir(home));
  } catch {
    return [];
  }
  // A temporary folder of this build belongs to a start under way while its process lives.
  const underWay = (name: string) =>
    name.startsWith(`.tmp-${keepId}-`) && alive(Number(name.split('-').pop()));
  const removed = names.filter((name) => name !== keepId && !underWay(name));
  for (const name of removed) rmSync(join(runtimesDir(home), name), { recursive: true, force: true });
  return removed;
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
