// Restoring a PostgreSQL backup: pg_restore into a new temporary database, checked there, then swapped in
// by two renames (the live database kept aside under a dated name, the first rename undone if the second fails).
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { dataKeyPath, writeKeyFile } from '../crypto/data-key';
import { BackupError, pgTarget, spawnTool, type Manifest } from './backup';
import {
  countsDiffer,
  expectedPgSchema,
  pgCounts,
  pgSchema,
  pgSealedNote,
  pgVerifier,
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

export async function restorePostgres(
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
