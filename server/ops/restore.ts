// npm run db:restore (README « Sauvegarde et restauration », docs/decisions/0017 "Backups"). A sealed backup
// is opened with the passphrase or the private key, written into a NEW database (a file beside the live
// one, or a temporary PostgreSQL database), and checked there: every chunk authenticated to the last,
// row counts equal to those recorded at backup, the data key opening the verifier, the schema equal to
// what this version's migrations produce. Only then is the live database moved aside and the new one
// put in its place; any failure before leaves the live database as it was and removes the new one.
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { parseDataKey, sameKey } from '../crypto/cipher';
import { dataKeyPath, syncDirectory, writeKeyFile } from '../crypto/data-key';
import { isPostgresUrl, openDatabase } from '../db/client';
import {
  BackupError,
  backupStamp,
  pgTarget,
  runningServerPid,
  spawnTool,
  sqliteFile,
  type BackupSettings,
  type Manifest,
} from './backup';
import {
  countsDiffer,
  expectedPgSchema,
  expectedSqliteSchema,
  keyOpens,
  keyOpensNotes,
  pgCounts,
  pgSchema,
  pgSealedNote,
  pgVerifier,
  schemaDiffers,
  sqliteCounts,
  sqliteSchema,
  sqliteSealedNote,
  sqliteVerifier,
  type SealedNote,
} from './restore-checks';
import { SealError, sealedEngine, unseal, type Unlock } from './seal';

export type RestoreSettings = Pick<
  BackupSettings,
  'DATABASE_URL' | 'DATA_KEY' | 'DATA_KEY_FILE' | 'BACKUP_DIR'
>;

export interface RestoreResult {
  /** Where the replaced database went (a file, or a PostgreSQL database renamed); null when there was none. */
  keptAside: string | null;
  /** The key restored from the backup, and where the replaced key went (null when unchanged). */
  keyRestored: boolean;
  keyKeptAside: string | null;
}

/** A refusal found while the new copy is checked: the caller adds that the live database is untouched. */
class Refusal extends BackupError {}

/** Opens the sealed file and feeds the database's bytes to `write`; the manifest once all is authenticated. */
async function unpack(
  file: string,
  unlock: Unlock,
  write: (bytes: Buffer) => Promise<void>,
): Promise<Manifest> {
  let head = Buffer.alloc(0);
  let manifest: Manifest | null = null;
  try {
    for await (const piece of unseal(file, unlock)) {
      if (manifest) {
        if (piece.length) await write(piece);
        continue;
      }
      head = Buffer.concat([head, piece]);
      const need = head.length >= 4 ? 4 + head.readUInt32BE(0) : Infinity;
      if (head.length >= need) {
        manifest = JSON.parse(head.subarray(4, need).toString('utf8')) as Manifest;
        if (head.length > need) await write(head.subarray(need));
      }
    }
  } catch (error) {
    if (error instanceof SealError) throw new Refusal(error.message);
    throw error;
  }
  if (!manifest) throw new Refusal(`Sauvegarde incomplète : ${file}.`);
  return manifest;
}

/** The key of the backup, and whether the key file must change (refused when DATA_KEY disagrees). */
function plannedKey(settings: RestoreSettings, manifest: Manifest): { key: Buffer; write: boolean } {
  const key = parseDataKey(manifest.dataKey);
  if (!key || !keyOpens(key, manifest.verifier))
    throw new Refusal(
      'La clé de chiffrement de la sauvegarde ne correspond pas à sa base : restauration refusée.',
    );
  if (settings.DATA_KEY) {
    if (!sameKey(parseDataKey(settings.DATA_KEY)!, key)) {
      throw new Refusal(
        "La clé de chiffrement de cette sauvegarde n'est pas celle de DATA_KEY : retirez DATA_KEY de l'environnement " +
          'pour que la restauration remette le fichier de clé de la sauvegarde (DATA_KEY_FILE), puis relancez-la.',
      );
    }
    return { key, write: false };
  }
  const path = dataKeyPath(settings);
  const current = existsSync(path) ? parseDataKey(readFileSync(path, 'utf8')) : null;
  return { key, write: !current || !sameKey(current, key) };
}

/** Puts the backup's key in the key file once the database is in place, keeping the replaced one. */
function placeKey(settings: RestoreSettings, staged: string, stamp: string, result: RestoreResult): void {
  const path = dataKeyPath(settings);
  if (existsSync(path)) {
    result.keyKeptAside = `${path}.avant-restauration-${stamp}`;
    renameSync(path, result.keyKeptAside);
  }
  renameSync(staged, path);
  syncDirectory(dirname(path));
  result.keyRestored = true;
}

