// What the service worker does with each request (docs/decisions/0049-installable-offline-shell.md). An
// allowlist: only the built client's own public files and its page navigations are ever answered by the
// worker; every other request, the API above all, goes to the network untouched and is never cached.
// Shared by the worker (web/sw/sw.ts) and by the test that holds it against the server's route table.

/** The client's mount point (vite.config.ts `base`, server/app.ts registerClient). */
export const CLIENT_BASE = '/admin/';

/** Content-hashed build output: its name changes with its content, so a cached copy is never stale. */
export const HASHED_ASSETS = `${CLIENT_BASE}assets/`;

/**
 * The server's doors that carry data or a session (server/app.ts: /trpc, the REST facade under /api, the
 * log-in and log-out routes under /api, /metrics). The allowlist below never matches them; this list
 * says so once more, first, so that a change to the allowlist cannot let one through.
 */
export const NETWORK_ONLY_PREFIXES = ['/api', '/trpc', '/metrics'] as const;

/**
 * How long a page's navigation waits for the network before the kept shell answers it: on a link that
 * drops without failing (a phone's signal gone, a captive portal), the browser would otherwise wait for
 * its own time-out, a minute and more, on a blank page. The request goes on; its answer is not used.
 */
export const NAVIGATION_TIMEOUT_MS = 4000;

export type Policy =
  /** Not the worker's business: the browser fetches it as if there were no worker. */
  | 'network'
  /** A page of the client: the network, and the cached index.html when it fails or is slow (above). */
  | 'page'
  /** A hashed file, or a file of the precache: the cache, else the network (and then the cache). */
  | 'cache-first';

export interface RequestFacts {
  url: string;
  method: string;
  /** Request.mode: 'navigate' for a page load. */
  mode: string;
  /** The worker's own origin (self.location.origin). */
  origin: string;
}

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`);
}

/** The policy of one request; `precached` holds the paths of the files the worker installed. */
export function policyOf(request: RequestFacts, precached: ReadonlySet<string>): Policy {
  if (request.method !== 'GET') return 'network';
  const url = new URL(request.url);
  if (url.origin !== request.origin) return 'network';
  const path = url.pathname;
  // The router decodes paths (/%61pi is /api): so does this, and a path it cannot decode is not ours.
  let decoded: string;
  try {
    decoded = decodeURIComponent(path).toLowerCase();
  } catch {
    return 'network';
  }
  if (NETWORK_ONLY_PREFIXES.some((prefix) => isUnder(decoded, prefix) || isUnder(path, prefix))) {
    return 'network';
  }
  if (!path.startsWith(CLIENT_BASE) && path !== '/admin') return 'network';
  if (request.mode === 'navigate') {
    // A file's address (/admin/icons/icon-192.png) opened as a page is the file, not the client.
    return /\.[a-z0-9]+$/i.test(path) ? 'network' : 'page';
  }
  if (url.search === '' && (path.startsWith(HASHED_ASSETS) || precached.has(path))) return 'cache-first';
  return 'network';
}
