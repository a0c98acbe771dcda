// Sealed backup files (docs/decisions/0017, "Backups"): the database copy and the data key travel together
// in one file that only the holder of a passphrase or of a private key kept off the server can open, and
// that is refused whole if one byte of it changed. Built on node:crypto alone, in the image of age:
//   MAGIC | u32 header length | header (JSON) | HMAC-SHA-256 of all before | chunks
// A random file key is wrapped once per "slot" (a passphrase stretched with scrypt, or an X25519
// recipient); HKDF derives from it the header's MAC key and the payload key. The payload is cut into
// chunks of AES-256-GCM whose nonce is the chunk's number and a final-chunk flag, with the header's MAC
// as additional data: a chunk moved, dropped, added after the last, or the file cut anywhere, fails.
// This module writes a sealed file and holds the format's keys; seal-open.ts opens one.
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  scrypt,
  type KeyObject,
} from 'node:crypto';
import { open } from 'node:fs/promises';

export const SEAL_MAGIC = Buffer.from('SIGSAUV1');
export const CHUNK = 64 * 1024;
export const TAG = 16;
export const KEY = 32;
// OWASP's scrypt setting (N=2^17, r=8, p=1): 128 MiB and about a third of a second per try.
const SCRYPT = { N: 2 ** 17, r: 8, p: 1 } as const;
export const SCRYPT_MAX_N = 2 ** 20;
export const MAX_HEADER = 64 * 1024;
const RECIPIENT = /^x25519:([A-Za-z0-9_-]{43})$/;

/** A sealed file that cannot be opened: wrong secret, changed or cut file. One French line. */
export class SealError extends Error {}

export interface SealHeader {
  engine: 'sqlite' | 'postgres';
  createdAt: string;
  chunkSize: number;
  salt: string;
  slots: Slot[];
}

type Slot =
  | { type: 'passphrase'; N: number; r: number; p: number; salt: string; wrapped: string }
  | { type: 'x25519'; recipient: string; ephemeral: string; wrapped: string };

/** Who may open a backup: at least one of them. */
export interface SealFor {
  passphrase?: string;
  /** A public key as `x25519:<43 base64url characters>`. */
  recipient?: string;
}

/** What opens a backup. */
export interface Unlock {
  passphrase?: string;
  identity?: KeyObject;
}

/** The public key of BACKUP_RECIPIENT, or null when the text is not one. */
export function parseRecipient(text: string): KeyObject | null {
  const match = RECIPIENT.exec(text.trim());
  if (!match) return null;
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: match[1]! }, format: 'jwk' });
  } catch {
    return null;
  }
}

export const rawPublic = (key: KeyObject): Buffer =>
  Buffer.from(key.export({ format: 'jwk' }).x!, 'base64url');
export const formatRecipient = (key: KeyObject): string => `x25519:${key.export({ format: 'jwk' }).x!}`;

/** A new key pair: the public key for BACKUP_RECIPIENT, the private key as PEM (PKCS#8) for the operator. */
export function generateRecipient(): { recipient: string; privatePem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  return {
    recipient: formatRecipient(publicKey),
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** The private key of a file written by generateRecipient; throws SealError in French otherwise. */
export function parseIdentity(pem: string): KeyObject {
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType === 'x25519') return key;
  } catch {
    // Falls through to the refusal below.
  }
  throw new SealError(
    'Clé privée de sauvegarde invalide : une clé X25519 au format PEM est attendue (npm run db:backup -- --generate-recipient).',
  );
}

export function stretch(passphrase: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((done, fail) =>
    scrypt(
      passphrase.normalize('NFC'),
      salt,
      KEY,
      { N, r, p, maxmem: 256 * N * r + 16 * 1024 * 1024 },
      (error, key) => (error ? fail(error) : done(key)),
    ),
  );
}

export function x25519Key(shared: Buffer, ephemeral: Buffer, recipient: Buffer): Buffer {
  // An all-zero secret means a low-order public key: nothing secret would protect the file key.
  if (shared.every((b) => b === 0))
    throw new SealError('Clé publique de sauvegarde invalide (BACKUP_RECIPIENT).');
  return Buffer.from(
    hkdfSync('sha256', shared, Buffer.concat([ephemeral, recipient]), 'signalements-sauvegarde x25519', KEY),
  );
}

