// Registers the service worker of the installable app in production builds, once the page has loaded,
// and tells the page when a new version waits (docs/decisions/0049-installable-offline-shell.md). The
// worker is the build's /admin/sw.js; `Service-Worker-Allowed: /` (server/app.ts) lets it control /admin
// itself, the manifest's start_url. To take it away from a browser: see the decision's « Retirer le worker ».

/** The worker script and its scope. */
export const SERVICE_WORKER_URL = '/admin/sw.js';
export const SERVICE_WORKER_SCOPE = '/';

type Listener = () => void;

/** The waiting worker, when a newer version than the one controlling the page is installed. */
let waiting: ServiceWorker | null = null;
const listeners = new Set<Listener>();

function announce(worker: ServiceWorker) {
  waiting = worker;
  for (const listener of listeners) listener();
}

/** For useSyncExternalStore: whether a new version waits. */
export const updateStore = {
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  hasUpdate: (): boolean => waiting !== null,
};

let reloadRequested = false;

/** « Recharger »: the waiting version takes over, and the page reloads under it. */
export function applyUpdate(): void {
  if (!waiting) return;
  reloadRequested = true;
  waiting.postMessage({ type: 'SKIP_WAITING' });
}

function watch(registration: ServiceWorkerRegistration) {
  // Without a controller this is the first install: there is no older version to replace.
  const offer = (worker: ServiceWorker) => {
    if (navigator.serviceWorker.controller) announce(worker);
  };
  if (registration.waiting) offer(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed') offer(installing);
    });
  });
  // A back-office tab stays open for days: look for a new version when it comes back to the front.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') registration.update().catch(() => undefined);
  });
}

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    // The first install's claim changes the controller too: only the user's « Recharger » reloads.
    if (reloadRequested) window.location.reload();
  });
  const register = () => {
    navigator.serviceWorker
      .register(SERVICE_WORKER_URL, { scope: SERVICE_WORKER_SCOPE })
      .then(watch)
      // Offline, or a browser refusing workers (private mode): the app works as before, without them.
      .catch(() => undefined);
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
