// Encryption of evidence files at rest (docs/decisions/0033-evidence-files.md). Each file has a random key of
// its own, stored wrapped by the data key with the data cipher (0017), so a key rotation rewraps one value per
// file instead of rewriting every block. Its blocks are AES-256-GCM under that key, as the data cipher seals a
// value: a fresh 12-byte nonce, a 16-byte tag, and additional data that binds each block to its file, its
// place and whether it is the last one, so blocks cannot be reordered, dropped, cut off or moved.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { asc, eq, gt } from 'drizzle-orm';
import type { Database, Orm } from '../db/client';
import { DATA_KEY_BYTES, DecryptError, type DataCipher } from './cipher';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_CONTEXT = 'evidence_files.cle';

export const newFileKey = (): Buffer => randomBytes(DATA_KEY_BYTES);

export const wrapFileKey = (cipher: DataCipher, key: Buffer): string =>
  cipher.encrypt(key.toString('base64'), KEY_CONTEXT);

export function unwrapFileKey(cipher: DataCipher, stored: string): Buffer {
  const key = Buffer.from(cipher.decrypt(stored, KEY_CONTEXT), 'base64');
  if (key.length !== DATA_KEY_BYTES) throw new DecryptError(KEY_CONTEXT);
  return key;
}

const blockAad = (file: string, index: number, last: boolean) =>
  Buffer.from(`evidence_chunks|${file}|${index}|${last ? 'fin' : 'suite'}`, 'utf8');

/** nonce ‖ ciphertext ‖ tag of one block of the file `file` (its code). */
export function sealBlock(key: Buffer, file: string, index: number, last: boolean, plain: Buffer): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(blockAad(file, index, last));
  return Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

/** Throws DecryptError on a wrong key, an altered block, or a block out of its place. */
export function openBlock(key: Buffer, file: string, index: number, last: boolean, sealed: Buffer): Buffer {
  if (sealed.length < NONCE_BYTES + TAG_BYTES) throw new DecryptError('evidence_files.cle');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, NONCE_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(blockAad(file, index, last));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES)),
      decipher.final(),
    ]);
  } catch {
    throw new DecryptError('evidence_files.cle');
  }
}

/** Key rotation (rotate.ts): every file key rewrapped from `from` to `to`, in the rotation's transaction. */
export async function rotateEvidenceKeys(
  db: Database,
  tx: Orm,
  from: DataCipher,
  to: DataCipher,
): Promise<number> {
  const f = db.t.evidenceFiles;
  let done = 0;
  for (let after = 0; ;) {
    const rows = await tx
      .select({ id: f.id, cle: f.cle })
      .from(f)
      .where(gt(f.id, after))
      .orderBy(asc(f.id))
      .limit(500);
    if (rows.length === 0) return done;
    for (const row of rows) {
      await tx
        .update(f)
        .set({ cle: wrapFileKey(to, unwrapFileKey(from, row.cle)) })
        .where(eq(f.id, row.id));
      done++;
    }
    after = rows[rows.length - 1]!.id;
  }
}
