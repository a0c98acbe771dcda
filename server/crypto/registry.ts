// The data cipher of an open database. Kept beside the Database object rather than in it, so the
// many places that open a database without needing sources (export worker, benchmarks) stay as they
// are, and a service that touches sources on a database opened without its key fails loudly.
import type { Database } from '../db/client';
import type { DataCipher } from './cipher';

const ciphers = new WeakMap<Database, DataCipher>();

export function attachCipher(db: Database, cipher: DataCipher): void {
  ciphers.set(db, cipher);
}

export function cipherOf(db: Database): DataCipher {
  const cipher = ciphers.get(db);
  if (!cipher) throw new Error('data key not loaded for this database (see server/crypto/data-key.ts)');
  return cipher;
}

/** The cipher attached to `db`, or null when it was opened without its key (scripts, benchmarks). */
export function loadedCipher(db: Database): DataCipher | null {
  return ciphers.get(db) ?? null;
}
