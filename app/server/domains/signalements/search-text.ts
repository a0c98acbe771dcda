/**
 * Users type 'detournement' for 'Détournement' and 'toliara' in any case: the list search compares
 * this normalised form on both sides, which also keeps it identical on SQLite and PostgreSQL (neither
 * engine's lower() or collation folds accents the same way).
 */
export function normalizeSearch(text: string): string {
  return (
    text
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      // French ligatures have no decomposition: 'œuvre' must still match 'oeuvre'.
      .replace(/œ/g, 'oe')
      .replace(/æ/g, 'ae')
      // Typed queries use the keyboard apostrophe; stored text often has the typographic one.
      .replace(/[\u2018\u2019\u02bc]/g, "'")
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** The `searchText` column of a report: every searchable part, normalised, blanks skipped. */
export function buildSearchText(parts: Array<string | null | undefined>): string {
  const kept: string[] = [];
  for (const part of parts) {
    if (part == null) continue;
    const normalised = normalizeSearch(part);
    if (normalised !== '') kept.push(normalised);
  }
  return kept.join(' ');
}
