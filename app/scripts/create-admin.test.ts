import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config';
import { createAppContext } from '#server/context';
import { openDatabase } from '#server/db/client';
import { login } from '#server/domains/auth/service';
import { findUserByEmail } from '#server/domains/utilisateurs/service';
import { bundleScripts } from '#tests/helpers/script-bundle';

const root = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'signalements-cli-'));
const url = `file:${join(dir, 'cli.db')}`;
const script = await bundleScripts(['scripts/create-admin.ts']);
const run = (...args: string[]) =>
  execFileSync(process.execPath, [...script.argv('scripts/create-admin.ts'), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url },
    encoding: 'utf8',
  });

describe('npm run user:create-admin', () => {
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    script.remove();
  });

  it('creates an administrator with a generated password that logs in, then resets it', async () => {
    const created = run('--email', 'Chef@Example.mg', '--name', 'Chef de cellule');
    expect(created).toContain('Administrateur créé.');
    const password = created.match(/mot de passe : (\S+)/)![1]!;
    const db = openDatabase(url);
    const ctx = createAppContext(loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' }), { db });
    try {
      const first = await login(ctx, { email: 'chef@example.mg', password }, '127.0.0.1');
      expect(first.auth.user.role.code).toBe('ROLE_ADMIN');
      expect(first.auth.user.nomPrenom).toBe('Chef de cellule');

      const reset = run('--email', 'chef@example.mg', '--password', 'un-nouveau-mot-de-passe');
      expect(reset).toContain('Administrateur mis à jour (sessions fermées).');
      expect(reset).not.toContain('un-nouveau-mot-de-passe');
      await expect(login(ctx, { email: 'chef@example.mg', password }, '127.0.0.2')).rejects.toThrow(
        'Email ou mot de passe incorrect.',
      );
      await login(ctx, { email: 'chef@example.mg', password: 'un-nouveau-mot-de-passe' }, '127.0.0.3');
    } finally {
      await db.close();
    }
  });

  it('refuses a common --password with a French message and creates nothing', async () => {
    expect(() => run('--email', 'faible@example.mg', '--password', 'motdepasse123')).toThrow(
      /Ce mot de passe est trop courant ou trop facile à deviner\./,
    );
    const db = openDatabase(url);
    try {
      expect(await findUserByEmail(db, 'faible@example.mg')).toBeNull();
    } finally {
      await db.close();
    }
  });

  it('refuses a missing e-mail with a French usage line', () => {
    expect(() => run()).toThrow(/Usage : npm run user:create-admin -- --email/);
  });
});
