// The sealed format alone (seal.ts): any payload size comes back byte for byte, and a file with bytes
// appended, a chunk dropped or two chunks swapped is refused — the final-chunk flag and the chunk number
// in each nonce are what make a cut or rearranged file fail.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateRecipient, parseIdentity, SEAL_MAGIC, SealError, sealTo } from './seal';
import { unseal } from './seal-open';

const dir = mkdtempSync(join(tmpdir(), 'signalements-sceau-'));
const pair = generateRecipient();
const unlock = { identity: parseIdentity(pair.privatePem) };
const CHUNK = 64 * 1024;

async function sealed(name: string, payload: Buffer): Promise<string> {
  const file = join(dir, name);
  await sealTo(
    file,
    'sqlite',
    { recipient: pair.recipient },
    (async function* () {
      // In uneven pieces, as a stream gives them.
      for (let at = 0; at < payload.length; at += 10_000) yield payload.subarray(at, at + 10_000);
    })(),
  );
  return file;
}

async function opened(file: string): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of unseal(file, unlock)) pieces.push(piece);
  return Buffer.concat(pieces);
}

/** Where the chunks start: after magic, length, header and its 32-byte MAC. */
const chunksStart = (bytes: Buffer) => SEAL_MAGIC.length + 4 + bytes.readUInt32BE(SEAL_MAGIC.length) + 32;

describe('sealed backup format', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK])(
    'gives back a payload of %i bytes unchanged',
    async (size) => {
      const payload = randomBytes(size);
      expect((await opened(await sealed(`taille-${size}`, payload))).equals(payload)).toBe(true);
    },
  );

  it('refuses bytes appended, a chunk dropped and two chunks swapped', async () => {
    const file = await sealed('ordre', randomBytes(3 * CHUNK + 100));
    const bytes = readFileSync(file);
    const start = chunksStart(bytes);
    const step = CHUNK + 16;
    const chunk = (i: number) =>
      bytes.subarray(start + i * step, Math.min(bytes.length, start + (i + 1) * step));
    const head = bytes.subarray(0, start);
    const variants = {
      appended: Buffer.concat([bytes, Buffer.from('x')]),
      extraChunk: Buffer.concat([bytes, chunk(0)]),
      dropped: Buffer.concat([head, chunk(0), chunk(2), chunk(3)]),
      lastDropped: Buffer.concat([head, chunk(0), chunk(1), chunk(2)]),
      swapped: Buffer.concat([head, chunk(1), chunk(0), chunk(2), chunk(3)]),
    };
    for (const [name, variant] of Object.entries(variants)) {
      const changed = join(dir, `ordre-${name}`);
      writeFileSync(changed, variant);
      await expect(opened(changed), name).rejects.toThrow(SealError);
    }
  });
});
