// Reference lists of §7 for the report screens, as picker options. They change rarely: cached 5 minutes.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { FILTER_PICKER_SIZE, OPTION_LIST_SIZE, SEARCH_DEBOUNCE_MS } from '#shared/constants';
import type { Option } from '#web/components/ui/option-list';
import { useDebouncedValue } from '#web/lib/use-debounce';
import { useTRPC } from '#web/lib/trpc';

const STALE_MS = 5 * 60_000;

type Coded = { code: string; designation: string };
export const toOptions = (rows: readonly Coded[] | undefined): Option[] =>
  (rows ?? []).map((r) => ({ value: r.code, label: r.designation }));

export function useSubjects() {
  const trpc = useTRPC();
  return useQuery(trpc.referentiels.subjects.queryOptions(undefined, { staleTime: STALE_MS }));
}
export function useCanals() {
  const trpc = useTRPC();
  return useQuery(trpc.referentiels.canals.queryOptions(undefined, { staleTime: STALE_MS }));
}
export function useNiveaux() {
  const trpc = useTRPC();
  return useQuery(trpc.referentiels.niveaux.queryOptions(undefined, { staleTime: STALE_MS }));
}
export function useStatuts() {
  const trpc = useTRPC();
  return useQuery(trpc.referentiels.statuts.queryOptions(undefined, { staleTime: STALE_MS }));
}
export function useResultats() {
  const trpc = useTRPC();
  return useQuery(trpc.referentiels.resultats.queryOptions(undefined, { staleTime: STALE_MS }));
}
export function useRegions() {
  const trpc = useTRPC();
  return useQuery(trpc.referentiels.regions.queryOptions(undefined, { staleTime: STALE_MS }));
}
/** Districts of a region; nothing is fetched before a region is chosen (§5: district disabled until then). */
export function useDistricts(region: string | null) {
  const trpc = useTRPC();
  return useQuery(
    trpc.referentiels.districts.queryOptions(
      { region: region ?? '' },
      { staleTime: STALE_MS, enabled: !!region },
    ),
  );
}
export function useCommunes(district: string | null) {
  const trpc = useTRPC();
  return useQuery(
    trpc.referentiels.communes.queryOptions(
      { district: district ?? '' },
      { staleTime: STALE_MS, enabled: !!district },
    ),
  );
}

/** Partners for a picker: 500 without a search term, 300 with one (§7), searched on the server. */
export function usePartenaireOptions(search: string) {
  const trpc = useTRPC();
  const term = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const query = useQuery(
    trpc.partenaires.list.queryOptions(
      {
        page: 1,
        itemsPerPage: term ? FILTER_PICKER_SIZE : OPTION_LIST_SIZE,
        ...(term ? { search: term } : {}),
      },
      { staleTime: STALE_MS, placeholderData: keepPreviousData },
    ),
  );
  const options: Option[] = (query.data?.items ?? []).map((p) => ({
    value: p.code,
    label: p.designation,
    hint: p.code,
  }));
  return { ...query, options };
}

/** Users for the creator filter: 300 at most, searched on the server (§7). */
export function useUtilisateurOptions(search: string) {
  const trpc = useTRPC();
  const term = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const query = useQuery(
    trpc.utilisateurs.options.queryOptions(
      { search: term },
      { staleTime: STALE_MS, placeholderData: keepPreviousData },
    ),
  );
  const options: Option[] = (query.data ?? []).map((u) => ({
    value: u.code,
    label: u.nomPrenom,
    hint: u.email,
  }));
  return { ...query, options };
}
