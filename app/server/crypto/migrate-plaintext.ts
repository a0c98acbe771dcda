// Start-time migration of a database written before sources were encrypted (docs/decisions/0017):
// in one transaction, every source value still in clear is encrypted and its name indexed, the
// history entries about sources are encrypted, the search text of the reports concerned is recomputed
// without their names, the TOTP keys, the internal notes' texts and the webhook endpoints' signing secrets are
// encrypted. Idempotent: a second start finds nothing to do.
import { and, asc, eq, gt, isNotNull, isNull, like, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Database, Orm } from '../db/client';
import { refreshSearchText } from '../domains/signalements/search-refresh';
import { rowsById, sourceHistoryRows } from './batches';
import { isEncrypted, type DataCipher } from './cipher';
import { sealNote } from './notes';
import { sealWebhookSecret, WEBHOOK_PREVIOUS_SECRET, WEBHOOK_SECRET } from './webhook-secrets';
import {
  hasPlainSourceChanges,
  sealPlainSourceChanges,
  sealSource,
  SOURCE_FIELDS,
  type SourceValues,
} from './sources';

export interface PlaintextMigration {
  sources: number;
  history: number;
  reports: number;
  totpKeys: number;
  notes: number;
  /** Webhook endpoints whose signing secret was stored in clear (docs/decisions/0039). */
  webhookSecrets: number;
}

const changedAnything = (m: PlaintextMigration) =>
  m.sources + m.history + m.reports + m.totpKeys + m.notes + m.webhookSecrets > 0;

/** A column holding a value not in the encrypted format (case-sensitive on both engines). */
const plain = (column: Parameters<typeof isNotNull>[0]): SQL | undefined =>
  and(isNotNull(column), sql`substr(${column}, 1, 3) <> 'v1:'`);

function clearValue(
  cipher: DataCipher,
  value: string | null,
  field: keyof typeof SOURCE_FIELDS,
): string | null {
  if (value === null || !isEncrypted(value)) return value;
  return cipher.decrypt(value, SOURCE_FIELDS[field]);
}

async function migrateSources(
  db: Database,
  tx: Orm,
  cipher: DataCipher,
  reports: Set<number>,
): Promise<number> {
  const t = db.t.sources;
  const todo = or(
    plain(t.nomPrenom),
    plain(t.contact),
    plain(t.description),
    plain(t.autreCanal),
    and(isNotNull(t.nomPrenom), isNull(t.nomIndex)),
  );
  let done = 0;
  const rows = rowsById((after, limit) =>
    tx
      .select()
      .from(t)
      .where(and(gt(t.id, after), todo))
      .orderBy(asc(t.id))
      .limit(limit),
  );
  for await (const row of rows) {
    const clear: SourceValues = {
      nomPrenom: clearValue(cipher, row.nomPrenom, 'nomPrenom'),
      contact: clearValue(cipher, row.contact, 'contact'),
      description: clearValue(cipher, row.description, 'description'),
      autreCanal: clearValue(cipher, row.autreCanal, 'autreCanal'),
    };
    await tx.update(t).set(sealSource(cipher, clear)).where(eq(t.id, row.id));
    reports.add(row.signalementId);
    done++;
  }
  return done;
}

async function migrateHistory(db: Database, tx: Orm, cipher: DataCipher): Promise<number> {
  const h = db.t.signalementHistorique;
  let done = 0;
  for await (const row of sourceHistoryRows(db, tx)) {
    if (!hasPlainSourceChanges(row.changes)) continue;
    await tx
      .update(h)
      .set({ changes: sealPlainSourceChanges(cipher, row.changes) })
      .where(eq(h.id, row.id));
    done++;
  }
  return done;
}

async function migrateTotpKeys(db: Database, tx: Orm, cipher: DataCipher): Promise<number> {
  const k = db.t.twoFactorKeys;
  const rows = await tx.select({ id: k.id, key: k.key }).from(k).where(plain(k.key));
  for (const row of rows)
    await tx
      .update(k)
      .set({ key: cipher.encrypt(row.key, 'two_factor_keys.key') })
      .where(eq(k.id, row.id));
  return rows.length;
}

