// Opening a sealed backup file (docs/decisions/0017, "Backups"; the format is seal.ts's): the engine it holds,
// read without a secret, and its payload, each chunk authenticated before it is yielded.
import { createDecipheriv, createHmac, createPublicKey, diffieHellman, timingSafeEqual } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import {
  CHUNK,
  formatRecipient,
  KEY,
  MAX_HEADER,
  nonce,
  parseRecipient,
  rawPublic,
  SCRYPT_MAX_N,
  SEAL_MAGIC,
  SealError,
  stretch,
  subkeys,
  TAG,
  unwrap,
  x25519Key,
  type SealHeader,
  type Unlock,
} from './seal';

const damaged = (file: string) =>
  new SealError(`Sauvegarde modifiée, tronquée ou endommagée : ${file} (refusée, rien n'a été remplacé).`);

/** Reads and checks the header, unwraps the file key with `unlock`; throws SealError in French. */
async function openHeader(
  handle: FileHandle,
  file: string,
  unlock: Unlock,
): Promise<{ header: SealHeader; mac: Buffer; payloadKey: Buffer; start: number }> {
  const first = Buffer.alloc(SEAL_MAGIC.length + 4);
  const { bytesRead } = await handle.read(first, 0, first.length, 0);
  if (bytesRead < first.length || !first.subarray(0, SEAL_MAGIC.length).equals(SEAL_MAGIC)) {
    throw new SealError(`${file} n'est pas une sauvegarde scellée de Signalements (npm run db:backup).`);
  }
  const length = first.readUInt32BE(SEAL_MAGIC.length);
  if (length > MAX_HEADER) throw damaged(file);
  const rest = Buffer.alloc(length + KEY);
  if ((await handle.read(rest, 0, rest.length, first.length)).bytesRead < rest.length) throw damaged(file);
  const json = rest.subarray(0, length);
  let header: SealHeader;
  try {
    header = JSON.parse(json.toString('utf8')) as SealHeader;
    if (
      !Array.isArray(header.slots) ||
      !Number.isInteger(header.chunkSize) ||
      header.chunkSize <= 0 ||
      header.chunkSize > 16 * CHUNK
    )
      throw new Error();
  } catch {
    throw damaged(file);
  }
  const fileKey = await unwrapFileKey(header, unlock, file);
  const keys = subkeys(fileKey, header.salt);
  const mac = createHmac('sha256', keys.mac)
    .update(Buffer.concat([first, json]))
    .digest();
  if (!timingSafeEqual(mac, rest.subarray(length))) throw damaged(file);
  return { header, mac, payloadKey: keys.payload, start: first.length + rest.length };
}

async function unwrapFileKey(header: SealHeader, unlock: Unlock, file: string): Promise<Buffer> {
  if (unlock.identity) {
    const slot = header.slots.find((s) => s.type === 'x25519');
    if (!slot)
      throw new SealError(
        `${file} n'est pas scellée pour une clé privée : donnez la phrase de passe (BACKUP_PASSPHRASE).`,
      );
    const ours = formatRecipient(createPublicKey(unlock.identity));
    const eph = parseRecipient(`x25519:${slot.ephemeral}`);
    const key =
      ours === slot.recipient && eph
        ? unwrap(
            x25519Key(
              diffieHellman({ privateKey: unlock.identity, publicKey: eph }),
              rawPublic(eph),
              rawPublic(createPublicKey(unlock.identity)),
            ),
            slot.wrapped,
            'x25519',
          )
        : null;
    if (!key)
      throw new SealError(
        `Cette clé privée n'ouvre pas ${file} (sauvegarde scellée pour ${slot.recipient}).`,
      );
    return key;
  }
  if (unlock.passphrase !== undefined) {
    const slot = header.slots.find((s) => s.type === 'passphrase');
    if (!slot)
      throw new SealError(
        `${file} n'est pas scellée par une phrase de passe : donnez la clé privée (--identity FICHIER).`,
      );
    // The slot is read before the header can be checked: its cost is bounded (at most 512 MiB, 4 passes).
    const sane =
      [slot.N, slot.r, slot.p].every((n) => Number.isInteger(n) && n >= 1) &&
      slot.N <= SCRYPT_MAX_N &&
      slot.N * slot.r <= 2 ** 22 &&
      slot.p <= 4;
    const stretched = sane
      ? await stretch(
          unlock.passphrase,
          Buffer.from(String(slot.salt), 'base64'),
          slot.N,
          slot.r,
          slot.p,
        ).catch(() => null)
      : null;
    if (!stretched) throw damaged(file);
    const key = unwrap(stretched, slot.wrapped, 'passphrase');
    if (!key) throw new SealError(`Phrase de passe incorrecte pour ${file} (ou sauvegarde modifiée).`);
    return key;
  }
  throw new SealError(
    'Indiquez la phrase de passe (BACKUP_PASSPHRASE) ou la clé privée (--identity FICHIER) de la sauvegarde.',
  );
}

/**
 * The engine a sealed file holds, read without any secret (the header is authenticated when the file is
 * opened); null when the file is not a sealed backup at all, SealError when it is one that was damaged.
 */
export async function sealedEngine(file: string): Promise<SealHeader['engine'] | null> {
  const handle = await open(file, 'r');
  try {
    const first = Buffer.alloc(SEAL_MAGIC.length + 4);
    const { bytesRead } = await handle.read(first, 0, first.length, 0);
    if (bytesRead < SEAL_MAGIC.length || !first.subarray(0, SEAL_MAGIC.length).equals(SEAL_MAGIC))
      return null;
    if (bytesRead < first.length) throw damaged(file);
    const length = first.readUInt32BE(SEAL_MAGIC.length);
    if (length > MAX_HEADER) throw damaged(file);
    const json = Buffer.alloc(length);
    if ((await handle.read(json, 0, length, first.length)).bytesRead < length) throw damaged(file);
    let engine: unknown;
    try {
      engine = (JSON.parse(json.toString('utf8')) as SealHeader).engine;
    } catch {
      throw damaged(file);
    }
    if (engine !== 'sqlite' && engine !== 'postgres') throw damaged(file);
    return engine;
  } finally {
    await handle.close();
  }
}

/**
 * The payload of a sealed file, chunk by chunk, each authenticated before it is yielded; the iteration
 * throws SealError at the first changed chunk and at the end of a cut file. A consumer must treat what it
 * received as untrusted until the iteration has ended without error.
 */
export async function* unseal(file: string, unlock: Unlock): AsyncGenerator<Buffer, void, undefined> {
  const handle = await open(file, 'r');
  try {
    const { header, mac, payloadKey, start } = await openHeader(handle, file, unlock);
    const size = (await handle.stat()).size;
    const step = header.chunkSize + TAG;
    let index = 0;
    for (let position = start; ; position += step, index++) {
      const length = Math.min(step, size - position);
      if (length < TAG) throw damaged(file);
      const final = position + length >= size;
      const bytes = Buffer.alloc(length);
      if ((await handle.read(bytes, 0, length, position)).bytesRead < length) throw damaged(file);
      let plain: Buffer;
      try {
        const decipher = createDecipheriv('aes-256-gcm', payloadKey, nonce(index, final));
        decipher.setAAD(mac);
        decipher.setAuthTag(bytes.subarray(length - TAG));
        plain = Buffer.concat([decipher.update(bytes.subarray(0, length - TAG)), decipher.final()]);
      } catch {
        throw damaged(file);
      }
      yield plain;
      if (final) return;
    }
  } finally {
    await handle.close();
  }
}
