// Started before React renders (README « Benchmarks », bench:delivery): on a slow link each request costs a
// round trip, and the page's code, the session check and the list's data used to wait for one another. Here
// the session and, on the list, its first page leave in one batched request (httpBatchLink), while the page's
// chunk downloads beside them. Without a session the list's part of the batch is refused (the batch answers
// 207, nothing is logged) and the guard sends the visitor to the log-in as before.
import { BASE_PATH } from '#shared/constants';
import { parseListSearch, toListInput } from './features/signalement/list/list-url';
import { queryClient, trpc } from './lib/trpc';

/** How long a preloaded list page counts as fresh for the page that mounts just after. */
export const PRELOADED_LIST_FRESH_MS = 10_000;

export function preloadCurrentPage(pathname: string, search: string): void {
  const path = pathname.startsWith(BASE_PATH) ? pathname.slice(BASE_PATH.length) || '/' : pathname;
  if (path === '/login' || path.startsWith('/resume/') || path.startsWith('/definir-mot-de-passe/')) return;
  void queryClient.prefetchQuery(trpc.auth.session.queryOptions());
  if (path === '/signalement/list') {
    void import('./features/signalement/signalement-list-page');
    void queryClient.prefetchQuery(trpc.signalements.list.queryOptions(toListInput(parseListSearch(search))));
  } else if (path.startsWith('/signalement/detail/')) {
    void import('./features/signalement/signalement-detail-page');
  } else if (path === '/' || path === '/dashboard') {
    void import('./features/dashboard/dashboard-page');
  }
}
