// The steps of a restore that both engines share (docs/decisions/0017 "Backups"): opening the sealed file,
// the key it carries, the checks of the new copy, and the refusal that says the live database is untouched.
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseDataKey, sameKey } from '../crypto/cipher';
import { dataKeyPath, syncDirectory } from '../crypto/data-key';
import { openDatabase } from '../db/client';
import { BackupError, type BackupSettings, type Manifest } from './backup';
import { keyOpens, keyOpensNotes, schemaDiffers, type SealedNote } from './restore-checks';
import { SealError, type Unlock } from './seal';
import { unseal } from './seal-open';

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
export class Refusal extends BackupError {}

/** Opens the sealed file and feeds the database's bytes to `write`; the manifest once all is authenticated. */
export async function unpack(
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
export function plannedKey(settings: RestoreSettings, manifest: Manifest): { key: Buffer; write: boolean } {
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
export function placeKey(
  settings: RestoreSettings,
  staged: string,
  stamp: string,
  result: RestoreResult,
): void {
  const path = dataKeyPath(settings);
  if (existsSync(path)) {
    result.keyKeptAside = `${path}.avant-restauration-${stamp}`;
    renameSync(path, result.keyKeptAside);
  }
  renameSync(staged, path);
  syncDirectory(dirname(path));
  result.keyRestored = true;
}

/** The sealed key must open the copy's notes as it opens its verifier (restore-checks.ts keyOpensNotes). */
export function refuseUnreadableNotes(manifest: Manifest, note: SealedNote): void {
  const key = parseDataKey(manifest.dataKey);
  // A key that does not even open the verifier is refused by plannedKey, with its own message.
  if (!key || !keyOpens(key, manifest.verifier)) return;
  if (!keyOpensNotes(key, note))
    throw new Refusal(
      "La clé de chiffrement de la sauvegarde n'ouvre pas ses notes internes : restauration refusée.",
    );
}

/** Migrates the new copy as the next start would, then compares its schema with a freshly migrated one. */
export async function migrateAndCompare(
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

export function untouched(error: unknown, note: string): BackupError {
  if (error instanceof BackupError) return new BackupError(`${error.message} ${note}`);
  return new BackupError(`Restauration impossible : ${(error as Error).message}. ${note}`);
}
