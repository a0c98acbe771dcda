import { useQuery } from '@tanstack/react-query';
import { adoptBusinessTimeZone } from '#web/lib/business-time-zone';
import { errorCode } from '#web/lib/errors';
import { useTRPC } from '#web/lib/trpc';

const WHO_AM_I_STALE_MS = 60_000;

/**
 * The logged-in user (auth.session: the user, or null without a session, answered 200 either way so that a
 * visit without a session logs no failed request). After a failed refetch React Query keeps the old `data`
 * but sets `isError`: read `isUnauthenticated` / `isSuccess`, never `data` alone, to decide what to show.
 */
export function useWhoAmI() {
  const trpc = useTRPC();
  const query = useQuery(trpc.auth.session.queryOptions(undefined, { staleTime: WHO_AM_I_STALE_MS }));
  // Days are shown in the server's business calendar (0018): set before the guarded screens render.
  if (query.data?.timeZone) adoptBusinessTimeZone(query.data.timeZone);
  return {
    ...query,
    user: query.data ?? undefined,
    isUnauthenticated:
      (query.isSuccess && query.data === null) ||
      (query.isError && errorCode(query.error) === 'UNAUTHORIZED'),
  };
}
