// Backups (README « Sauvegarde et restauration », docs/decisions/0017 "Backups"). A backup is a
// consistent online copy taken while the server runs — SQLite's backup API, or pg_dump (custom format) of
// an exported snapshot for PostgreSQL — sealed in one file with the data key and the row counts of the
// same snapshot (seal.ts), for a passphrase or a public key that do not open it on the server. Named by
// date, the last BACKUP_KEEP kept. The restore is in restore.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  unlinkSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../config';
import { formatDataKey } from '../crypto/cipher';
import { dataKeyPath, readDataKey, syncDirectory } from '../crypto/data-key';
import { isPostgresUrl } from '../db/client';
import { sqliteFile } from '../db/sqlite/pid-file';
import {
  keyOpens,
  keyOpensNotes,
  pgCounts,
  pgSealedNote,
  pgVerifier,
  sqliteCounts,
  sqliteSealedNote,
  sqliteVerifier,
  type Counts,
} from './restore-checks';
import { sealTo, SealError } from './seal';

/** A refusal or failure of a backup command: one French line for the operator. */
export class BackupError extends Error {}

export type BackupSettings = Pick<
  Config,
  | 'DATABASE_URL'
  | 'DATA_KEY'
  | 'DATA_KEY_FILE'
  | 'BACKUP_DIR'
  | 'BACKUP_KEEP'
  | 'BACKUP_PASSPHRASE'
  | 'BACKUP_RECIPIENT'
>;

// The pid file moved to server/db/sqlite/pid-file.ts (the SQLite dialect claims it); same exports here.
export { claimPidFile, pidFile, releasePidFile, runningServerPid, sqliteFile } from '../db/sqlite/pid-file';

/** Sealed backups, and the unsealed .db/.dump of earlier versions (pruned with their .key in clear). */
const NAME =
  /^signalements-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z)\.(sqlite\.sauvegarde|postgres\.sauvegarde|db|dump)$/;
export const SEALED_SUFFIX = '.sauvegarde';

/** 2026-11-24T19:30:00.123Z → 2026-11-24T19-30-00Z (sortable, valid in every file system). */
export function backupStamp(now: Date): string {
  return now
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
}

/** postgres://user:secret@host/db → the URL without its password, and the password for PGPASSWORD. */
export function pgTarget(url: string): { url: string; env: NodeJS.ProcessEnv; database: string } {
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

/**
 * A client tool of PostgreSQL, its output, and its end: resolves on exit code 0, rejects with its first
 * error line. The output is piped at once: Node resumes (and so discards) a child's stdout that nothing
 * listens to when the child exits, and the output may be read only after a slow key derivation.
 */
export function spawnTool(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin: 'ignore' | 'pipe' = 'ignore',
): { child: ChildProcess; output: PassThrough; done: Promise<void> } {
  const child = spawn(command, args, { env, stdio: [stdin, 'pipe', 'pipe'] });
  const output = child.stdout!.pipe(new PassThrough());
  const done = new Promise<void>((resolveDone, fail) => {
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
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
      code === 0
        ? resolveDone()
        : fail(new BackupError(`${command} a échoué (code ${code}) : ${err.trim().split('\n')[0] ?? ''}`)),
    );
  });
  return { child, output, done };
}

/** What a sealed backup holds besides the database: its key, and what the restore checks against. */
export interface Manifest {
  /** The data key, base64 (inside the sealed payload only). */
  dataKey: string;
  /** The database's key verifier when the copy was taken (null: never started, nothing encrypted). */
  verifier: string | null;
  /** Rows of every table in the copy (same snapshot). */
  counts: Counts;
}

/** The payload of a sealed backup: u32 length, the manifest (JSON), then the database's bytes. */
export async function* backupPayload(
  manifest: Manifest,
  body: AsyncIterable<Buffer> | Iterable<Buffer>,
): AsyncGenerator<Buffer> {
  const json = Buffer.from(JSON.stringify(manifest));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  yield Buffer.concat([length, json]);
  for await (const piece of body) yield piece as Buffer;
}

export interface BackupResult {
  file: string;
  /** Older backups removed to keep BACKUP_KEEP. */
  removed: string[];
  /** Key files in clear left in the folder by earlier versions (the operator should remove them). */
  unsealedKeys: string[];
}

const NO_SEAL =
  'Sauvegarde refusée : définissez BACKUP_RECIPIENT (clé publique, npm run db:backup -- --generate-recipient FICHIER) ' +
  'ou BACKUP_PASSPHRASE (phrase de passe, au moins 12 caractères) : une sauvegarde est toujours scellée par une clé gardée hors du serveur.';

