import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '#web/lib/trpc';

/** The reader's saved filters, personal ones first (docs/decisions/0046-saved-filters.md). */
export function useSavedFilters() {
  const trpc = useTRPC();
  const query = useQuery(trpc.filtres.list.queryOptions());
  const filtres = query.data ? [...query.data.personnels, ...query.data.partages] : [];
  return { filtres, failed: query.isError, loaded: query.isSuccess };
}
