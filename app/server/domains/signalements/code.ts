import { randomBytes } from 'node:crypto';

import { CODE_ALPHABET } from '#shared/signalement-code';

export { CODE_ALPHABET, isSignalementCode } from '#shared/signalement-code';

// One randomBytes call per code costs more than the encoding itself when the demo generator draws
// hundreds of thousands of codes, so bytes are drawn in blocks and consumed five at a time.
const POOL_SIZE = 5 * 1024;
let pool = randomBytes(POOL_SIZE);
let poolOffset = 0;

function take5Bytes(): number {
  if (poolOffset + 5 > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  // 40 bits do not fit in a 32-bit bitwise integer: combine one byte and one 32-bit word arithmetically.
  const high = pool[poolOffset]!;
  const low = pool.readUInt32BE(poolOffset + 1);
  poolOffset += 5;
  return high * 2 ** 32 + low;
}

/** Eight Crockford characters from 40 random bits (five bits each, so no modulo bias). */
function randomBody(): string {
  let value = take5Bytes();
  const chars: string[] = new Array<string>(8);
  for (let i = 7; i >= 0; i--) {
    chars[i] = CODE_ALPHABET[value % 32]!;
    value = Math.floor(value / 32);
  }
  return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

/** `PREFIX-XXXX-XXXX` with 40 random bits, e.g. 'AUT-7K2M-Q9ZD'. Callers handle the rare collision. */
export function generateCode(prefix: string): string {
  return `${prefix}-${randomBody()}`;
}

/** A new report code, `SIG-XXXX-XXXX`. */
export function generateSignalementCode(): string {
  return generateCode('SIG');
}
