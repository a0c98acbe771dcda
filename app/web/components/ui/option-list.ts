export interface Option {
  value: string;
  label: string;
  /** A second, smaller line or a badge text (e.g. the code). */
  hint?: string;
}

/** Case- and accent-insensitive match of a search term in an option's label, hint or value. */
export function filterOptions(options: readonly Option[], search: string): Option[] {
  const term = normalize(search.trim());
  if (!term) return [...options];
  return options.filter((o) => normalize(`${o.label} ${o.hint ?? ''} ${o.value}`).includes(term));
}

export function normalize(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLocaleLowerCase('fr-FR');
}