/** Restores the sealed FILE into the instance of these settings, which must be stopped. */
export async function restoreDatabase(
  settings: RestoreSettings,
  file: string,
  unlock: Unlock,
  now = new Date(),
): Promise<RestoreResult> {
  const path = resolve(file);
  if (!existsSync(path) || !statSync(path).isFile())
    throw new BackupError(`Sauvegarde introuvable : ${path}.`);
  let engine: Awaited<ReturnType<typeof sealedEngine>>;
  try {
    engine = await sealedEngine(path);
  } catch (error) {
    throw error instanceof SealError ? new BackupError(error.message) : error;
  }
  if (!engine) {
    throw new BackupError(
      /\.(db|dump)$/.test(path)
        ? `${path} n'est pas une sauvegarde valide de cette version : une sauvegarde non scellée (version antérieure, clé en clair à côté) ne se restaure plus ; restaurez-la avec la version qui l'a écrite.`
        : `${path} n'est pas une sauvegarde valide de Signalements (fichier non scellé ou d'un autre programme).`,
    );
  }
  const postgres = isPostgresUrl(settings.DATABASE_URL);
  if (postgres !== (engine === 'postgres')) {
    throw new BackupError(
      postgres
        ? `DATABASE_URL désigne PostgreSQL : ${basename(path)} est une sauvegarde de SQLite.`
        : `DATABASE_URL désigne SQLite : ${basename(path)} est une sauvegarde de PostgreSQL.`,
    );
  }
  const stamp = backupStamp(now);
  return postgres
    ? restorePostgres(settings, path, unlock, stamp)
    : restoreSqlite(settings, path, unlock, stamp);
}

/** The sealed key must open the copy's notes as it opens its verifier (restore-checks.ts keyOpensNotes). */
function refuseUnreadableNotes(manifest: Manifest, note: SealedNote): void {
  const key = parseDataKey(manifest.dataKey);
  // A key that does not even open the verifier is refused by plannedKey, with its own message.
  if (!key || !keyOpens(key, manifest.verifier)) return;
  if (!keyOpensNotes(key, note))
    throw new Refusal(
      "La clé de chiffrement de la sauvegarde n'ouvre pas ses notes internes : restauration refusée.",
    );
}

function checkSqliteCopy(file: string, manifest: Manifest): void {
  let conn: Sqlite.Database | undefined;
  try {
    try {
      conn = new Sqlite(file, { fileMustExist: true });
      const [check] = conn.pragma('integrity_check') as Array<{ integrity_check: string }>;
      if (check?.integrity_check !== 'ok') throw new Error(check?.integrity_check);
    } catch {
      throw new Refusal(`La sauvegarde ne contient pas une base SQLite intacte.`);
    }
    const differ = countsDiffer(manifest.counts, sqliteCounts(conn));
    if (differ) throw new Refusal(`Sauvegarde incomplète (${differ}).`);
    if (manifest.verifier !== sqliteVerifier(conn))
      throw new Refusal(
        'La base de la sauvegarde ne porte pas le vérificateur de clé enregistré : restauration refusée.',
      );
    refuseUnreadableNotes(manifest, sqliteSealedNote(conn));
  } finally {
    conn?.close();
  }
}

/** Migrates the new copy as the next start would, then compares its schema with a freshly migrated one. */
async function migrateAndCompare(
  url: string,
  listing: () => Promise<string[]>,
  expected: () => Promise<string[]>,
): Promise<void> {
  const db = openDatabase(url, { readWorkers: 0 });
  try {
    await db.migrate();
  } catch (error) {
    throw new Refusal(
      `Les migrations de cette version ne s'appliquent pas à la sauvegarde : ${(error as Error).message}`,
    );
  } finally {
    await db.close();
  }
  const differ = schemaDiffers(await expected(), await listing());
  if (differ)
    throw new Refusal(
      `Le schéma de la sauvegarde diffère de celui des migrations (${differ}) : restauration refusée.`,
    );
}

