import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { Loading } from '#web/components/ui/loading';
import { offlineStarted, outbox, wipeOffline } from '#web/lib/offline/runtime';
import { useTRPC } from '#web/lib/trpc';
import { usePageTitle } from '#web/lib/use-page-title';
import { logoutConfirmed, LogoutConfirmDialog } from './logout-confirm-dialog';

/**
 * /logout: ends the session, forgets every cached answer of this user, then shows the login page. Reached
 * without the menu's confirmation (an address typed, a link) while changes still wait on this device, it
 * asks first, saying how many would be lost (docs/decisions/0048-offline-store.md).
 */
export default function LogoutPage() {
  usePageTitle('Déconnexion');
  const [, navigate] = useLocation();
  // Asked or not once the kept outbox is loaded (a typed address reloads the app): null until then.
  const [confirmed, setConfirmed] = useState<boolean | null>(() =>
    logoutConfirmed(window.history.state) ? true : null,
  );
  useEffect(() => {
    if (confirmed !== null) return;
    let current = true;
    void offlineStarted().then(() => {
      if (current) setConfirmed(outbox.size === 0);
    });
    return () => {
      current = false;
    };
  }, [confirmed]);
  if (confirmed === null) return <Loading fullScreen label="Déconnexion..." />;
  if (confirmed) return <LoggingOut />;
  return (
    <LogoutConfirmDialog
      open
      onConfirm={() => setConfirmed(true)}
      onCancel={() => (window.history.length > 1 ? window.history.back() : navigate('/', { replace: true }))}
    />
  );
}

function LoggingOut() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const { mutate } = useMutation(trpc.auth.logout.mutationOptions());
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // Without a session the server answers UNAUTHORIZED: the user is logged out either way.
    // The offline store leaves the device with the session (docs/decisions/0048-offline-store.md), the
    // changes still waiting with it: the log-out confirmation said how many.
    void wipeOffline('logout');
    mutate(undefined, {
      onSettled() {
        queryClient.clear();
        void wipeOffline('logout').finally(() => navigate('/login', { replace: true }));
      },
    });
  }, [mutate, navigate, queryClient]);

  return <Loading fullScreen label="Déconnexion..." />;
}
