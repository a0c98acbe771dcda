// What the log-in page says after the session ended with changes still in the outbox (docs/decisions/
// 0048-offline-store.md): the store, bound to the session's key, is wiped with them; only their number is
// kept, in this tab's sessionStorage, until the next log-in. Never their content.

const KEY = 'hors-ligne-non-envoyees';
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/** For useSyncExternalStore: the wipe may end after the log-in page has shown. */
export function subscribeUnsent(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const storage = (): Storage | null => {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null; // Storage refused (privacy settings): no notice, nothing else breaks.
  }
};

/** The number of changes lost at the end of the session, not yet told at a log-in (0 when none). */
export function unsentCount(): number {
  const n = Number(storage()?.getItem(KEY) ?? 0);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/**
 * Notes `count` changes lost with the session. The largest count wins over an earlier one: several tabs or
 * several wipes of the same ended session tell of the same changes, never twice.
 */
export function noteUnsent(count: number): void {
  if (count <= 0) return;
  try {
    storage()?.setItem(KEY, String(Math.max(count, unsentCount())));
  } catch {
    // Quota or storage refused: the notice is lost, not the log-in.
  }
  changed();
}

/** Told (a log-in succeeded): forgotten. */
export function clearUnsent(): void {
  storage()?.removeItem(KEY);
  changed();
}
