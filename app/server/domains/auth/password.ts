import argon2 from 'argon2';
import { hashGate } from './hash-gate';

// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane).
const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export { BUSY_MESSAGE, hashGate, isBusy } from './hash-gate';

/** `key` (the client address) is the share of the gate (hash-gate.ts) this hash waits in. */
export function hashPassword(password: string, key?: string): Promise<string> {
  return hashGate.run(() => argon2.hash(password, OPTIONS), key);
}

export async function verifyPassword(hash: string, password: string, key?: string): Promise<boolean> {
  return hashGate.run(async () => {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }, key);
}

let dummyHash: Promise<string> | undefined;
/** Verifies against a throw-away hash so an unknown e-mail costs as much time as a wrong password. */
export async function burnPasswordCheck(password: string, key?: string): Promise<void> {
  dummyHash ??= argon2.hash('mot-de-passe-factice-pour-egaliser-le-temps', OPTIONS);
  await verifyPassword(await dummyHash, password, key);
}

/** A readable random password (for the first administrator), about 100 bits. */
export function generatePassword(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  const chars = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5, 10)}-${chars.slice(10, 15)}-${chars.slice(15, 20)}`;
}
