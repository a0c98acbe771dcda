// Backups and restore (issue #13, README « Sauvegarde et restauration »). A backup is a consistent online
// copy taken while the server runs — SQLite's backup API, or pg_dump (custom format) for PostgreSQL — with
// the key file that encrypts the sources beside it, named by date, the last BACKUP_KEEP kept. A restore
// goes into a stopped instance after checks, and keeps what it replaces.
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { ConfigError, type Config } from '../config';
import { dataKeyPath, readDataKey, syncDirectory } from '../crypto/data-key';
import { isPostgresUrl } from '../db/client';
import { parseDataKey, sameKey } from '../crypto/cipher';

/** A refusal or failure of a backup command: one French line for the operator. */
export class BackupError extends Error {}

export type BackupSettings = Pick<Config, 'DATABASE_URL' | 'DATA_KEY' | 'DATA_KEY_FILE' | 'BACKUP_DIR' | 'BACKUP_KEEP'>;

const NAME = /^signalements-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z)\.(db|dump)$/;

/** 2026-11-24T19:30:00.123Z → 2026-11-24T19-30-00Z (sortable, valid in every file system). */
export function backupStamp(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '-');
}

export function sqliteFile(url: string): string {
  return resolve(url.replace(/^file:/, ''));
}

/** The server's pid file beside a SQLite database (written at start, removed at a clean stop). */
export function pidFile(url: string): string {
  return `${sqliteFile(url)}.pid`;
}

/** Whether the process named in the pid file runs (a file left by a crash names a dead process). */
export function runningServerPid(url: string): number | null {
  let text: string;
  try {
    text = readFileSync(pidFile(url), 'utf8');
  } catch {
    return null;
  }
  const pid = Number(text.trim());
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  // After a reboot the number may belong to an unrelated program: only a Node.js process counts (where
  // the system tells, as Linux does in /proc; elsewhere any live process counts).
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (!/node/i.test(command)) return null;
  } catch {
    // No /proc, or not readable: keep the cautious answer.
  }
  return pid;
}

/**
 * Marks the SQLite database as served by this process (restore refuses to replace it meanwhile). A live
 * server of another process on the same file stops this start: SQLite is served by one process.
 */
export function claimPidFile(url: string): void {
  const other = runningServerPid(url);
  if (other !== null && other !== process.pid) {
    throw new ConfigError(`Démarrage impossible (DATABASE_URL) : un autre serveur (processus ${other}) utilise déjà ${sqliteFile(url)}.`);
  }
  writeFileSync(pidFile(url), `${process.pid}\n`, { mode: 0o600 });
}

export function releasePidFile(url: string): void {
  if (runningServerPid(url) === process.pid) rmSync(pidFile(url), { force: true });
}

/** postgres://user:secret@host/db → the URL without its password, and the password for PGPASSWORD. */
function pgTarget(url: string): { url: string; env: NodeJS.ProcessEnv; database: string } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return {
    url: parsed.toString(),
    // The password goes in the environment, not on a command line that `ps` shows.
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')),
  };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      fail(
        new BackupError(
          error.code === 'ENOENT'
            ? `${command} introuvable : installez les outils clients de PostgreSQL (même version majeure que le serveur).`
            : `${command} : ${error.message}`,
        ),
      ),
    );
    child.on('close', (code) =>
      code === 0 ? done(out) : fail(new BackupError(`${command} a échoué (code ${code}) : ${err.trim().split('\n')[0] ?? ''}`)),
    );
  });
}

export interface BackupResult {
  file: string;
  /** The key file copied beside it; null when the key comes from DATA_KEY (to be kept elsewhere). */
  keyFile: string | null;
  /** Older backups removed to keep BACKUP_KEEP. */
  removed: string[];
}

