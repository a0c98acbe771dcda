import { createTRPCClient, httpLink } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { queryClient, type AppRouter, type RouterInputs, type RouterOutputs } from '#web/lib/trpc';

/**
 * The dashboard's blocks each make their own request instead of sharing the app's batched one: a batch
 * is answered when its slowest call is done, and an HTTP failure of the batch would blank every block,
 * while spec §8 wants each block to load and fail on its own. Same query client, same cache keys.
 */
const dashboardClient = createTRPCClient<AppRouter>({
  links: [
    httpLink({
      url: '/trpc',
      fetch(url, options) {
        return fetch(url, { ...options, credentials: 'include' });
      },
    }),
  ],
});

export const dashboardApi = createTRPCOptionsProxy<AppRouter>({
  client: dashboardClient,
  queryClient,
}).dashboard;

export type DateRange = NonNullable<RouterInputs['dashboard']['keyMetrics']>;
export type Outputs = RouterOutputs['dashboard'];
export type LocalisationRow = Outputs['perLocalisation'][number];
export type Period = NonNullable<RouterInputs['dashboard']['overview']['summary']['period']>;
export type Dimension = RouterInputs['dashboard']['overview']['distribution']['dimension'];
