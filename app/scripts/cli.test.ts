// Every script answers --help with its French usage (exit 0) and an unknown option with one French line
// and the usage (exit 1), never a stack trace; seed:demo before the first start creates the first
// administrator from ADMIN_EMAIL/ADMIN_PASSWORD; settings the server cannot apply are reported.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { start } from '#server/start';
import { ADMIN_SETTINGS_IGNORED } from '#server/domains/utilisateurs/first-admin';
import { bundleScripts } from '#tests/helpers/script-bundle';

const root = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'signalements-cli-'));

/** Runs a script as npm runs it (through tsx), or bundled (tests/helpers/script-bundle.ts). */
const spawnScript = (command: string[], args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, [...command, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
const runWithTsx = (script: string, args: string[], env: Record<string, string> = {}) =>
  spawnScript(['--import', 'tsx', script], args, env);

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};
const npmScripts = Object.entries(pkg.scripts)
  .map(([name, command]) => [name, /^tsx (scripts\/[\w-]+\.ts)$/.exec(command)?.[1]] as const)
  .filter((entry): entry is readonly [string, string] => entry[1] !== undefined);
const OTHER_SCRIPTS = ['scripts/precompress.ts', 'scripts/bench-export-child.ts'];
const bundled = await bundleScripts([...npmScripts.map(([, script]) => script), ...OTHER_SCRIPTS]);
const run = (script: string, args: string[], env: Record<string, string> = {}) =>
  spawnScript(bundled.argv(script), args, env);

describe('scripts', () => {
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    bundled.remove();
  });

  it('covers every npm script that runs a file of scripts/', () => {
    expect(npmScripts.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'dev',
        'db:migrate',
        'db:rotate-key',
        'seed:demo',
        'user:create-admin',
        'budget',
        'bench:reports',
      ]),
    );
  });

  it.each(npmScripts)('npm run %s -- --help prints its French usage and exits 0', (name, script) => {
    const res = run(script, ['--help']);
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(res.stdout.startsWith(`Usage : npm run ${name}`)).toBe(true);
  });

  it.each(OTHER_SCRIPTS.map((script) => [script]))('%s --help prints its usage', (script) => {
    const res = run(script, ['--help']);
    expect(res.status).toBe(0);
    expect(res.stdout.startsWith(`Usage : tsx ${script}`)).toBe(true);
  });

  it('refuses an unknown option in one French line followed by the usage, without a stack trace (through tsx, as npm runs it)', () => {
    const res = runWithTsx('scripts/seed-demo.ts', ['--nombre', '3']);
    expect(res.status).toBe(1);
    expect(res.stderr.split('\n')[0]).toBe('Option inconnue : --nombre');
    expect(res.stderr).toContain('Usage : npm run seed:demo');
    expect(res.stderr).not.toMatch(/^\s+at /m);
  });

  it('reports an unreachable database in one French line', () => {
    const res = run('scripts/migrate.ts', [], {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/signalements',
    });
    expect(res.status).toBe(1);
    expect(res.stderr.trim()).toBe(
      'Démarrage impossible (DATABASE_URL) : la base PostgreSQL « signalements » sur 127.0.0.1:1 — serveur injoignable (connexion refusée : est-il démarré, sur ce port ?).',
    );
  });

  it('seed:demo before the first start creates the administrator of ADMIN_EMAIL/ADMIN_PASSWORD, and the server accepts it', async () => {
    const env = {
      DATABASE_URL: `file:${join(dir, 'demo.db')}`,
      ADMIN_EMAIL: 'chef.demo@example.mg',
      ADMIN_PASSWORD: 'Vohitra-tsara-7824-mandry!',
    };
    const res = run('scripts/seed-demo.ts', ['--reports', '3'], env);
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(res.stdout).toContain('Premier administrateur créé');
    expect(res.stdout).toContain('chef.demo@example.mg');
    expect(res.stdout).not.toContain(env.ADMIN_PASSWORD);

    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const running = await start({ ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
    try {
      const printed = out.mock.calls.map((c) => String(c[0])).join('');
      expect(printed).not.toContain('Premier administrateur');
      expect(printed).not.toContain('ignorés');
      const login = await running.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD },
      });
      expect(login.statusCode).toBe(200);
      expect(login.json().utilisateurRole.code).toBe('ROLE_ADMIN');
    } finally {
      out.mockRestore();
      await running.close();
    }
  });

  it('db:backup then db:restore through npm scripts: a key pair, a sealed copy, restored into another place with the private key', () => {
    const backups = join(dir, 'sauvegardes');
    const database = { DATABASE_URL: `file:${join(dir, 'demo.db')}`, BACKUP_DIR: backups };
    // Without a sealing key: one French line, exit 1, nothing written.
    const refused = run('scripts/db-backup.ts', [], database);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^Sauvegarde refusée : définissez BACKUP_RECIPIENT/);
    const identity = join(dir, 'sauvegarde.cle-privee');
    const pair = run('scripts/db-backup.ts', ['--generate-recipient', identity], database);
    expect(pair.status).toBe(0);
    expect(statSync(identity).mode & 0o777).toBe(0o600);
    const recipient = /^(x25519:\S+)$/m.exec(pair.stdout)![1]!;
    const backup = run('scripts/db-backup.ts', [], { ...database, BACKUP_RECIPIENT: recipient });
    expect(backup.stderr).toBe('');
    expect(backup.status).toBe(0);
    const file = /Sauvegarde scellée écrite : (\S+)/.exec(backup.stdout)![1]!;
    const elsewhere = { DATABASE_URL: `file:${join(dir, 'ailleurs', 'demo.db')}` };
    // Neither passphrase nor private key (no terminal to ask on): refused.
    const locked = run('scripts/db-restore.ts', [file], elsewhere);
    expect(locked.status).toBe(1);
    expect(locked.stderr).toMatch(/^Indiquez la clé privée/);
    const restore = run('scripts/db-restore.ts', ['--identity', identity, file], elsewhere);
    expect(restore.stderr).toBe('');
    expect(restore.status).toBe(0);
    expect(restore.stdout).toContain('Clé de chiffrement de la sauvegarde remise en place.');
    const missing = run('scripts/db-restore.ts', [], elsewhere);
    expect(missing.status).toBe(1);
    expect(missing.stderr.split('\n')[0]).toBe('Indiquez le fichier de sauvegarde à restaurer.');
    // Six script processes one after the other.
  }, 180_000);

  it('a start on a database that has users says ADMIN_EMAIL/ADMIN_PASSWORD are ignored, with the command to use', async () => {
    const env = {
      DATABASE_URL: `file:${join(dir, 'demo.db')}`,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
    };
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const running = await start({
      ...env,
      ADMIN_EMAIL: 'nouveau.chef@example.mg',
      ADMIN_PASSWORD: 'Ankoay-manidina-9051-lavitra!',
    });
    try {
      const printed = out.mock.calls.map((c) => String(c[0])).join('');
      expect(printed).toContain(ADMIN_SETTINGS_IGNORED);
      expect(ADMIN_SETTINGS_IGNORED).toContain('npm run user:create-admin -- --email');
    } finally {
      out.mockRestore();
      await running.close();
    }
  });
});