/** Writes a consistent copy of the running database into BACKUP_DIR, then prunes to BACKUP_KEEP. */
export async function backupDatabase(settings: BackupSettings, now = new Date()): Promise<BackupResult> {
  const dir = resolve(settings.BACKUP_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Personal data: the folder (also one that already existed) and every file this command writes are
  // its owner's only, from the first byte (the copy may take minutes; a later chmod would be too late).
  chmodSync(dir, 0o700);
  const umask = process.umask(0o077);
  try {
    return await backupInto(dir, settings, now);
  } finally {
    process.umask(umask);
  }
}

async function backupInto(dir: string, settings: BackupSettings, now: Date): Promise<BackupResult> {
  const stamp = backupStamp(now);
  const postgres = isPostgresUrl(settings.DATABASE_URL);
  const file = join(dir, `signalements-${stamp}.${postgres ? 'dump' : 'db'}`);
  if (existsSync(file)) throw new BackupError(`Une sauvegarde de ce nom existe déjà : ${file}.`);
  const partial = `${file}.partiel`;
  try {
    writeFileSync(partial, '', { mode: 0o600, flag: 'wx' });
    if (postgres) {
      const target = pgTarget(settings.DATABASE_URL);
      await run('pg_dump', ['--format=custom', '--no-owner', `--file=${partial}`, `--dbname=${target.url}`], target.env);
    } else {
      const source = sqliteFile(settings.DATABASE_URL);
      if (!existsSync(source)) throw new BackupError(`Base SQLite introuvable (DATABASE_URL) : ${source}.`);
      // The online backup API copies a consistent snapshot while the server keeps writing. In one step: a
      // backup copied 100 pages at a time starts over whenever another connection writes, and under steady
      // writes it may never finish; one step reads a single WAL snapshot while the writers go on.
      const conn = new Sqlite(source, { fileMustExist: true });
      try {
        conn.pragma('busy_timeout = 5000');
        await conn.backup(partial, { progress: () => 0x7fffffff });
      } finally {
        conn.close();
      }
    }
    // Personal data: readable by its owner only.
    chmodSync(partial, 0o600);
    renameSync(partial, file);
    syncDirectory(dir);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error instanceof BackupError ? error : new BackupError(`Sauvegarde impossible : ${(error as Error).message}`);
  }

  let keyFile: string | null = null;
  if (!settings.DATA_KEY) {
    const key = dataKeyPath(settings);
    if (existsSync(key)) {
      keyFile = join(dir, `signalements-${stamp}.key`);
      copyFileSync(key, keyFile);
      chmodSync(keyFile, 0o600);
      syncDirectory(dir);
    }
  }
  return { file, keyFile, removed: pruneBackups(dir, settings.BACKUP_KEEP) };
}

/** Removes the oldest backups (and their keys) beyond `keep`; touches only the files this tool names. */
export function pruneBackups(dir: string, keep: number): string[] {
  const backups = readdirSync(dir)
    .filter((name) => NAME.test(name))
    .sort();
  const removed: string[] = [];
  for (const name of backups.slice(0, Math.max(0, backups.length - keep))) {
    const path = join(dir, name);
    unlinkSync(path);
    removed.push(path);
    const key = path.replace(/\.(db|dump)$/, '.key');
    if (existsSync(key)) unlinkSync(key);
  }
  return removed;
}

export interface RestoreResult {
  /** Where the replaced database went (a file, or a PostgreSQL database renamed); null when there was none. */
  keptAside: string | null;
  /** The key restored from the backup, and where the replaced key went (null when unchanged). */
  keyRestored: boolean;
  keyKeptAside: string | null;
  /** With DATA_KEY: the backup holds a key file that DATA_KEY must equal (never printed). */
  dataKeyToSet: string | null;
}

function checkSqliteBackup(file: string): void {
  let conn: Sqlite.Database | undefined;
  try {
    conn = new Sqlite(file, { readonly: true, fileMustExist: true });
    const [check] = conn.pragma('integrity_check') as Array<{ integrity_check: string }>;
    const migrations = conn.pragma('table_info(__drizzle_migrations)') as unknown[];
    if (check?.integrity_check !== 'ok' || migrations.length === 0) throw new Error('contenu inattendu');
  } catch {
    throw new BackupError(`${file} n'est pas une sauvegarde valide de Signalements (fichier SQLite endommagé ou d'un autre programme).`);
  } finally {
    conn?.close();
  }
}

/** Restores FILE into the instance of these settings, which must be stopped. */
export async function restoreDatabase(settings: BackupSettings, file: string, now = new Date()): Promise<RestoreResult> {
  const path = resolve(file);
  if (!existsSync(path) || !statSync(path).isFile()) throw new BackupError(`Sauvegarde introuvable : ${path}.`);
  const postgres = isPostgresUrl(settings.DATABASE_URL);
  if (postgres !== path.endsWith('.dump') || (!postgres && !path.endsWith('.db'))) {
    throw new BackupError(
      postgres
        ? `DATABASE_URL désigne PostgreSQL : restaurez une sauvegarde .dump (pg_dump), pas ${basename(path)}.`
        : `DATABASE_URL désigne SQLite : restaurez une sauvegarde .db, pas ${basename(path)}.`,
    );
  }
  const stamp = backupStamp(now);
  const result: RestoreResult = { keptAside: null, keyRestored: false, keyKeptAside: null, dataKeyToSet: null };
  // The backup's key is checked before anything is replaced: a damaged key file must not leave a
  // restored database with a key that cannot read it.
  const backupKey = path.replace(/\.(db|dump)$/, '.key');
  const key = existsSync(backupKey) ? parseDataKey(readFileSync(backupKey, 'utf8')) : null;
  if (existsSync(backupKey) && !key) throw new BackupError(`Fichier de clé de la sauvegarde invalide : ${backupKey}.`);

  if (postgres) {
    const target = pgTarget(settings.DATABASE_URL);
    try {
      await run('pg_restore', ['--list', path], target.env);
    } catch {
      throw new BackupError(`${path} n'est pas une sauvegarde valide de PostgreSQL (pg_restore --list la refuse).`);
    }
    const maintenance = new URL(settings.DATABASE_URL);
    maintenance.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: 10_000 });
    await admin.connect();
    try {
      const name = target.database;
      const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
      if (exists) {
        const others = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
        if (others.rows[0].n > 0) {
          throw new BackupError(`La base « ${name} » est en cours d'utilisation (${others.rows[0].n} connexion(s)) : arrêtez le serveur avant de restaurer.`);
        }
        const aside = `${name}_avant_restauration_${stamp.replace(/[-TZ]/g, '').slice(0, 14)}`.slice(0, 63);
        await admin.query(`alter database ${pg.escapeIdentifier(name)} rename to ${pg.escapeIdentifier(aside)}`);
        result.keptAside = aside;
      }
      await admin.query(`create database ${pg.escapeIdentifier(name)}`);
    } finally {
      await admin.end();
    }
    await run('pg_restore', ['--no-owner', '--exit-on-error', '--single-transaction', `--dbname=${target.url}`, path], target.env);
  } else {
    checkSqliteBackup(path);
    const db = sqliteFile(settings.DATABASE_URL);
    if (resolve(db) === path) throw new BackupError(`${path} est la base elle-même, pas une sauvegarde : choisissez un fichier de ${settings.BACKUP_DIR}.`);
    const pid = runningServerPid(settings.DATABASE_URL);
    if (pid !== null) throw new BackupError(`Le serveur semble en marche sur ${db} (processus ${pid}) : arrêtez-le avant de restaurer.`);
    mkdirSync(dirname(db), { recursive: true });
    if (existsSync(db)) {
      const aside = `${db}.avant-restauration-${stamp}`;
      renameSync(db, aside);
      for (const suffix of ['-wal', '-shm']) if (existsSync(db + suffix)) renameSync(db + suffix, aside + suffix);
      result.keptAside = aside;
    }
    const partial = `${db}.restauration`;
    copyFileSync(path, partial);
    chmodSync(partial, 0o600);
    renameSync(partial, db);
    syncDirectory(dirname(db));
  }

  // The key that encrypts the backup's sources.
  if (key) {
    if (settings.DATA_KEY) {
      const current = readDataKey(settings);
      if (!current || !sameKey(current.key, key)) result.dataKeyToSet = backupKey;
    } else {
      const keyPath = dataKeyPath(settings);
      const current = existsSync(keyPath) ? parseDataKey(readFileSync(keyPath, 'utf8')) : null;
      if (!current || !sameKey(current, key)) {
        if (existsSync(keyPath)) {
          result.keyKeptAside = `${keyPath}.avant-restauration-${stamp}`;
          renameSync(keyPath, result.keyKeptAside);
        }
        mkdirSync(dirname(keyPath), { recursive: true, mode: 0o700 });
        copyFileSync(backupKey, keyPath);
        chmodSync(keyPath, 0o600);
        syncDirectory(dirname(keyPath));
        result.keyRestored = true;
      }
    }
  }
  return result;
}