/** The shortest stored value: `v1:` and the base64url of a nonce and a tag around an empty text. */
const SHORTEST_SEALED = 3 + Math.ceil(((12 + 16) * 4) / 3);

/**
 * Notes are free text: one typed before 0029's encryption may begin with `v1:` itself. A sealed value is `v1:`
 * and base64url only, so a text that is shorter, or holds a space, a line break or punctuation base64url never
 * has, is still in clear, whatever its start.
 */
function plainNote(texte: Parameters<typeof isNotNull>[0]): SQL | undefined {
  const rest = sql`substr(${texte}, 4)`;
  return or(
    plain(texte),
    lt(sql`length(${texte})`, SHORTEST_SEALED),
    ...[' ', '\n', '\t', '.', ',', ':', '/', ';', "'"].map((c) => like(rest, `%${c}%`)),
  );
}

async function migrateNotes(db: Database, tx: Orm, cipher: DataCipher): Promise<number> {
  const n = db.t.reportNotes;
  let done = 0;
  const rows = rowsById((after, limit) =>
    tx
      .select({ id: n.id, code: n.code, texte: n.texte })
      .from(n)
      .where(and(gt(n.id, after), plainNote(n.texte)))
      .orderBy(asc(n.id))
      .limit(limit),
  );
  for await (const row of rows) {
    await tx
      .update(n)
      .set({ texte: sealNote(cipher, row.code, row.texte) })
      .where(eq(n.id, row.id));
    done++;
  }
  return done;
}

/**
 * The signing secrets stored in clear before 0039's revision. A secret is `whsec_` and base64, so it never
 * begins with `v1:`: the prefix alone tells a clear one from a sealed one.
 */
async function migrateWebhookSecrets(db: Database, tx: Orm, cipher: DataCipher): Promise<number> {
  const e = db.t.webhookEndpoints;
  const rows = await tx
    .select({ id: e.id, secret: e.secret, previousSecret: e.previousSecret })
    .from(e)
    .where(or(plain(e.secret), plain(e.previousSecret)))
    .orderBy(asc(e.id));
  for (const row of rows) {
    const seal = (column: typeof WEBHOOK_SECRET | typeof WEBHOOK_PREVIOUS_SECRET, value: string) =>
      isEncrypted(value) ? value : sealWebhookSecret(cipher, column, row.id, value);
    await tx
      .update(e)
      .set({
        secret: seal(WEBHOOK_SECRET, row.secret),
        previousSecret:
          row.previousSecret === null ? null : seal(WEBHOOK_PREVIOUS_SECRET, row.previousSecret),
      })
      .where(eq(e.id, row.id));
  }
  return rows.length;
}

/** Encrypts what an older version left in clear; returns what it changed (nothing on later starts). */
export async function encryptPlaintext(db: Database, cipher: DataCipher): Promise<PlaintextMigration> {
  const result = await db.transaction(async (tx) => {
    const reports = new Set<number>();
    const sources = await migrateSources(db, tx, cipher, reports);
    const history = await migrateHistory(db, tx, cipher);
    const totpKeys = await migrateTotpKeys(db, tx, cipher);
    const notes = await migrateNotes(db, tx, cipher);
    const webhookSecrets = await migrateWebhookSecrets(db, tx, cipher);
    // Older versions put the names of the sources of non-anonymous reports in the search text.
    for (const id of reports) await refreshSearchText(db, tx, id);
    const migration = { sources, history, reports: reports.size, totpKeys, notes, webhookSecrets };
    // No token of a source's name may remain in the search indexes (SQLite's keep deleted words).
    if (reports.size > 0) await db.dialect.purgeSearchIndexes(tx);
    return migration;
  });
  // The clear values may still sit in SQLite's write-ahead log.
  if (changedAnything(result)) await db.dialect.purgeLog(db);
  return result;
}
