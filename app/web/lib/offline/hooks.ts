import { useSyncExternalStore } from 'react';
import type { OutboxEntry } from './outbox';
import { outbox } from './runtime';

/** The outbox's entries, in sending order; re-renders on every change. */
export function useOutbox(): readonly OutboxEntry[] {
  return useSyncExternalStore(
    (listener) => outbox.subscribe(listener),
    () => outbox.list(),
  );
}

const subscribeOnline = (listener: () => void) => {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
};

/** navigator.onLine, kept current by the online and offline events. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, () => navigator.onLine);
}
