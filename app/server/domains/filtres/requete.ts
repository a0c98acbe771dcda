// A saved filter's query string (docs/decisions/0046-saved-filters.md), checked strictly and stored
// normalised. The list reads its address bar leniently (junk falls back to defaults, shared/list-url.ts); a
// filter kept for the whole team is refused instead when it holds anything the list would not read: an
// unknown parameter, a repeated single one, an unknown sort, a bad day, a district without its region, or a
// value the list's own zod schema (signalementListSchema) refuses. What is stored is what the list writes
// back for those filters (listSearchString), without the page: two spellings of one filter are one string.
import {
  ECHEANCE_FILTERS,
  ETAT_FILTERS,
  ETAT_INVALID,
  signalementListSchema,
} from '#shared/schemas/signalements';
import { apiFilters, LIST_URL_KEYS, listSearchString, parseListSearch, SORTS } from '#shared/list-url';
import { invalid } from '#server/errors';

export const REQUETE_TEXTS = {
  unknown: (key: string) => `Paramètre de filtre inconnu : « ${key} ».`,
  repeated: (key: string) => `Le paramètre « ${key} » ne peut apparaître qu'une fois.`,
  character: 'Les filtres contiennent un caractère non autorisé.',
  sort: 'Tri inconnu.',
  day: 'Date invalide.',
  echeance: 'Échéance invalide (en_retard ou sous_7_jours).',
  etat: ETAT_INVALID,
  cascade: 'Un district demande sa région, et une commune son district.',
  empty: "Aucun filtre à enregistrer : choisissez d'abord des filtres dans la liste.",
} as const;

type UrlKey = (typeof LIST_URL_KEYS)[keyof typeof LIST_URL_KEYS];
const MANY: ReadonlySet<string> = new Set<UrlKey>([
  LIST_URL_KEYS.partenaires,
  LIST_URL_KEYS.subjects,
  LIST_URL_KEYS.createdBy,
]);
const KNOWN: ReadonlySet<string> = new Set<string>(Object.values(LIST_URL_KEYS));
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
// Control characters (NUL included) and lone surrogates: no engine stores them alike, no filter needs them.
const HOSTILE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A user's key, shown in a message: printable and short. */
const shown = (key: string) => (key.length > 40 ? `${key.slice(0, 40)}…` : key);

/**
 * The normalised query string (without '?') of the list's filters in `raw`, or a French 400. The page is
 * dropped (a saved filter opens on page 1); a string that names no filter and no sort is refused.
 */
export function normaliseRequete(raw: string): string {
  const params = new URLSearchParams(raw.startsWith('?') ? raw.slice(1) : raw);
  const seen = new Set<string>();
  for (const [key, value] of params) {
    if (HOSTILE.test(key) || HOSTILE.test(value)) throw invalid(REQUETE_TEXTS.character);
    if (!KNOWN.has(key)) throw invalid(REQUETE_TEXTS.unknown(shown(key)));
    if (!MANY.has(key) && seen.has(key)) throw invalid(REQUETE_TEXTS.repeated(key));
    seen.add(key);
  }
  const single = (key: UrlKey) => params.get(key)?.trim() || undefined;
  const sort = single(LIST_URL_KEYS.sort);
  if (sort !== undefined && !SORTS.some((s) => s.key === sort)) throw invalid(REQUETE_TEXTS.sort);
  for (const key of [LIST_URL_KEYS.after, LIST_URL_KEYS.before]) {
    const day = single(key);
    if (day !== undefined && !ISO_DAY.test(day)) throw invalid(REQUETE_TEXTS.day);
  }
  const echeance = single(LIST_URL_KEYS.echeance);
  if (echeance !== undefined && !ECHEANCE_FILTERS.some((e) => e === echeance))
    throw invalid(REQUETE_TEXTS.echeance);
  const etat = single(LIST_URL_KEYS.etat);
  if (etat !== undefined && !ETAT_FILTERS.some((e) => e === etat)) throw invalid(REQUETE_TEXTS.etat);
  const region = single(LIST_URL_KEYS.region);
  const district = single(LIST_URL_KEYS.district);
  if ((district && !region) || (single(LIST_URL_KEYS.commune) && !district))
    throw invalid(REQUETE_TEXTS.cascade);

  // Nothing is dropped any more by the lenient reading: what it reads is what was sent.
  const filters = { ...parseListSearch(params.toString()), page: 1 };
  const checked = signalementListSchema.safeParse({ page: 1, ...apiFilters(filters) });
  if (!checked.success) throw invalid(checked.error.issues[0]?.message ?? REQUETE_TEXTS.day);
  const normalised = listSearchString(filters);
  if (normalised === '') throw invalid(REQUETE_TEXTS.empty);
  return normalised;
}
