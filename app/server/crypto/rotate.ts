// Rotation of the data key (npm run db:rotate-key, docs/decisions/0017): every encrypted value (the
// internal notes' texts and the webhook endpoints' signing secrets included) and
// every blind index is rewritten under the new key, with the verifier, in one transaction; then the
// new key file replaces the old one atomically (the old one is kept beside it), or, when the key comes
// from DATA_KEY, the new key is handed back to be printed once for the operator.
import { renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { and, asc, eq, gt } from 'drizzle-orm';
import type { Config } from '../config';
import { openDatabase, type Database, type Orm } from '../db/client';
import { liveWorkers, STALE_MS } from '../domains/mail/workers';
import { rowsById, sourceHistoryRows } from './batches';
import { createCipher, generateDataKey, sameKey, type DataCipher } from './cipher';
import { rotateEvidenceKeys } from './evidence';
import { DataKeyError, openDataKey, readDataKey, syncDirectory, verifierOf, writeKeyFile } from './data-key';
import { encryptPlaintext } from './migrate-plaintext';
import { NOTE_TEXT } from './notes';
import { openSource, openSourceChanges, sealSource, sealSourceChanges } from './sources';
import {
  openWebhookSecret,
  sealWebhookSecret,
  WEBHOOK_PREVIOUS_SECRET,
  WEBHOOK_SECRET,
} from './webhook-secrets';

export interface RotationCounts {
  sources: number;
  history: number;
  totpKeys: number;
  notes: number;
  /** Evidence files whose key was rewrapped (docs/decisions/0033-evidence-files.md). */
  evidence: number;
  /** Webhook endpoints whose signing secret (and former secret in its grace period) was re-encrypted. */
  webhookSecrets: number;
}

/** Re-encrypts everything from `from` to `to` in one transaction and replaces the verifier. */
export async function reencryptAll(db: Database, from: DataCipher, to: DataCipher): Promise<RotationCounts> {
  return db.transaction(async (tx) => {
    const counts = {
      sources: await rotateSources(db, tx, from, to),
      history: await rotateHistory(db, tx, from, to),
      totpKeys: 0,
      notes: await rotateNotes(db, tx, from, to),
      evidence: await rotateEvidenceKeys(db, tx, from, to),
      webhookSecrets: await rotateWebhookSecrets(db, tx, from, to),
    };
    const k = db.t.twoFactorKeys;
    for (const row of await tx.select({ id: k.id, key: k.key }).from(k)) {
      await tx
        .update(k)
        .set({ key: to.encrypt(from.decrypt(row.key, 'two_factor_keys.key'), 'two_factor_keys.key') })
        .where(eq(k.id, row.id));
      counts.totpKeys++;
    }
    // The stored answers of idempotent creates (a day's worth at most).
    const i = db.t.idempotencyKeys;
    for (const row of await tx.select({ userId: i.userId, key: i.key, response: i.response }).from(i)) {
      const response = to.encrypt(
        from.decrypt(row.response, 'idempotency_keys.response'),
        'idempotency_keys.response',
      );
      await tx
        .update(i)
        .set({ response })
        .where(and(eq(i.userId, row.userId), eq(i.key, row.key)));
    }
    await tx.delete(db.t.dataKeyCheck);
    await tx.insert(db.t.dataKeyCheck).values({ verifier: verifierOf(to) });
    return counts;
  });
}

async function rotateSources(db: Database, tx: Orm, from: DataCipher, to: DataCipher): Promise<number> {
  const t = db.t.sources;
  let done = 0;
  for await (const row of rowsById((after, limit) =>
    tx.select().from(t).where(gt(t.id, after)).orderBy(asc(t.id)).limit(limit),
  )) {
    await tx
      .update(t)
      .set(sealSource(to, openSource(from, row)))
      .where(eq(t.id, row.id));
    done++;
  }
  return done;
}

async function rotateHistory(db: Database, tx: Orm, from: DataCipher, to: DataCipher): Promise<number> {
  const h = db.t.signalementHistorique;
  let done = 0;
  for await (const row of sourceHistoryRows(db, tx)) {
    await tx
      .update(h)
      .set({ changes: sealSourceChanges(to, openSourceChanges(from, row.changes)) })
      .where(eq(h.id, row.id));
    done++;
  }
  return done;
}

/** Each note's text, opened and sealed again bound to the same note (a text that does not open stops the rotation). */
async function rotateNotes(db: Database, tx: Orm, from: DataCipher, to: DataCipher): Promise<number> {
  const n = db.t.reportNotes;
  let done = 0;
  for await (const row of rowsById((after, limit) =>
    tx
      .select({ id: n.id, code: n.code, texte: n.texte })
      .from(n)
      .where(gt(n.id, after))
      .orderBy(asc(n.id))
      .limit(limit),
  )) {
    const texte = to.encrypt(from.decrypt(row.texte, NOTE_TEXT, row.code), NOTE_TEXT, row.code);
    await tx.update(n).set({ texte }).where(eq(n.id, row.id));
    done++;
  }
  return done;
}

/** Each endpoint's secret and former secret, opened and sealed again bound to the same column and endpoint. */
async function rotateWebhookSecrets(
  db: Database,
  tx: Orm,
  from: DataCipher,
  to: DataCipher,
): Promise<number> {
  const e = db.t.webhookEndpoints;
  const rows = await tx
    .select({ id: e.id, secret: e.secret, previousSecret: e.previousSecret })
    .from(e)
    .orderBy(asc(e.id));
  for (const row of rows) {
    const again = (column: typeof WEBHOOK_SECRET | typeof WEBHOOK_PREVIOUS_SECRET, stored: string) =>
      sealWebhookSecret(to, column, row.id, openWebhookSecret(from, column, row.id, stored));
    await tx
      .update(e)
      .set({
        secret: again(WEBHOOK_SECRET, row.secret),
        previousSecret:
          row.previousSecret === null ? null : again(WEBHOOK_PREVIOUS_SECRET, row.previousSecret),
      })
      .where(eq(e.id, row.id));
  }
  return rows.length;
}

export interface RotationResult extends RotationCounts {
  /** Where the new key went: the key file (replaced), or DATA_KEY (to print for the operator). */
  origin: 'env' | 'file';
  newKey: Buffer;
  keyFile: string;
  /** The previous key file, kept (origin 'file'). */
  oldKeyFile: string | null;
}

type KeyConfig = Pick<Config, 'DATABASE_URL' | 'DATA_KEY' | 'DATA_KEY_FILE'>;

const STOP_FIRST = 'arrêtez le serveur avant de changer la clé de chiffrement (npm run db:rotate-key).';

/**
 * Refuses while a server serves this database: it keeps the old key in memory, so every source it reads
 * after the rotation fails, and a source it writes meanwhile is sealed with a key the database no longer
 * knows. SQLite: the server's pid file (the check db:restore makes). PostgreSQL: any other connection
 * to the database, save the start-up lock this command holds (a server starting meanwhile waits on it,
 * then checks its key against the new verifier).
 */
async function refuseLiveInstance(db: Database): Promise<void> {
  const use = await db.dialect.liveUse(db);
  if (!use) return;
  if (use.kind === 'process')
    throw new DataKeyError(
      `Le serveur semble en marche sur ${use.file} (processus ${use.pid}) : ${STOP_FIRST}`,
    );
  // A server beats every 5 s (its mail worker), even when its pool holds no connection at this instant.
  const beating = use.heartbeats ? (await liveWorkers(db)).length : 0;
  if (use.connections > 0 || beating > 0) {
    throw new DataKeyError(
      `La base « ${use.database} » est en cours d'utilisation (${use.connections} connexion(s), ${beating} serveur(s) actif(s) depuis moins de ${STALE_MS / 1000} s) : ${STOP_FIRST}`,
    );
  }
}

export interface RotationOptions {
  /**
   * The caller serves this database from its own process and installs the new cipher itself
   * (its context's cipher): its connections are not a live server to refuse. Tests only.
   */
  sameProcess?: boolean;
}

/** The whole command: open with the current key, re-encrypt, install the new key. */
export async function rotateDataKey(
  config: KeyConfig,
  newKey: Buffer = generateDataKey(),
  now = new Date(),
  options: RotationOptions = {},
): Promise<RotationResult> {
  const db = openDatabase(config.DATABASE_URL, { readWorkers: 0 });
  try {
    // Servers starting meanwhile wait (PostgreSQL's start-up lock; SQLite's pid file, which makes them
    // refuse), then meet the new verifier.
    return await db.exclusively(async () => {
      if (!options.sameProcess) await refuseLiveInstance(db);
      db.dialect.claimServer(db.url);
      try {
        return await rotate(db, config, newKey, now);
      } finally {
        db.dialect.releaseServer(db.url);
      }
    });
  } finally {
    await db.close();
  }
}

async function rotate(db: Database, config: KeyConfig, newKey: Buffer, now: Date): Promise<RotationResult> {
  await db.migrate();
  const { cipher: from } = await openDataKey(db, config);
  // Values an older version left in clear are encrypted first, so every value has one format.
  await encryptPlaintext(db, from);
  const loaded = readDataKey(config)!;
  if (sameKey(loaded.key, newKey))
    throw new DataKeyError('La nouvelle clé est identique à la clé actuelle : rien à faire.');
  const to = createCipher(newKey);
  let pending: string | null = null;
  if (loaded.origin === 'file') {
    // Written (and synced) before the database changes: if the command stops in between, the new
    // key is still on disk next to the old one.
    pending = `${loaded.path}.new`;
    writeKeyFile(pending, newKey, 'w');
  }
  const counts = await reencryptAll(db, from, to);
  if (!pending) return { ...counts, origin: 'env', newKey, keyFile: loaded.path, oldKeyFile: null };
  const oldKeyFile = `${loaded.path}.${now.toISOString().replace(/[:.]/g, '-')}.old`;
  writeKeyFile(oldKeyFile, loaded.key, 'wx');
  renameSync(pending, loaded.path);
  syncDirectory(dirname(loaded.path));
  return { ...counts, origin: 'file', newKey, keyFile: loaded.path, oldKeyFile };
}