async function restoreSqlite(
  settings: RestoreSettings,
  path: string,
  unlock: Unlock,
  stamp: string,
): Promise<RestoreResult> {
  const db = sqliteFile(settings.DATABASE_URL);
  if (db === path)
    throw new BackupError(
      `${path} est la base elle-même, pas une sauvegarde : choisissez un fichier de ${settings.BACKUP_DIR}.`,
    );
  const running = () => {
    const pid = runningServerPid(settings.DATABASE_URL);
    if (pid !== null)
      throw new BackupError(
        `Le serveur semble en marche sur ${db} (processus ${pid}) : arrêtez-le avant de restaurer.`,
      );
  };
  running();
  mkdirSync(dirname(db), { recursive: true, mode: 0o700 });
  const staged = `${db}.restauration-${randomBytes(6).toString('hex')}`;
  const stagedKey = `${dataKeyPath(settings)}.restauration-${randomBytes(6).toString('hex')}`;
  const result: RestoreResult = { keptAside: null, keyRestored: false, keyKeptAside: null };
  const cleanUp = () => {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(staged + suffix, { force: true });
    rmSync(stagedKey, { force: true });
  };
  let key: { key: Buffer; write: boolean };
  try {
    const out = await open(staged, 'wx', 0o600);
    let position = 0;
    let manifest: Manifest;
    try {
      manifest = await unpack(path, unlock, async (bytes) => {
        await out.write(bytes, 0, bytes.length, position);
        position += bytes.length;
      });
      await out.sync();
    } finally {
      await out.close();
    }
    checkSqliteCopy(staged, manifest);
    key = plannedKey(settings, manifest);
    await migrateAndCompare(
      `file:${staged}`,
      async () => {
        // Read-write: closing the last connection of a WAL database checkpoints it and removes its -wal and
        // -shm files, which would otherwise stay behind under the staged name after the rename.
        const conn = new Sqlite(staged, { fileMustExist: true });
        try {
          return sqliteSchema(conn);
        } finally {
          conn.close();
        }
      },
      expectedSqliteSchema,
    );
    if (key.write) writeKeyFile(stagedKey, key.key);
    running();
  } catch (error) {
    cleanUp();
    throw untouched(error, `La base en place (${db}) n'a pas été touchée.`);
  }
  if (existsSync(db)) {
    const aside = `${db}.avant-restauration-${stamp}`;
    renameSync(db, aside);
    for (const suffix of ['-wal', '-shm'])
      if (existsSync(db + suffix)) renameSync(db + suffix, aside + suffix);
    result.keptAside = aside;
  }
  renameSync(staged, db);
  syncDirectory(dirname(db));
  if (key.write) placeKey(settings, stagedKey, stamp, result);
  return result;
}

function untouched(error: unknown, note: string): BackupError {
  if (error instanceof BackupError) return new BackupError(`${error.message} ${note}`);
  return new BackupError(`Restauration impossible : ${(error as Error).message}. ${note}`);
}

/**
 * The name of the temporary or kept-aside database of a restore. PostgreSQL cuts names at 63 bytes: the
 * live name is shortened, never the date that tells two restores apart.
 */
export function pgRestoreName(name: string, role: 'restauration' | 'avant_restauration', at: string): string {
  const suffix = `_${role}_${at}`;
  let prefix = name;
  while (Buffer.byteLength(prefix + suffix) > 63) prefix = prefix.slice(0, -1);
  return prefix + suffix;
}

