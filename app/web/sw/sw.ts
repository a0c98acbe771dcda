// The service worker of the installable back-office (docs/decisions/0049-installable-offline-shell.md):
// it keeps the built client's shell so that the app opens without a network, and nothing else. Built by
// serviceWorker() in scripts/vite-plugins.ts, which bundles this file with the build's version and file list.
import { CLIENT_BASE, HASHED_ASSETS, NAVIGATION_TIMEOUT_MS, policyOf } from './policy';

/** The build's version (a hash of its files' names and of index.html), set by the build. */
declare const __SW_VERSION__: string;
/** The paths to keep at install: index.html, the JavaScript and CSS of the screens, icons, manifest. */
declare const __SW_PRECACHE__: string[];

// The service worker's global scope, the few members used here: the project type-checks against the DOM
// library, which lacks them, and the WebWorker library cannot be loaded beside it.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
interface ServiceWorkerScope {
  readonly location: Location;
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
}
const worker = self as unknown as ServiceWorkerScope;

const CACHE_PREFIX = 'signalements-shell-';
const CACHE = `${CACHE_PREFIX}${__SW_VERSION__}`;
const INDEX = `${CLIENT_BASE}index.html`;
const PRECACHED = new Set(__SW_PRECACHE__);

/** Only a complete answer of our own server, that does not forbid keeping it. */
function keepable(response: Response): boolean {
  return (
    response.status === 200 &&
    response.type === 'basic' &&
    !/no-store/i.test(response.headers.get('cache-control') ?? '')
  );
}

worker.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Hashed files may come from the HTTP cache (the page just loaded most of them); the others are
      // revalidated, so the index.html kept is the one that names these files.
      await cache.addAll(
        __SW_PRECACHE__.map(
          (path) => new Request(path, { cache: path.startsWith(HASHED_ASSETS) ? 'default' : 'no-cache' }),
        ),
      );
    })(),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(CACHE_PREFIX) && name !== CACHE) await caches.delete(name);
      }
      // The first visit's page is controlled at once (there was no shell to keep it consistent with).
      await worker.clients.claim();
    })(),
  );
});

// A waiting version takes over only when the page asks for it (« Recharger », web/lib/pwa/register.ts).
worker.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown } | null;
  if (data?.type === 'SKIP_WAITING') void worker.skipWaiting();
});

/**
 * A page: the network's answer, or the kept shell (every client route is the same index.html) when the
 * network fails or has not answered within NAVIGATION_TIMEOUT_MS.
 */
async function page(request: Request): Promise<Response> {
  const network = fetch(request);
  const cached = await caches.match(INDEX, { cacheName: CACHE });
  if (!cached) return network;
  // A failure after the shell answered is nobody's to handle.
  network.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<Response>((resolve) => {
    timer = setTimeout(() => resolve(cached), NAVIGATION_TIMEOUT_MS);
  });
  try {
    return await Promise.race([network, late]);
  } catch {
    return cached;
  } finally {
    clearTimeout(timer);
  }
}

async function cacheFirst(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (keepable(response)) await cache.put(request, response.clone());
  return response;
}

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  const policy = policyOf(
    { url: request.url, method: request.method, mode: request.mode, origin: worker.location.origin },
    PRECACHED,
  );
  if (policy === 'page') event.respondWith(page(request));
  else if (policy === 'cache-first') event.respondWith(cacheFirst(request));
  // 'network': no respondWith, the browser fetches it itself; it never reaches a cache of this worker.
});
