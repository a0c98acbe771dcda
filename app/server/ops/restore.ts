// npm run db:restore (README « Sauvegarde et restauration », docs/decisions/0017 "Backups"). A sealed backup
// is opened with the passphrase or the private key, written into a NEW database (a file beside the live
// one, or a temporary PostgreSQL database), and checked there: every chunk authenticated to the last,
// row counts equal to those recorded at backup, the data key opening the verifier, the schema equal to
// what this version's migrations produce. Only then is the live database moved aside and the new one
// put in its place; any failure before leaves the live database as it was and removes the new one.
// The steps both engines share are in restore-steps.ts; each engine's restore in restore-sqlite.ts and
// restore-postgres.ts.
import { existsSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { isPostgresUrl } from '../db/client';
import { BackupError, backupStamp } from './backup';
import { restorePostgres } from './restore-postgres';
import { restoreSqlite } from './restore-sqlite';
import type { RestoreResult, RestoreSettings } from './restore-steps';
import { SealError, type Unlock } from './seal';
import { sealedEngine } from './seal-open';

export type { RestoreResult, RestoreSettings } from './restore-steps';

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
