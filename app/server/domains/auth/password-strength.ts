// Refuses the passwords an attacker tries first: leaked and common ones, dictionary words with obvious
// decorations, keyboard walks, repeats, and the user's own name or e-mail (OWASP Authentication cheat
// sheet, NIST SP 800-63B §5.1.1.2). The minimum length stays the shared schema's rule (passwordField).
// The estimator is zxcvbn-ts with the common and French dictionaries; they weigh several megabytes,
// so they are loaded on the first check, not at start.
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { invalid } from '#server/errors';

export const PASSWORD_STRENGTH_MESSAGES = {
  weak: 'Ce mot de passe est trop courant ou trop facile à deviner. Choisissez-en un plus long, sans mot du dictionnaire ni suite évidente.',
  personal: 'Le mot de passe ne doit contenir ni votre nom ni votre adresse e-mail.',
} as const;

/** zxcvbn's 3: "safely unguessable", about 10^8 guesses and more. */
const MIN_SCORE = 3;
/**
 * The check runs on the event loop and zxcvbn's time grows fast with the length (seconds at 256
 * characters); the first 64 characters of a strong password are strong already.
 */
const CHECKED_LENGTH = 64;
const L33T_MAX_SUBSTITUTIONS = 20;
/** Shorter pieces of a name ("Jo", "Rabe"'s "ab") would refuse unrelated passwords. */
const MIN_PERSONAL_WORD = 4;

let estimator: Promise<ZxcvbnFactory> | undefined;

function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, fr] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-fr'),
    ]);
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...fr.dictionary },
      graphs: common.adjacencyGraphs,
      maxLength: CHECKED_LENGTH,
      l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
    });
  })();
  // A failed load is retried by the next check rather than remembered.
  estimator.catch(() => {
    estimator = undefined;
  });
  return estimator;
}

/** Lower case, without accents, letters and digits only: « Héry.Rabe » and "hery-rabe" compare equal. */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The words a password must not contain: each e-mail's local part, each name, and their pieces. */
function personalWords(userInputs: string[]): string[] {
  const words = new Set<string>();
  for (const input of userInputs) {
    const folded = fold(input.includes('@') ? input.slice(0, input.lastIndexOf('@')) : input);
    for (const word of [folded.replaceAll(' ', ''), ...folded.split(' ')]) {
      if (word.length >= MIN_PERSONAL_WORD) words.add(word);
    }
  }
  return [...words];
}

/**
 * Why the password is refused (a French message), or null when it may be used.
 * `userInputs`: the user's e-mail address and name.
 */
export async function passwordWeakness(password: string, userInputs: string[]): Promise<string | null> {
  if (password.trim() === '' || new Set(password).size === 1) return PASSWORD_STRENGTH_MESSAGES.weak;
  const words = personalWords(userInputs);
  const folded = fold(password).replaceAll(' ', '');
  if (words.some((word) => folded.includes(word))) return PASSWORD_STRENGTH_MESSAGES.personal;
  const zxcvbn = await loadEstimator();
  const { score } = zxcvbn.check(password, words);
  return score < MIN_SCORE ? PASSWORD_STRENGTH_MESSAGES.weak : null;
}

/** Throws the `invalid` domain error (HTTP 400, tRPC BAD_REQUEST) with the French reason. */
export async function assertStrongPassword(password: string, userInputs: string[]): Promise<void> {
  const weakness = await passwordWeakness(password, userInputs);
  if (weakness) throw invalid(weakness);
}
