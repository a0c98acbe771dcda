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

/** What a report's search text is made of, besides the names of its people. */
export interface SearchFacts {
  code: string;
  description: string | null;
  partenaire: { code: string; designation: string };
  subjects: readonly { designation: string }[];
  autreObject: string | null | undefined;
  /** Region, district and commune, in this order; null when unset. */
  places: readonly ({ designation: string } | null | undefined)[];
  fokontany: string | null;
}

/**
 * The search text of a report: the list search's one definition of it, used by the refresh
 * (search-refresh.ts), by a create, which writes it with the report's own insert (decision 0058), and by
 * the demo generator. Sources' names are encrypted and never part of it (decision 0017).
 */
export function reportSearchText(r: SearchFacts, names: readonly string[]): string {
  return buildSearchText([
    r.code,
    r.description,
    r.partenaire.designation,
    r.partenaire.code,
    ...r.subjects.map((x) => x.designation),
    r.autreObject,
    ...r.places.map((place) => place?.designation ?? null),
    r.fokontany,
    ...names,
  ]);
}