// A wrapping key serves one slot only (fresh salt or fresh ephemeral key), so a fixed nonce is safe.
function wrap(wrapKey: Buffer, fileKey: Buffer, type: string): string {
  const cipher = createCipheriv('aes-256-gcm', wrapKey, Buffer.alloc(12));
  cipher.setAAD(Buffer.from(`slot:${type}`));
  return Buffer.concat([cipher.update(fileKey), cipher.final(), cipher.getAuthTag()]).toString('base64');
}

export function unwrap(wrapKey: Buffer, wrapped: string, type: string): Buffer | null {
  const bytes = Buffer.from(String(wrapped), 'base64');
  if (bytes.length !== KEY + TAG) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', wrapKey, Buffer.alloc(12));
    decipher.setAAD(Buffer.from(`slot:${type}`));
    decipher.setAuthTag(bytes.subarray(KEY));
    return Buffer.concat([decipher.update(bytes.subarray(0, KEY)), decipher.final()]);
  } catch {
    return null;
  }
}

export function subkeys(fileKey: Buffer, salt: string): { mac: Buffer; payload: Buffer } {
  const s = Buffer.from(String(salt), 'base64');
  return {
    mac: Buffer.from(hkdfSync('sha256', fileKey, s, 'signalements-sauvegarde en-tête', KEY)),
    payload: Buffer.from(hkdfSync('sha256', fileKey, s, 'signalements-sauvegarde contenu', KEY)),
  };
}

export function nonce(index: number, final: boolean): Buffer {
  const n = Buffer.alloc(12);
  n.writeBigUInt64BE(BigInt(index), 3);
  n[11] = final ? 1 : 0;
  return n;
}

/**
 * Writes `payload` (any async iterable of bytes) sealed for `to` into `file`, created 0600 and never over
 * an existing file. The caller renames it into place once complete.
 */
export async function sealTo(
  file: string,
  engine: SealHeader['engine'],
  to: SealFor,
  payload: AsyncIterable<Buffer>,
): Promise<void> {
  const fileKey = randomBytes(KEY);
  const slots: Slot[] = [];
  if (to.passphrase) {
    const salt = randomBytes(16);
    const wrapKey = await stretch(to.passphrase, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p);
    slots.push({
      type: 'passphrase',
      ...SCRYPT,
      salt: salt.toString('base64'),
      wrapped: wrap(wrapKey, fileKey, 'passphrase'),
    });
  }
  if (to.recipient) {
    const recipient = parseRecipient(to.recipient);
    if (!recipient) throw new SealError('Clé publique de sauvegarde invalide (BACKUP_RECIPIENT).');
    const ephemeral = generateKeyPairSync('x25519');
    const eph = rawPublic(ephemeral.publicKey);
    const wrapKey = x25519Key(
      diffieHellman({ privateKey: ephemeral.privateKey, publicKey: recipient }),
      eph,
      rawPublic(recipient),
    );
    slots.push({
      type: 'x25519',
      recipient: formatRecipient(recipient),
      ephemeral: eph.toString('base64url'),
      wrapped: wrap(wrapKey, fileKey, 'x25519'),
    });
  }
  if (slots.length === 0)
    throw new SealError('Aucune clé de sauvegarde : définissez BACKUP_PASSPHRASE ou BACKUP_RECIPIENT.');
  const header: SealHeader = {
    engine,
    createdAt: new Date().toISOString(),
    chunkSize: CHUNK,
    salt: randomBytes(32).toString('base64'),
    slots,
  };
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  const head = Buffer.concat([SEAL_MAGIC, length, json]);
  const keys = subkeys(fileKey, header.salt);
  const mac = createHmac('sha256', keys.mac).update(head).digest();

  const out = await open(file, 'wx', 0o600);
  try {
    let position = 0;
    const write = async (bytes: Buffer) => {
      await out.write(bytes, 0, bytes.length, position);
      position += bytes.length;
    };
    await write(Buffer.concat([head, mac]));
    let index = 0;
    const seal = (plain: Buffer, final: boolean) => {
      const cipher = createCipheriv('aes-256-gcm', keys.payload, nonce(index++, final));
      cipher.setAAD(mac);
      return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    };
    // One chunk is held back: only at the end is it known which chunk is the last.
    let pending: Buffer = Buffer.alloc(0);
    for await (const piece of payload) {
      pending = pending.length ? Buffer.concat([pending, piece]) : piece;
      while (pending.length > CHUNK) {
        await write(seal(pending.subarray(0, CHUNK), false));
        pending = pending.subarray(CHUNK);
      }
    }
    await write(seal(pending, true));
    await out.sync();
  } finally {
    await out.close();
  }
}
