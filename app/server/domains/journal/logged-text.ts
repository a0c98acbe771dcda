// Free text never reaches the access log in clear (decision 0015, "No free text"): the exact name of a source
// was stored wherever someone searched for it, in an append-only table that goes into every dump and backup.
// Text a person typed is logged as its kind and length, with a keyed hash: HMAC with the data key's
// blind-index key (server/crypto/cipher.ts), under a label of its own, so it never equals a source's
// `nom_index` (the log cannot be joined to the sources) and can only be compared with another hash of the
// same log. Two entries with the same hash were the same text (repeated tries, the same search); nothing else
// is readable from it. A key rotation changes the hashes of later entries.
import type { DataCipher } from '#server/crypto/cipher';
import { isSignalementCode } from '../signalements/code';

const DIGEST_CHARS = 16;

/** The keyed hash of `text` for `purpose`; null without the data key (a context of a script). */
export function textDigest(cipher: DataCipher | null, purpose: string, text: string): string | null {
  const index = cipher ? cipher.blindIndex(`journal ${purpose} ${text}`) : null;
  return index === null ? null : index.slice(0, DIGEST_CHARS);
}

export type LoggedSearch =
  { type: 'code'; code: string } | { type: 'texte'; longueur: number; mots: number; empreinte?: string };

/** A search as logged: a report's code as such (not a name), any other text as its length and hash. */
export function describeSearch(cipher: DataCipher | null, search: string): LoggedSearch {
  const text = search.trim();
  if (isSignalementCode(text.toUpperCase())) return { type: 'code', code: text.toUpperCase() };
  const digest = textDigest(cipher, 'recherche', text);
  return {
    type: 'texte',
    longueur: [...text].length,
    mots: text.split(/\s+/).filter(Boolean).length,
    ...(digest === null ? {} : { empreinte: digest }),
  };
}

/** A code typed in a filter (a user's or a report's): kept when it has the shape of one, else described. */
export function loggedCode(cipher: DataCipher | null, value: string, shape: RegExp): string | LoggedSearch {
  return shape.test(value) ? value : describeSearch(cipher, value);
}
