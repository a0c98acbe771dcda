// Encryption at rest of the values that identify a source (docs/decisions/0017): AES-256-GCM with a
// fresh 12-byte nonce per value and the column named in the additional data, and a keyed blind index
// (HMAC-SHA-256) for exact search on names. Both subkeys are derived from the one data key with HKDF,
// so the index never reveals anything about the encryption key and one rotation replaces both.
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { normalizeSearch } from '../domains/signalements/search-text';

export const DATA_KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const PREFIX = 'v1:';

/** Where a value lives: the additional data binds a ciphertext to its column. */
export type CipherContext =
  | 'sources.nom_prenom'
  | 'sources.contact'
  | 'sources.description'
  | 'sources.autre_canal'
  | 'signalement_historique.changes'
  | 'two_factor_keys.key'
  | 'sessions.two_factor_pending_key'
  | 'idempotency_keys.response'
  | 'report_notes.texte'
  | 'evidence_files.cle'
  | 'webhook_endpoints.secret'
  | 'webhook_endpoints.previous_secret'
  | 'data_key_check.verifier';

/** A stored value that does not decrypt with this key: a wrong key or a damaged value, never garbage. */
export class DecryptError extends Error {
  constructor(readonly context: CipherContext) {
    super(`Valeur chiffrée illisible (${context}) : clé incorrecte ou donnée altérée.`);
    this.name = 'DecryptError';
  }
}

export interface DataCipher {
  /**
   * `row`, when given, joins the column in the additional data: the value then decrypts only as this row's
   * (a note's text copied onto another note is refused). The same `row` must be given to decrypt.
   */
  encrypt(plain: string, context: CipherContext, row?: string): string;
  /** Throws DecryptError on any failure (wrong key, altered value, value of another column or row). */
  decrypt(stored: string, context: CipherContext, row?: string): string;
  encryptNullable(plain: string | null, context: CipherContext): string | null;
  decryptNullable(stored: string | null, context: CipherContext): string | null;
  /** HMAC of the normalised name: equal names give equal indexes, nothing else can be read from it. */
  blindIndex(name: string | null): string | null;
  /**
   * The key of one session's offline store on its device (docs/decisions/0048-offline-store.md): an HMAC of
   * the session id under its own subkey, so it is the same for the whole session, differs between sessions,
   * and reveals nothing of the data key. 32 bytes, base64url.
   */
  offlineStoreKey(sessionId: string): string;
}

/** Whether a stored value has the encrypted format (anything else is plaintext written before 0017). */
export const isEncrypted = (value: string | null | undefined): boolean =>
  typeof value === 'string' && value.startsWith(PREFIX);

export const generateDataKey = (): Buffer => randomBytes(DATA_KEY_BYTES);

/** The key as written in a key file or printed for DATA_KEY. */
export const formatDataKey = (key: Buffer): string => key.toString('base64');

/** A key given as 64 hexadecimal characters or as base64 of 32 bytes; null for anything else. */
export function parseDataKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return null;
  const bytes = Buffer.from(trimmed, 'base64');
  return bytes.length === DATA_KEY_BYTES ? bytes : null;
}

function subkey(key: Buffer, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), info, DATA_KEY_BYTES));
}

export function createCipher(key: Buffer): DataCipher {
  if (key.length !== DATA_KEY_BYTES) throw new Error(`data key must be ${DATA_KEY_BYTES} bytes`);
  const encKey = subkey(key, 'signalements/aes-256-gcm/v1');
  const indexKey = subkey(key, 'signalements/blind-index/v1');
  const offlineKey = subkey(key, 'signalements/offline-store/v1');

  // The column alone, as before rows were bound (every value written so far keeps opening); with a row,
  // the column, a NUL (in no column name) and the row's stable key.
  const aad = (context: CipherContext, row?: string) =>
    Buffer.from(row === undefined ? context : `${context}\0${row}`, 'utf8');

  const encrypt = (plain: string, context: CipherContext, row?: string): string => {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', encKey, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(context, row));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url');
  };

  const decrypt = (stored: string, context: CipherContext, row?: string): string => {
    if (!isEncrypted(stored)) throw new DecryptError(context);
    const bytes = Buffer.from(stored.slice(PREFIX.length), 'base64url');
    if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new DecryptError(context);
    try {
      const decipher = createDecipheriv('aes-256-gcm', encKey, bytes.subarray(0, NONCE_BYTES), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(aad(context, row));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new DecryptError(context);
    }
  };

  return {
    encrypt,
    decrypt,
    encryptNullable: (plain, context) => (plain === null ? null : encrypt(plain, context)),
    decryptNullable: (stored, context) => (stored === null ? null : decrypt(stored, context)),
    blindIndex(name) {
      if (name === null) return null;
      const normalised = normalizeSearch(name);
      if (normalised === '') return null;
      return createHmac('sha256', indexKey).update(normalised, 'utf8').digest('base64url');
    },
    offlineStoreKey: (sessionId) =>
      createHmac('sha256', offlineKey).update(sessionId, 'utf8').digest('base64url'),
  };
}

/** Constant-time comparison of two keys (rotation refuses to "rotate" to the same key). */
export const sameKey = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);
