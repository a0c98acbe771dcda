// How a new partner gets its code, initial and colour from its designation (decision 0006): uppercase ASCII,
// e.g. 'Ministère de la Justice' → code MINJUS (then MINJUS2, MINJUS3… when taken), initial MJ.

/** Short words that say nothing about the partner. */
const STOP_WORDS = new Set([
  'A',
  'AU',
  'AUX',
  'D',
  'DE',
  'DES',
  'DU',
  'EN',
  'ET',
  'L',
  'LA',
  'LE',
  'LES',
  'PAR',
  'POUR',
  'SUR',
  'UN',
  'UNE',
  'AND',
  'FOR',
  'OF',
  'THE',
]);

const MAX_WORDS = 4;
const LETTERS_PER_WORD = 3;
const SINGLE_WORD_LENGTH = 8;
const FALLBACK_CODE = 'PART';

function words(designation: string): string[] {
  const all = designation
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
  const significant = all.filter((w) => !STOP_WORDS.has(w));
  return significant.length > 0 ? significant : all;
}

/** The code before de-duplication: the first three letters of up to four significant words. */
export function partnerCodeBase(designation: string): string {
  const list = words(designation);
  if (list.length === 0) return FALLBACK_CODE;
  if (list.length === 1) return list[0]!.slice(0, SINGLE_WORD_LENGTH);
  return list
    .slice(0, MAX_WORDS)
    .map((w) => w.slice(0, LETTERS_PER_WORD))
    .join('');
}

/** The first code of base, base2, base3… that is not taken. */
export function firstFreeCode(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    if (!taken.has(`${base}${n}`)) return `${base}${n}`;
  }
}

/** Two letters: the initials of the first two significant words, or the first two letters of one word. */
export function partnerInitial(designation: string): string {
  const list = words(designation);
  if (list.length === 0) return 'P';
  if (list.length === 1) return list[0]!.slice(0, 2);
  return `${list[0]![0]}${list[1]![0]}`;
}

/** Fixed palette of partner colours, readable as badge text on a light tint (Tailwind 600 shades). */
export const PARTNER_PALETTE = [
  // Blue last: the internal partner Ivorary is already blue (#3b82f6).
  '#16a34a',
  '#9333ea',
  '#ea580c',
  '#0891b2',
  '#db2777',
  '#ca8a04',
  '#4f46e5',
  '#0d9488',
  '#dc2626',
  '#65a30d',
  '#475569',
  '#2563eb',
] as const;

/** The palette colour used by the fewest partners (palette order breaks ties), so badges stay distinct. */
export function leastUsedColor(usage: ReadonlyMap<string, number>): string {
  let best: string = PARTNER_PALETTE[0];
  let bestCount = Infinity;
  for (const color of PARTNER_PALETTE) {
    const used = usage.get(color) ?? 0;
    if (used < bestCount) {
      best = color;
      bestCount = used;
    }
  }
  return best;
}
