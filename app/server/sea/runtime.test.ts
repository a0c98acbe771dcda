// The single executable's files on disk (docs/decisions/0041-single-executable.md): written once per
// build into data/.runtime/<id>/, complete or absent, and the runtimes of other builds removed.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureRuntime, pruneRuntimes, runtimesDir, safeKey, type Manifest } from './runtime';

const manifest = (id: string, files: string[]): Manifest => ({
  name: 'signalements',
  version: '0.1.0',
  id,
  files,
});
const bytes = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;

describe('the executable runtime folder', () => {
  const homes: string[] = [];
  const home = () => {
    const dir = mkdtempSync(join(tmpdir(), 'signalements-runtime-'));
    homes.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('writes every file once under data/.runtime/<id>, in a data folder only its owner opens, and reuses it', () => {
    const h = home();
    const reads: string[] = [];
    const read = (key: string) => {
      reads.push(key);
      return bytes(`contenu de ${key}`);
    };
    const m = manifest('0.1.0-aaaa', ['package.json', 'dist/server/index.mjs', 'native/argon2.node']);
    const dir = ensureRuntime(h, m, read);
    expect(dir).toBe(join(h, 'data', '.runtime', '0.1.0-aaaa'));
    expect(readFileSync(join(dir, 'dist/server/index.mjs'), 'utf8')).toBe('contenu de dist/server/index.mjs');
    expect(statSync(join(h, 'data')).mode & 0o777).toBe(0o700);
    expect(readdirSync(runtimesDir(h))).toEqual(['0.1.0-aaaa']);
    reads.length = 0;
    expect(ensureRuntime(h, m, read)).toBe(dir);
    expect(reads).toEqual([]);
  });

  it('leaves no runtime folder when writing fails midway, only what the next prune removes', () => {
    const h = home();
    const m = manifest('0.1.0-bbbb', ['a.txt', 'b.txt']);
    expect(() =>
      ensureRuntime(h, m, (key) => {
        if (key === 'b.txt') throw new Error('disque plein');
        return bytes(key);
      }),
    ).toThrow('disque plein');
    expect(existsSync(join(runtimesDir(h), '0.1.0-bbbb'))).toBe(false);
    expect(readdirSync(runtimesDir(h))).toEqual([]);
  });

  it('refuses a file name that would leave the runtime folder', () => {
    for (const key of ['../data.key', 'a/../../b', '/etc/passwd', 'a\\b', '', 'a//b', './a'])
      expect(safeKey(key), key).toBe(false);
    for (const key of ['dist/web/index.html', 'native/better_sqlite3.node', 'a..b/c'])
      expect(safeKey(key), key).toBe(true);
    const h = home();
    expect(() => ensureRuntime(h, manifest('0.1.0-cccc', ['../évasion']), () => bytes('x'))).toThrow(
      'fichier intégré au nom invalide',
    );
    expect(existsSync(join(h, 'data', 'évasion'))).toBe(false);
  });

  it('removes the runtimes of other builds and dead temporary folders, keeping its own and one being written', () => {
    const h = home();
    const root = runtimesDir(h);
    ensureRuntime(h, manifest('0.1.0-new', ['a.txt']), () => bytes('a'));
    for (const name of [
      '0.1.0-old',
      '.tmp-0.1.0-old-123',
      '.tmp-0.1.0-new-999999999',
      `.tmp-0.1.0-new-${process.pid}`,
    ])
      mkdirSync(join(root, name));
    const removed = pruneRuntimes(h, '0.1.0-new');
    expect(removed.sort()).toEqual(['.tmp-0.1.0-new-999999999', '.tmp-0.1.0-old-123', '0.1.0-old']);
    expect(readdirSync(root).sort()).toEqual([`.tmp-0.1.0-new-${process.pid}`, '0.1.0-new']);
  });
});
