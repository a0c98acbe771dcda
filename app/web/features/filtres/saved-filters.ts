// Which saved filter the address bar shows (docs/decisions/0046-saved-filters.md): the URL is the source of
// truth, so a filter is active when the list's filters, read and written back as the server stored them
// (normalised, without the page), are its query string.
import type { FiltreDto } from '#shared/dto/filtres';
import { listSearchString, parseListSearch } from '#shared/list-url';

export const LIST_PATH = '/signalement/list';

/** The link of a saved filter, under the router's base (/admin). */
export const filtrePath = (filtre: Pick<FiltreDto, 'requete'>) => `${LIST_PATH}?${filtre.requete}`;

/** The normalised query string of the list's address, or null off the list. */
export function currentRequete(location: string, search: string): string | null {
  if (location !== LIST_PATH) return null;
  return listSearchString({ ...parseListSearch(search), page: 1 });
}

/** The id of the first filter (personal ones first) whose query string the address shows. */
export function activeFiltre(filtres: readonly FiltreDto[], requete: string | null): number | null {
  if (!requete) return null;
  return filtres.find((f) => f.requete === requete)?.id ?? null;
}
