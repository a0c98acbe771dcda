// Restoring a SQLite backup: the database written to a new file beside the live one, checked there, then
// put in its place (the live file kept aside).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import Sqlite from 'better-sqlite3';
import { dataKeyPath, syncDirectory, writeKeyFile } from '../crypto/data-key';
import { BackupError, runningServerPid, sqliteFile, type Manifest } from './backup';
import {
  countsDiffer,
  expectedSqliteSchema,
  sqliteCounts,
  sqliteSchema,
  sqliteSealedNote,
  sqliteVerifier,
} from './restore-checks';
import {
  migrateAndCompare,
  placeKey,
  plannedKey,
  refuseUnreadableNotes,
  Refusal,
  unpack,
  untouched,
  type RestoreResult,
  type RestoreSettings,
} from './restore-steps';
import type { Unlock } from './seal';

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

export async function restoreSqlite(
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
