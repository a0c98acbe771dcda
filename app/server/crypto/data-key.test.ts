import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { start, type Running } from '../start';
import { formatDataKey, generateDataKey } from './cipher';
import { DataKeyError } from './data-key';

describe('data key at start', () => {
  const dirs: string[] = [];
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
    vi.restoreAllMocks();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const env = (extra: Record<string, string> = {}) => {
    const dir = mkdtempSync(join(tmpdir(), 'signalements-key-'));
    dirs.push(dir);
    return {
      dir,
      env: {
        DATABASE_URL: `file:${join(dir, 'db.sqlite')}`,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        ...extra,
      },
    };
  };
  const startQuietly = async (e: Record<string, string>) => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    return start(e);
  };
  const refusal = async (e: Record<string, string>) => {
    const error = await startQuietly(e).then(
      (r) => {
        running = r;
        return null;
      },
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(DataKeyError);
    return (error as Error).message;
  };

  it('creates the key file beside the database at the first start, mode 0600, and never replaces it', async () => {
    const { dir, env: e } = env();
    running = await startQuietly(e);
    const keyFile = join(dir, 'data.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = readFileSync(keyFile, 'utf8');
    await running.close();
    running = await startQuietly(e);
    expect(readFileSync(keyFile, 'utf8')).toBe(key);
  });

  it('uses DATA_KEY without writing a key file, and refuses another key for that database', async () => {
    const { dir, env: e } = env({ DATA_KEY: generateDataKey().toString('hex') });
    running = await startQuietly(e);
    expect(existsSync(join(dir, 'data.key'))).toBe(false);
    await running.close();
    running = undefined;
    expect(await refusal({ ...e, DATA_KEY: formatDataKey(generateDataKey()) })).toBe(
      'La clé de chiffrement (DATA_KEY) ne correspond pas à cette base : les sources ne peuvent pas être lues. Le serveur ne démarre pas.',
    );
    running = await startQuietly(e);
  });

  it('refuses to start when the key file of an encrypted database is missing or replaced', async () => {
    const { dir, env: e } = env();
    running = await startQuietly(e);
    await running.close();
    running = undefined;
    const keyFile = join(dir, 'data.key');
    const key = readFileSync(keyFile, 'utf8');
    unlinkSync(keyFile);
    const missing = await refusal({ ...e, DATA_KEY_FILE: keyFile });
    expect(missing).toContain(
      `Clé de chiffrement introuvable : définissez DATA_KEY ou restaurez le fichier ${keyFile}.`,
    );
    expect(existsSync(keyFile)).toBe(false);
    expect(await refusal({ ...e, DATA_KEY: formatDataKey(generateDataKey()) })).toContain(
      'ne correspond pas à cette base',
    );
    // The key restored from the backup opens the database again.
    writeFileSync(keyFile, key, { mode: 0o600 });
    running = await startQuietly(e);
  });

  it('refuses a malformed DATA_KEY in French, naming the variable and not its value', () => {
    let message = '';
    try {
      loadConfig({ DATA_KEY: 'mon-secret' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toContain('- DATA_KEY: doit contenir 32 octets en base64 ou 64 caractères hexadécimaux');
    expect(message).not.toContain('mon-secret');
  });
});
