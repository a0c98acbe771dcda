import { matchQuery, MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, httpLink, splitLink } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { createTRPCContext, createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import type { AppRouter } from '#server/trpc/router';
import { IDEMPOTENT_CREATES, TRPC_MAX_BATCH } from '#shared/constants';
import { errorCode } from './errors';
import { idempotencyLink } from './idempotency-link';
import { outboxLink } from './offline/outbox-link';
import { adoptSessionKey, wipeOffline } from './offline/runtime';

export type { AppRouter };
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type WhoAmI = RouterOutputs['auth']['whoAmI'];

/** Components use `const trpc = useTRPC()` then `useQuery(trpc.x.y.queryOptions(input))`. */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** Client errors (bad input, no session, forbidden, not found…) will not succeed on a second try. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  const code = errorCode(error);
  if (code && code !== 'INTERNAL_SERVER_ERROR' && code !== 'TIMEOUT') return false;
  return failureCount < 2;
}

// The session lives in an httpOnly cookie.
const withCookie = (url: URL | RequestInfo, options?: RequestInit) =>
  fetch(url, { ...options, credentials: 'include' });
const idempotent = new Set(IDEMPOTENT_CREATES);

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    outboxLink,
    splitLink({
      // A create goes alone, with its Idempotency-Key (a batch would share one header between operations).
      condition: (op) => op.type === 'mutation' && idempotent.has(op.path),
      true: [
        idempotencyLink,
        httpLink({
          url: '/trpc',
          fetch: withCookie,
          headers: ({ op }) => ({ 'idempotency-key': String(op.context.idempotencyKey) }),
        }),
      ],
      false: httpBatchLink({ url: '/trpc', maxItems: TRPC_MAX_BATCH, fetch: withCookie }),
    }),
  ],
});

export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({
    onSuccess(data, query) {
      // The offline store follows the session (docs/decisions/0048-offline-store.md): its key once the
      // session is known and past its second factor, wiped when there is no session any more.
      if (!matchQuery(trpc.auth.session.queryFilter(), query)) return;
      const user = data as WhoAmI | null;
      if (user === null) void wipeOffline('session-ended');
      else if (!user.twoFactor) void adoptSessionKey(user.code);
    },
    onError(error, query) {
      // A session that ended elsewhere (expiry, logout in another tab, account disabled): asking for the
      // session again makes the guard send the user to /login (auth.session answers null).
      const session = trpc.auth.session.queryFilter();
      if (errorCode(error) === 'UNAUTHORIZED' && !matchQuery(session, query)) {
        void wipeOffline('session-ended');
        void queryClient.invalidateQueries(session);
      }
    },
  }),
  mutationCache: new MutationCache(),
  defaultOptions: {
    queries: { retry: shouldRetry, refetchOnWindowFocus: false },
    // A change made offline runs at once (never paused by React Query): the outbox link keeps the allowed ones
    // (docs/decisions/0048-offline-store.md), the others fail at once with the network message.
    mutations: { retry: false, networkMode: 'always' },
  },
});

/** The same options proxy as useTRPC(), for code outside components (e.g. cache updates in callbacks). */
export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
