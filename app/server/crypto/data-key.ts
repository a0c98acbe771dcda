// Loading the data key at start (docs/decisions/0017): DATA_KEY from the environment, else the key
// file (DATA_KEY_FILE, by default data.key beside the SQLite database, or data/data.key in the project's
// folder with PostgreSQL). The row of data_key_check proves which key encrypts this database: a start with another
// key, or without a key once data is encrypted, stops with a French message instead of reading garbage.
import { closeSync, fstatSync, fsyncSync, openSync, readFileSync, writeSync, chmodSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { asc } from 'drizzle-orm';
import { ConfigError, type Config } from '../config';
import type { Database, ReadOnlyDatabase } from '../db/client';
import { dialectFor } from '../db/dialect';
import { ensurePrivateDir } from '../paths';
import {
  createCipher,
  DecryptError,
  formatDataKey,
  generateDataKey,
  parseDataKey,
  type DataCipher,
} from './cipher';

/** A start (or a command) refused because of the data key; index.ts prints the message alone. */
export class DataKeyError extends ConfigError {}

const VERIFIER_TEXT = 'signalements:data-key-check:v1';
export const KEY_FORMAT_HINT = '32 octets en base64 ou 64 caractères hexadécimaux';

/** The key file this configuration uses (whether or not it exists). */
export function dataKeyPath(config: Pick<Config, 'DATABASE_URL' | 'DATA_KEY_FILE'>): string {
  if (config.DATA_KEY_FILE) return resolve(config.DATA_KEY_FILE);
  // Beside the SQLite file, or from the project's folder (not the current one) with PostgreSQL: the server
  // and every command (a backup run by cron from elsewhere) find the same file.
  return dialectFor(config.DATABASE_URL).defaultKeyFile(config.DATABASE_URL);
}

export interface LoadedKey {
  key: Buffer;
  origin: 'env' | 'file';
  path: string;
}

/** The key of DATA_KEY, else of the key file; null when neither exists. */
export function readDataKey(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_KEY' | 'DATA_KEY_FILE'>,
): LoadedKey | null {
  const path = dataKeyPath(config);
  if (config.DATA_KEY) {
    const key = parseDataKey(config.DATA_KEY);
    if (!key)
      throw new DataKeyError(`Configuration invalide :\n  - DATA_KEY: doit contenir ${KEY_FORMAT_HINT}`);
    return { key, origin: 'env', path };
  }
  let text: string;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    refuseOpenKeyFile(path, fstatSync(fd).mode);
    text = readFileSync(fd, 'utf8');
  } catch (error) {
    if (error instanceof DataKeyError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new DataKeyError(
      `Fichier de clé de chiffrement illisible (${path}) : ${(error as Error).message}. Le serveur ne démarre pas.`,
    );
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const key = parseDataKey(text);
  if (!key)
    throw new DataKeyError(
      `Fichier de clé de chiffrement invalide (${path}) : il doit contenir ${KEY_FORMAT_HINT}. Le serveur ne démarre pas.`,
    );
  return { key, origin: 'file', path };
}

/**
 * A key file that the group or other users may read (or replace) is refused rather than used: whoever
 * reads it reads every source of every backup. The operator fixes the mode; the server never widens it.
 */
function refuseOpenKeyFile(path: string, mode: number): void {
  if (process.platform === 'win32' || (mode & 0o077) === 0) return;
  throw new DataKeyError(
    `Fichier de clé de chiffrement ${path} accessible à d'autres utilisateurs que son propriétaire ` +
      `(mode ${(mode & 0o777).toString(8).padStart(4, '0')}) : restreignez-le avec « chmod 600 ${path} ». Le serveur ne démarre pas.`,
  );
}

/** Writes a key file readable by its owner only, durably; never replaces an existing file (`wx`). */
export function writeKeyFile(path: string, key: Buffer, flag: 'wx' | 'w' = 'wx'): void {
  ensurePrivateDir(dirname(path));
  const fd = openSync(path, flag, 0o600);
  try {
    writeSync(fd, `${formatDataKey(key)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  // The mode given to open is reduced by the umask, never widened: set it exactly.
  chmodSync(path, 0o600);
  syncDirectory(dirname(path));
}

export function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems cannot fsync a directory; the file itself is already synced.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const keyMissingMessage = (path: string) =>
  `Clé de chiffrement introuvable : définissez DATA_KEY ou restaurez le fichier ${path}. ` +
  'Les sources de cette base sont chiffrées et ne peuvent pas être lues sans cette clé. Le serveur ne démarre pas.';

const keyMismatchMessage = (loaded: LoadedKey) =>
  `La clé de chiffrement (${loaded.origin === 'env' ? 'DATA_KEY' : `fichier ${loaded.path}`}) ne correspond pas à cette base : ` +
  'les sources ne peuvent pas être lues. Le serveur ne démarre pas.';

export const verifierOf = (cipher: DataCipher): string =>
  cipher.encrypt(VERIFIER_TEXT, 'data_key_check.verifier');

/** Whether the key decrypts the verifier (a wrong key fails the GCM tag; it is never "almost" right). */
export function keyMatches(cipher: DataCipher, verifier: string): boolean {
  try {
    return cipher.decrypt(verifier, 'data_key_check.verifier') === VERIFIER_TEXT;
  } catch (error) {
    if (error instanceof DecryptError) return false;
    throw error;
  }
}

export async function readVerifier(db: ReadOnlyDatabase): Promise<string | null> {
  const t = db.t.dataKeyCheck;
  const [row] = await db.read.select({ verifier: t.verifier }).from(t).orderBy(asc(t.id)).limit(1);
  return row?.verifier ?? null;
}

export interface OpenedKey {
  cipher: DataCipher;
  /** The key file created by this start, to announce in the log (it must be backed up). */
  createdKeyFile: string | null;
}

/**
 * Finds the data key of a migrated database, checks it against the database's verifier (or writes
 * the verifier on the first start), and returns its cipher (for createAppContext). Throws DataKeyError to refuse.
 */
export async function openDataKey(
  db: Database,
  config: Pick<Config, 'DATABASE_URL' | 'DATA_KEY' | 'DATA_KEY_FILE'>,
): Promise<OpenedKey> {
  const verifier = await readVerifier(db);
  let loaded = readDataKey(config);
  let createdKeyFile: string | null = null;
  if (verifier !== null) {
    if (!loaded) throw new DataKeyError(keyMissingMessage(dataKeyPath(config)));
    const cipher = createCipher(loaded.key);
    if (!keyMatches(cipher, verifier)) throw new DataKeyError(keyMismatchMessage(loaded));
    return { cipher, createdKeyFile };
  }
  if (!loaded) {
    const path = dataKeyPath(config);
    try {
      writeKeyFile(path, generateDataKey());
      createdKeyFile = path;
    } catch (error) {
      // Another process created it first: use that one.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    loaded = readDataKey(config)!;
  }
  const cipher = createCipher(loaded.key);
  await db.transaction(async (tx) => {
    const t = db.t.dataKeyCheck;
    const [existing] = await tx.select({ verifier: t.verifier }).from(t).orderBy(asc(t.id)).limit(1);
    if (!existing) await tx.insert(t).values({ verifier: verifierOf(cipher) });
    else if (!keyMatches(cipher, existing.verifier)) throw new DataKeyError(keyMismatchMessage(loaded));
  });
  return { cipher, createdKeyFile };
}

/**
 * The cipher of a thread that opens encrypted values (read tasks, an export with its notes): the key read as
 * the server's start did and checked against the database's verifier; null without a key. A thread that
 * finds another key than the server's stops (its work fails, nothing leaks).
 */
export async function threadCipher(
  db: ReadOnlyDatabase,
  settings: Pick<Config, 'DATABASE_URL' | 'DATA_KEY' | 'DATA_KEY_FILE'>,
): Promise<DataCipher | null> {
  const verifier = await readVerifier(db);
  const loaded = readDataKey(settings);
  const cipher = loaded ? createCipher(loaded.key) : null;
  if (cipher && verifier !== null && !keyMatches(cipher, verifier))
    throw new Error('Clé de chiffrement différente de celle du serveur.');
  return cipher;
}
