// Encryption of the offline store (docs/decisions/0048-offline-store.md): AES-256-GCM through WebCrypto,
// with the session's key imported as a NON-extractable CryptoKey (script can use it, never read it), a fresh
// 12-byte nonce per value, and the entry's place (store and id) as additional data, so a value copied onto
// another entry does not open.

/** What an entry holds on the device: nonce and ciphertext, nothing readable. */
export interface Sealed {
  iv: Uint8Array<ArrayBuffer>;
  data: ArrayBuffer;
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The session key given by auth.offlineKey (base64url of 32 bytes) as a non-extractable AES-GCM key. */
export function importSessionKey(key: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', fromBase64Url(key), { name: 'AES-GCM' }, false, [
    'encrypt',
    'decrypt',
  ]);
}

/** A short fingerprint of the session key, to know whether the stored key is this session's. */
export async function keyFingerprint(key: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', fromBase64Url(key));
  return Array.from(new Uint8Array(digest).subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
}

const aad = (place: string) => new TextEncoder().encode(place);

export async function seal(key: CryptoKey, place: string, value: unknown): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify(value));
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad(place) }, key, plain);
  return { iv, data };
}

/** The value, or undefined when it does not open with this key at this place (another session, altered). */
export async function unseal(key: CryptoKey, place: string, sealed: Sealed): Promise<unknown> {
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: sealed.iv, additionalData: aad(place) },
      key,
      sealed.data,
    );
    return JSON.parse(new TextDecoder().decode(plain)) as unknown;
  } catch {
    return undefined;
  }
}
