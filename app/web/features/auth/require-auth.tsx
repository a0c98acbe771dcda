import type { ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { DEFAULT_REQUIRED_ROLE, FALLBACK_PATH } from '#shared/constants';
import { Loading } from '#web/components/ui/loading';
import { hasRole } from '#web/lib/role';
import { loginPathFor, withReturn } from './return-path';
import { pathForStep } from './two-factor-text';
import { useWhoAmI } from './use-who-am-i';

export interface RequireAuthProps {
  /** Role code the user must have (e.g. ROLE_ADMIN); without it any logged-in user passes. */
  role?: string;
  children: ReactNode;
}

/**
 * Route guard (spec §2): 'Chargement...' while who-am-i loads, /login without a session, the
 * second-factor page (code or enrolment) while the session owes it, FALLBACK_PATH (/dashboard)
 * when the user lacks `role`.
 */
export function RequireAuth({ role, children }: RequireAuthProps) {
  const { user, isPending, isUnauthenticated, refetch, isRefetching } = useWhoAmI();
  const [location] = useLocation();
  const search = useSearch();

  // The page asked for comes back after the log-in.
  if (isUnauthenticated) return <Redirect to={loginPathFor(location, search)} replace />;
  if (isPending) return <Loading fullScreen />;
  if (!user) return <SessionCheckFailed onRetry={() => void refetch()} retrying={isRefetching} />;
  // A session that still owes its second factor reaches nothing else (the server refuses it too).
  if (user.twoFactor)
    return <Redirect to={withReturn(pathForStep(user.twoFactor), location, search)} replace />;
  if (role && !hasRole(user, role)) return <Redirect to={FALLBACK_PATH} replace />;
  return <>{children}</>;
}

/** RequireAuth whose role defaults to DEFAULT_REQUIRED_ROLE (ROLE_ADMIN): for /users and /partenaires. */
export function RequireRole({
  role = DEFAULT_REQUIRED_ROLE,
  children,
}: Partial<RequireAuthProps> & { children: ReactNode }) {
  return <RequireAuth role={role}>{children}</RequireAuth>;
}

/** who-am-i failed for another reason than a missing session (server down, network). */
function SessionCheckFailed({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  return (
    <div className="flex min-h-screen items-center justify-center p-4">
      <div role="alert" className="alert alert-error alert-soft max-w-md">
        <span>Impossible de vérifier votre session. Le serveur ne répond pas.</span>
        <button type="button" className="btn btn-sm" onClick={onRetry} disabled={retrying}>
          {retrying && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
          Réessayer
        </button>
      </div>
    </div>
  );
}
