import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PG_ADMIN_URL, testEngines } from '#tests/helpers/db';
import { bundleScripts } from '#tests/helpers/script-bundle';
import {
  killHard,
  serverArgv,
  spawnServer,
  waitHealthy,
  type ServerProcess,
} from '#tests/helpers/server-process';
import { formatDataKey, generateDataKey, parseDataKey } from '#server/crypto/cipher';

const root = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'signalements-rotate-cli-'));
const url = `file:${join(dir, 'cli.db')}`;
const env = (extra: Record<string, string> = {}) => ({
  ...process.env,
  DATABASE_URL: url,
  DATA_KEY: '',
  DATA_KEY_FILE: '',
  NEW_DATA_KEY: '',
  ...extra,
});
const script = await bundleScripts(['scripts/rotate-key.ts']);
const run = (args: string[], extra: Record<string, string> = {}) =>
  spawnSync(process.execPath, [...script.argv('scripts/rotate-key.ts'), ...args], {
    cwd: root,
    env: env(extra),
    encoding: 'utf8',
    timeout: 60_000,
  });

afterAll(() => script.remove());

describe('npm run db:rotate-key', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers --help with its French usage', () => {
    const res = run(['--help']);
    expect(res.status).toBe(0);
    expect(res.stdout).toContain('Usage : npm run db:rotate-key [-- --new-key <clé>]');
    expect(res.stdout).toContain(
      "Arrêtez le serveur avant de lancer cette commande : elle refuse de s'exécuter tant qu'un",
    );
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
    expect(malformed.stderr).toContain(
      'Nouvelle clé invalide : elle doit contenir 32 octets en base64 ou 64 caractères hexadécimaux.',
    );
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
    const res = spawnSync(process.execPath, serverArgv(), {
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

// Beside a serving process the rotation would leave the server on the old key: every source and
// history read would fail (500) until a restart, and a source written meanwhile would stay unreadable.
describe.each(await testEngines())('npm run db:rotate-key beside a running server on %s', (engine) => {
  const here = mkdtempSync(join(tmpdir(), 'signalements-rotate-live-'));
  const keyFile = join(here, 'data.key');
  let pgName: string | null = null;
  let server: ServerProcess | undefined;

  afterAll(async () => {
    if (server) await killHard(server);
    if (pgName) {
      const client = new pg.Client({ connectionString: PG_ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${pgName} with (force)`);
      await client.end();
    }
    rmSync(here, { recursive: true, force: true });
  });

  it('refuses in French with exit code 1 and changes nothing, then runs once the server is stopped', async () => {
    let databaseUrl = `file:${join(here, 'live.db')}`;
    if (engine === 'postgres') {
      pgName = `signalements_rotate_${randomBytes(5).toString('hex')}`;
      const client = new pg.Client({ connectionString: PG_ADMIN_URL });
      await client.connect();
      await client.query(`create database ${pgName}`);
      await client.end();
      const target = new URL(PG_ADMIN_URL);
      target.pathname = `/${pgName}`;
      databaseUrl = target.toString();
    }
    const settings = { DATABASE_URL: databaseUrl, DATA_KEY_FILE: keyFile };
    server = await spawnServer({
      ...settings,
      ADMIN_EMAIL: 'chef@example.mg',
      ADMIN_PASSWORD: 'Vohitra-tsara-7824-mandry!',
    });
    await waitHealthy(server);
    const before = readFileSync(keyFile, 'utf8');

    const refused = run([], settings);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).toMatch(
      engine === 'sqlite'
        ? /^Le serveur semble en marche sur .*live\.db \(processus \d+\) : arrêtez le serveur avant de changer la clé de chiffrement \(npm run db:rotate-key\)\.$/
        : /^La base « signalements_rotate_\w+ » est en cours d'utilisation \(\d+ connexion\(s\), \d+ serveur\(s\) actif\(s\) depuis moins de 30 s\) : arrêtez le serveur avant de changer la clé de chiffrement \(npm run db:rotate-key\)\.$/,
    );
    expect(readFileSync(keyFile, 'utf8')).toBe(before);
    expect(readdirSync(here).filter((f) => f.startsWith('data.key'))).toEqual(['data.key']);
    expect((await fetch(`${server.base}/api/health`)).status).toBe(200);

    // A clean stop (SIGTERM) closes the connections, unregisters the mail worker and removes the pid file.
    const stopped = new Promise((done) => server!.child.once('exit', done));
    server.child.kill('SIGTERM');
    await stopped;
    const rotated = run([], settings);
    expect(rotated.status, rotated.stderr).toBe(0);
    expect(readFileSync(keyFile, 'utf8')).not.toBe(before);
  }, 180_000);
});
