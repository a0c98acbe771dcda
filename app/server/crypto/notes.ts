// The text of an internal note as stored: encrypted with the data key, the additional data naming the
// column and the note's code, so a text copied onto another note (or another column) does not open.
// docs/decisions/0017 and 0029.
import { DomainError } from '../errors';
import { DecryptError, type CipherContext, type DataCipher } from './cipher';

export const NOTE_TEXT: CipherContext = 'report_notes.texte';

export const NOTE_UNREADABLE =
  "Le texte de cette note interne est illisible : sa valeur chiffrée a été altérée ou ne correspond pas à la clé de chiffrement. Prévenez l'administrateur.";

/** The stored form of a note's text, bound to the note's code. */
export const sealNote = (cipher: DataCipher, code: string, texte: string): string =>
  cipher.encrypt(texte, NOTE_TEXT, code);

/**
 * The note's text in clear. A value that does not open (altered, copied from another note, another key)
 * is refused with a French message that names neither the value nor the key (HTTP 422, logged).
 */
export function openNote(cipher: DataCipher, code: string, stored: string): string {
  try {
    return cipher.decrypt(stored, NOTE_TEXT, code);
  } catch (error) {
    if (error instanceof DecryptError) throw new DomainError('unreadable', NOTE_UNREADABLE, { note: code });
    throw error;
  }
}
