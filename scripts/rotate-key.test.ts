import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatDataKey, generateDataKey, parseDataKey } from '../server/crypto/cipher';

const root = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'signalements-rotate-cli-'));
const url = `file:${join(dir, 'cli.db')}`;
const env = (extra: Record<string, string> = {}) => ({ ...process.env, DATABASE_URL: url, DATA_KEY: '', DATA_KEY_FILE: '', NEW_DATA_KEY: '', ...extra });
const run = (args: string[], extra: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'scripts/rotate-key.ts', ...args], { cwd: root, env: env(extra), encoding: 'utf8', timeout: 60_000 });

describe('npm run db:rotate-key', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers --help with its French usage', () => {
    const res = run(['--help']);
    expect(res.status).toBe(0);
    expect(res.stdout).toContain('Usage : npm run db:rotate-key [-- --new-key <clé>]');
    expect(res.stdout).toContain('Arrêtez le serveur avant de lancer cette commande.');
  });

  it('replaces the key file, keeping the old one, then refuses a wrong key and a malformed new key in French', () => {
    // First run on an empty database: the key file is created, then replaced.
    const first = run([]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('Clé de chiffrement remplacée.');
    const files = readdirSync(dir).filter((f) => f.startsWith('data.key'));
    expect(files).toHaveLength(2);
    const current = parseDataKey(readFileSync(join(dir, 'data.key'), 'utf8'))!;
    expect(first.stdout).not.toContain(formatDataKey(current));

    const wrong = run([], { DATA_KEY: formatDataKey(generateDataKey()) });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr.trim()).toBe(
      'La clé de chiffrement (DATA_KEY) ne correspond pas à cette base : les sources ne peuvent pas être lues. Le serveur ne démarre pas.',
    );
    const malformed = run(['--new-key', 'trop-court']);
    expect(malformed.status).toBe(1);
    expect(malformed.stderr).toContain('Nouvelle clé invalide : elle doit contenir 32 octets en base64 ou 64 caractères hexadécimaux.');
  });

  it('prints a generated key once when the current key comes from DATA_KEY', () => {
    const current = formatDataKey(parseDataKey(readFileSync(join(dir, 'data.key'), 'utf8'))!);
    const res = run([], { DATA_KEY: current });
    expect(res.status, res.stderr).toBe(0);
    const printed = res.stdout.match(/DATA_KEY=(\S+)/)![1]!;
    expect(parseDataKey(printed)).not.toBeNull();
    expect(printed).not.toBe(current);
  });

  it('makes the server refuse to start with the old key: one French line on stderr, exit code 1', () => {
    const res = spawnSync(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      cwd: root,
      env: env({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }),
      encoding: 'utf8',
      // A server that wrongly starts would listen forever.
      timeout: 60_000,
    });
    // The key file still holds the key replaced by DATA_KEY's rotation above.
    expect(res.status).toBe(1);
    expect(res.stderr.trim().split('\n')).toEqual([
      `La clé de chiffrement (fichier ${join(dir, 'data.key')}) ne correspond pas à cette base : les sources ne peuvent pas être lues. Le serveur ne démarre pas.`,
    ]);
  });
});