/** Writes a sealed, consistent copy of the running database into BACKUP_DIR, then prunes to BACKUP_KEEP. */
export async function backupDatabase(settings: BackupSettings, now = new Date()): Promise<BackupResult> {
  if (!settings.BACKUP_PASSPHRASE && !settings.BACKUP_RECIPIENT) throw new BackupError(NO_SEAL);
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

/** The data key the server uses (DATA_KEY, or the key file resolved as the server does), or a refusal. */
function backupKey(settings: BackupSettings): Buffer {
  let loaded;
  try {
    loaded = readDataKey(settings);
  } catch (error) {
    throw new BackupError(
      `${(error as Error).message.replace(/ Le serveur ne démarre pas\.$/, '')} Sauvegarde impossible.`,
    );
  }
  if (!loaded) {
    throw new BackupError(
      `Clé de chiffrement introuvable (${dataKeyPath(settings)}) : indiquez DATA_KEY ou DATA_KEY_FILE comme au serveur. ` +
        'Sauvegarde impossible : sans sa clé, les sources de la copie seraient illisibles.',
    );
  }
  return loaded.key;
}

const keyMismatch = (settings: BackupSettings) =>
  new BackupError(
    `La clé de chiffrement (${settings.DATA_KEY ? 'DATA_KEY' : `fichier ${dataKeyPath(settings)}`}) ne correspond pas à cette base : ` +
      'sauvegarde refusée (les sources de la copie seraient illisibles).',
  );

const notesMismatch = (settings: BackupSettings) =>
  new BackupError(
    `La clé de chiffrement (${settings.DATA_KEY ? 'DATA_KEY' : `fichier ${dataKeyPath(settings)}`}) n'ouvre pas les notes internes de cette base : ` +
      'sauvegarde refusée (les notes de la copie seraient illisibles).',
  );

async function backupInto(dir: string, settings: BackupSettings, now: Date): Promise<BackupResult> {
  const stamp = backupStamp(now);
  const postgres = isPostgresUrl(settings.DATABASE_URL);
  const file = join(dir, `signalements-${stamp}.${postgres ? 'postgres' : 'sqlite'}${SEALED_SUFFIX}`);
  if (existsSync(file)) throw new BackupError(`Une sauvegarde de ce nom existe déjà : ${file}.`);
  const key = backupKey(settings);
  const partial = `${file}.partiel`;
  try {
    if (postgres) await sealPostgres(settings, key, partial);
    else await sealSqlite(settings, key, partial);
    chmodSync(partial, 0o600);
    renameSync(partial, file);
    syncDirectory(dir);
  } catch (error) {
    rmSync(partial, { force: true });
    if (error instanceof BackupError) throw error;
    throw new BackupError(
      `Sauvegarde impossible : ${error instanceof SealError ? error.message : (error as Error).message}`,
    );
  }
  const unsealedKeys = readdirSync(dir)
    .filter((name) => /^signalements-.*\.key$/.test(name))
    .map((name) => join(dir, name));
  return { file, removed: pruneBackups(dir, settings.BACKUP_KEEP), unsealedKeys };
}

const sealFor = (settings: BackupSettings) => ({
  passphrase: settings.BACKUP_PASSPHRASE,
  recipient: settings.BACKUP_RECIPIENT,
});

async function sealSqlite(settings: BackupSettings, key: Buffer, out: string): Promise<void> {
  const source = sqliteFile(settings.DATABASE_URL);
  if (!existsSync(source)) throw new BackupError(`Base SQLite introuvable (DATABASE_URL) : ${source}.`);
  // The copy in clear stays beside the database (already in clear there), never in BACKUP_DIR, and only
  // until it is sealed.
  const plain = `${source}.sauvegarde-${randomBytes(6).toString('hex')}`;
  try {
    // The online backup API copies a consistent snapshot while the server keeps writing. In one step: a
    // backup copied 100 pages at a time starts over whenever another connection writes, and under steady
    // writes it may never finish; one step reads a single WAL snapshot while the writers go on.
    const conn = new Sqlite(source, { fileMustExist: true });
    try {
      conn.pragma('busy_timeout = 5000');
      await conn.backup(plain, { progress: () => 0x7fffffff });
    } finally {
      conn.close();
    }
    const copy = new Sqlite(plain, { fileMustExist: true });
    let manifest: Manifest;
    try {
      const verifier = sqliteVerifier(copy);
      if (!keyOpens(key, verifier)) throw keyMismatch(settings);
      if (!keyOpensNotes(key, sqliteSealedNote(copy))) throw notesMismatch(settings);
      manifest = { dataKey: formatDataKey(key), verifier, counts: sqliteCounts(copy) };
    } finally {
      copy.close();
    }
    await sealTo(out, 'sqlite', sealFor(settings), backupPayload(manifest, createReadStream(plain)));
  } finally {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(plain + suffix, { force: true });
  }
}

async function sealPostgres(settings: BackupSettings, key: Buffer, out: string): Promise<void> {
  const target = pgTarget(settings.DATABASE_URL);
  const client = new pg.Client({ connectionString: settings.DATABASE_URL, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    // The counts, the verifier and pg_dump read one snapshot: the restore can demand equal counts.
    await client.query('begin transaction isolation level repeatable read read only');
    const snapshot = (await client.query<{ s: string }>('select pg_export_snapshot() as s')).rows[0]!.s;
    const verifier = await pgVerifier(client);
    if (!keyOpens(key, verifier)) throw keyMismatch(settings);
    if (!keyOpensNotes(key, await pgSealedNote(client))) throw notesMismatch(settings);
    const manifest: Manifest = { dataKey: formatDataKey(key), verifier, counts: await pgCounts(client) };
    const dump = spawnTool(
      'pg_dump',
      ['--format=custom', '--no-owner', `--snapshot=${snapshot}`, `--dbname=${target.url}`],
      target.env,
    );
    const sealed = sealTo(out, 'postgres', sealFor(settings), backupPayload(manifest, dump.output));
    sealed.catch(() => dump.child.kill());
    const [a, b] = await Promise.allSettled([dump.done, sealed]);
    for (const outcome of [a, b]) if (outcome.status === 'rejected') throw outcome.reason;
    await client.query('commit');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Removes the oldest backups (and keys in clear of earlier versions) beyond `keep`; touches only the files this tool names. */
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
    if (key !== path && existsSync(key)) unlinkSync(key);
  }
  return removed;
}
