// The values that identify a source, as stored (encrypted, with the blind index of the name) and as
// read (decrypted). Channels (references) stay clear. docs/decisions/0017.
import { isEncrypted, type CipherContext, type DataCipher } from './cipher';

export const SOURCE_FIELDS = {
  nomPrenom: 'sources.nom_prenom',
  contact: 'sources.contact',
  description: 'sources.description',
  autreCanal: 'sources.autre_canal',
} as const satisfies Record<string, CipherContext>;

export type SourceField = keyof typeof SOURCE_FIELDS;
export type SourceValues = Record<SourceField, string | null>;

/** The columns to write for these clear values: each encrypted, and the name's blind index. */
export function sealSource(
  cipher: DataCipher,
  values: SourceValues,
): SourceValues & { nomIndex: string | null } {
  return {
    nomPrenom: cipher.encryptNullable(values.nomPrenom, SOURCE_FIELDS.nomPrenom),
    contact: cipher.encryptNullable(values.contact, SOURCE_FIELDS.contact),
    description: cipher.encryptNullable(values.description, SOURCE_FIELDS.description),
    autreCanal: cipher.encryptNullable(values.autreCanal, SOURCE_FIELDS.autreCanal),
    nomIndex: cipher.blindIndex(values.nomPrenom),
  };
}

/** A stored row with its identifying columns decrypted (throws DecryptError on a wrong key). */
export function openSource<R extends SourceValues>(cipher: DataCipher, row: R): R {
  return {
    ...row,
    nomPrenom: cipher.decryptNullable(row.nomPrenom, SOURCE_FIELDS.nomPrenom),
    contact: cipher.decryptNullable(row.contact, SOURCE_FIELDS.contact),
    description: cipher.decryptNullable(row.description, SOURCE_FIELDS.description),
    autreCanal: cipher.decryptNullable(row.autreCanal, SOURCE_FIELDS.autreCanal),
  };
}

// ------------------------------------------------------------------ history entries `source.*`
const HISTORY: CipherContext = 'signalement_historique.changes';
const HISTORY_FIELDS = new Set<string>(Object.keys(SOURCE_FIELDS));

type Changes = Record<string, { from: unknown; to: unknown }>;

/** Whether a history entry's field holds a source's identifying value (code and channels do not). */
export const isSecretHistoryField = (field: string) => HISTORY_FIELDS.has(field);

function mapSecretValues(changes: Changes, map: (value: string) => string): Changes {
  const out: Changes = {};
  for (const [field, change] of Object.entries(changes)) {
    if (!isSecretHistoryField(field)) {
      out[field] = change;
      continue;
    }
    const one = (v: unknown) => (typeof v === 'string' ? map(v) : v);
    out[field] = { from: one(change.from), to: one(change.to) };
  }
  return out;
}

export const sealSourceChanges = (cipher: DataCipher, changes: Changes): Changes =>
  mapSecretValues(changes, (v) => cipher.encrypt(v, HISTORY));

export const openSourceChanges = (cipher: DataCipher, changes: Changes): Changes =>
  mapSecretValues(changes, (v) => cipher.decrypt(v, HISTORY));

/** Encrypts the values still in clear (history written before 0017); encrypted ones are kept. */
export const sealPlainSourceChanges = (cipher: DataCipher, changes: Changes): Changes =>
  mapSecretValues(changes, (v) => (isEncrypted(v) ? v : cipher.encrypt(v, HISTORY)));

/** Whether some identifying value of this history entry is still in clear. */
export const hasPlainSourceChanges = (changes: Changes): boolean =>
  Object.entries(changes).some(
    ([field, c]) =>
      isSecretHistoryField(field) && [c?.from, c?.to].some((v) => typeof v === 'string' && !isEncrypted(v)),
  );
