import { useEffect, useRef, useState } from 'react';

/** `value`, but only once it has stopped changing for `delayMs` (search boxes, spec §7). */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/**
 * A function that runs `callback` `delayMs` after its last call; pending calls are dropped on unmount.
 * The latest `callback` is used, so it may close over fresh state without restarting the timer.
 */
export function useDebouncedCallback<A extends unknown[]>(
  callback: (...args: A) => void,
  delayMs: number,
): { run: (...args: A) => void; cancel: () => void } {
  const latest = useRef(callback);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => {
    latest.current = callback;
  });
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const [api] = useState(() => ({
    run: (...args: A) => {
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => latest.current(...args), delayMs);
    },
    cancel: () => window.clearTimeout(timer.current),
  }));
  return api;
}
