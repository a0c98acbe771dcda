// The shape of a report's code, known to the server (which draws codes: server/domains/signalements/code.ts)
// and to the client (placeholders, the journal's filter) alike.

/**
 * Crockford base32: no I, L, O or U, so a code read aloud on the phone or copied by hand cannot be
 * confused with 1, 0 or V, and no accidental word is spelled.
 */
export const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

const GROUP = `[${CODE_ALPHABET}]{4}`;
const SIGNALEMENT_CODE = new RegExp(`^SIG-${GROUP}-${GROUP}$`);

/** `SIG-XXXX-XXXX` in the code alphabet, upper case. */
export function isSignalementCode(value: string): boolean {
  return SIGNALEMENT_CODE.test(value);
}
