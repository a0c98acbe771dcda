import { useEffect, useRef, useState } from 'react';

/** What the user asked for while the detail had unsaved changes, carried out if they confirm. */
type Pending = { kind: 'navigate'; go: () => void } | { kind: 'back' };

const SENTINEL_KEY = 'signalementsLeaveGuard';
/** Guards mounted now (React's StrictMode mounts, unmounts and mounts again in development). */
let activeGuards = 0;

const onSentinel = () => Boolean((history.state as Record<string, unknown> | null)?.[SENTINEL_KEY]);

const pathOf = (url: string | URL | null | undefined): string => {
  if (url === null || url === undefined) return location.pathname + location.search;
  const target = new URL(String(url), location.href);
  return target.pathname + target.search;
};

/**
 * Unsaved changes (spec §2): every way out of the detail screen asks through the
 * 'Quitter sans sauvegarder' dialog while the form is dirty.
 * - Links (sidebar, header, breadcrumb) and programmatic navigation (log-out) all go through wouter's
 *   navigate, i.e. history.pushState/replaceState: while dirty, a change of page is held and the dialog opens.
 * - Back: a sentinel history entry with the same URL is pushed when the form becomes dirty; Back pops it
 *   without leaving the page, the dialog opens, and « Quitter » goes back for real. Forward: the sentinel
 *   drops the forward entries, so Forward cannot leave the page with unsaved changes.
 * - Reload, closing the tab, a typed address: the browser's own beforeunload prompt.
 */
export function useLeaveGuard(dirty: boolean) {
  const [pending, setPending] = useState<Pending | null>(null);
  const leaving = useRef(false);
  const guardBack = useRef<() => void>(() => undefined);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the dialog only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  useEffect(() => {
    if (!dirty) return;
    leaving.current = false;
    const push = history.pushState;
    const replace = history.replaceState;
    const pushSentinel = () =>
      push.call(history, { ...(history.state ?? {}), [SENTINEL_KEY]: true }, '', location.href);
    guardBack.current = pushSentinel;
    activeGuards++;

    const hold = (original: History['pushState']): History['pushState'] =>
      function (this: History, data, unused, url) {
        if (leaving.current || pathOf(url) === location.pathname + location.search) {
          return original.call(this, data, unused, url);
        }
        setPending({
          kind: 'navigate',
          go: () => {
            leaving.current = true;
            original.call(history, data, unused, url);
          },
        });
      };
    history.pushState = hold(push);
    history.replaceState = hold(replace);

    if (!onSentinel()) pushSentinel();
    const onPopState = () => {
      if (leaving.current || onSentinel()) return;
      // The sentinel was popped: Back was pressed, and the page (same URL) is still here.
      setPending({ kind: 'back' });
    };
    window.addEventListener('popstate', onPopState);

    return () => {
      window.removeEventListener('popstate', onPopState);
      history.pushState = push;
      history.replaceState = replace;
      activeGuards--;
      // Saved (or reverted): the sentinel no longer guards anything; take it off so Back works at once.
      // Deferred, so that a guard mounted again at once (StrictMode) keeps it.
      const saved = !leaving.current;
      setTimeout(() => {
        if (saved && activeGuards === 0 && onSentinel()) history.back();
      }, 0);
    };
  }, [dirty]);

  return {
    leaveOpen: pending !== null,
    confirmLeave: () => {
      const action = pending;
      setPending(null);
      if (action?.kind === 'navigate') action.go();
      else if (action?.kind === 'back') {
        leaving.current = true;
        history.back();
      }
    },
    cancelLeave: () => {
      const action = pending;
      setPending(null);
      // Stay: guard the next Back press too.
      if (action?.kind === 'back') guardBack.current();
    },
  };
}
