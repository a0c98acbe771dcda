import { useEffect, useState, type MouseEvent } from 'react';
import { useLocation } from 'wouter';

/**
 * Unsaved changes (§2): the browser asks before unloading the page, and a breadcrumb link asks through
 * the 'Quitter sans sauvegarder' dialog. Returns the link handler and the dialog's state.
 */
export function useLeaveGuard(dirty: boolean) {
  const [, navigate] = useLocation();
  const [pendingHref, setPendingHref] = useState<string | null>(null);

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

  const guard = (href: string) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (!dirty) return;
    event.preventDefault();
    setPendingHref(href);
  };

  return {
    guard,
    leaveOpen: pendingHref !== null,
    confirmLeave: () => {
      const href = pendingHref;
      setPendingHref(null);
      if (href) navigate(href);
    },
    cancelLeave: () => setPendingHref(null),
  };
}