async function restorePostgres(
  settings: RestoreSettings,
  path: string,
  unlock: Unlock,
  stamp: string,
): Promise<RestoreResult> {
  const target = pgTarget(settings.DATABASE_URL);
  const name = target.database;
  const at = stamp.replace(/[-TZ]/g, '').slice(0, 14);
  const temp = pgRestoreName(name, 'restauration', at);
  const tempUrl = new URL(settings.DATABASE_URL);
  tempUrl.pathname = `/${temp}`;
  const maintenance = new URL(settings.DATABASE_URL);
  maintenance.pathname = '/postgres';
  const connectAdmin = async () => {
    const client = new pg.Client({
      connectionString: maintenance.toString(),
      connectionTimeoutMillis: 10_000,
    });
    // Without a listener, a lost connection (PostgreSQL restarted) is an uncaught 'error' that ends the
    // command at once, possibly between the two renames; with it, the pending query fails and is handled.
    client.on('error', (error) =>
      console.error(
        `Connexion d'administration à PostgreSQL perdue pendant la restauration : ${error.message}`,
      ),
    );
    await client.connect();
    return client;
  };
  const admin = await connectAdmin();
  const result: RestoreResult = { keptAside: null, keyRestored: false, keyKeptAside: null };
  const stagedKey = `${dataKeyPath(settings)}.restauration-${randomBytes(6).toString('hex')}`;
  try {
    const exists = async () =>
      (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    const inUse = async () => {
      const others = await admin.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      const n = others.rows[0]!.n;
      if (n > 0)
        throw new BackupError(
          `La base « ${name} » est en cours d'utilisation (${n} connexion(s)) : arrêtez le serveur avant de restaurer.`,
        );
    };
    await inUse();
    let key: { key: Buffer; write: boolean };
    await admin.query(`create database ${pg.escapeIdentifier(temp)}`);
    try {
      const manifest = await pgRestoreInto(pgTarget(tempUrl.toString()), path, unlock);
      const client = new pg.Client({ connectionString: tempUrl.toString() });
      await client.connect();
      try {
        const differ = countsDiffer(manifest.counts, await pgCounts(client));
        if (differ) throw new Refusal(`Sauvegarde incomplète (${differ}).`);
        if (manifest.verifier !== (await pgVerifier(client)))
          throw new Refusal(
            'La base de la sauvegarde ne porte pas le vérificateur de clé enregistré : restauration refusée.',
          );
        refuseUnreadableNotes(manifest, await pgSealedNote(client));
      } finally {
        await client.end();
      }
      key = plannedKey(settings, manifest);
      await migrateAndCompare(
        tempUrl.toString(),
        async () => {
          const client = new pg.Client({ connectionString: tempUrl.toString() });
          await client.connect();
          try {
            return await pgSchema(client);
          } finally {
            await client.end();
          }
        },
        () => expectedPgSchema(admin, settings.DATABASE_URL, name),
      );
      if (key.write) writeKeyFile(stagedKey, key.key);
      await inUse();
    } catch (error) {
      await admin
        .query(`drop database if exists ${pg.escapeIdentifier(temp)} with (force)`)
        .catch(() => undefined);
      rmSync(stagedKey, { force: true });
      throw untouched(
        error,
        `La base « ${name} » en place n'a pas été touchée ; la base temporaire « ${temp} » a été supprimée.`,
      );
    }
    // The swap: two renames, the second undone by the first's reverse should it fail.
    if (await exists()) {
      const aside = pgRestoreName(name, 'avant_restauration', at);
      await admin.query(
        `alter database ${pg.escapeIdentifier(name)} rename to ${pg.escapeIdentifier(aside)}`,
      );
      result.keptAside = aside;
    }
    try {
      await admin.query(`alter database ${pg.escapeIdentifier(temp)} rename to ${pg.escapeIdentifier(name)}`);
    } catch (error) {
      rmSync(stagedKey, { force: true });
      const cause = (error as Error).message;
      if (result.keptAside) {
        const undo = `alter database ${pg.escapeIdentifier(result.keptAside)} rename to ${pg.escapeIdentifier(name)}`;
        const undone = await renameBack(admin, connectAdmin, undo);
        if (undone !== true) {
          throw new BackupError(
            `Restauration interrompue (${cause}) et la base en place n'a pas pu être remise sous son nom (${undone}) : ` +
              `elle est sous le nom « ${result.keptAside} », la base restaurée sous le nom « ${temp} », et « ${name} » n'existe plus. ` +
              `Pour remettre la base en place, exécutez sur ce serveur PostgreSQL (base « postgres ») :\n  ${undo};`,
          );
        }
      }
      throw new BackupError(
        `Restauration interrompue (${cause}) : la base « ${name} » en place a été remise sous son nom ; la base restaurée reste sous le nom « ${temp} ».`,
      );
    }
    if (key.write) placeKey(settings, stagedKey, stamp, result);
    return result;
  } finally {
    await admin.end().catch(() => undefined);
  }
}

/**
 * Undoes the first rename: on the admin connection, else on a new one (the first may have been lost
 * with a restart of PostgreSQL). True when done, else why not.
 */
async function renameBack(
  admin: pg.Client,
  connect: () => Promise<pg.Client>,
  undo: string,
): Promise<true | string> {
  try {
    await admin.query(undo);
    return true;
  } catch {
    let again: pg.Client | undefined;
    try {
      again = await connect();
      await again.query(undo);
      return true;
    } catch (error) {
      return (error as Error).message;
    } finally {
      await again?.end().catch(() => undefined);
    }
  }
}

/** Streams the backup's dump into pg_restore; resolves with the manifest once both ended well. */
async function pgRestoreInto(
  target: ReturnType<typeof pgTarget>,
  path: string,
  unlock: Unlock,
): Promise<Manifest> {
  const tool = spawnTool(
    'pg_restore',
    ['--no-owner', '--exit-on-error', '--single-transaction', `--dbname=${target.url}`],
    target.env,
    'pipe',
  );
  const stdin = tool.child.stdin!;
  // pg_restore stopping early closes its input: its exit code says why, not the broken pipe.
  stdin.on('error', () => undefined);
  const stopped = tool.done.then(() => {
    throw new Refusal("pg_restore s'est arrêté avant la fin de la sauvegarde.");
  });
  stopped.catch(() => undefined);
  let manifest: Manifest;
  try {
    manifest = await unpack(path, unlock, async (bytes) => {
      if (!stdin.write(bytes)) await Promise.race([once(stdin, 'drain'), stopped]);
    });
  } catch (error) {
    tool.child.kill();
    await tool.done.catch(() => undefined);
    throw error;
  }
  stdin.end();
  try {
    await tool.done;
  } catch (error) {
    throw new Refusal(`La sauvegarde ne se restaure pas dans une base neuve : ${(error as Error).message}`);
  }
  return manifest;
}
