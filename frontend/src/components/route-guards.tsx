import { useMemo, useSyncExternalStore } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { session } from '@/api/session';
import { LOGIN_PATH } from '@/paths';

const subscribe = (onChange: () => void) => {
  const stopChange = session.onChange(onChange);
  const stopExpired = session.onExpired(onChange);
  return () => {
    stopChange();
    stopExpired();
  };
};

const hasToken = () => session.getToken() !== null;

/** Whether a token is stored; re-renders on login, refresh, logout and a 401. */
export function useIsAuthenticated(): boolean {
  return useSyncExternalStore(subscribe, hasToken);
}

/**
 * Layout route around the private pages (core spec §2): without a session the visitor goes to /login.
 * It follows the session live, so a 401 or a logout on a private page leads to /login at once.
 */
export function PrivateRoute() {
  const authenticated = useIsAuthenticated();
  return authenticated ? <Outlet /> : <Navigate to={LOGIN_PATH} replace />;
}

/**
 * Layout route around the public pages (/login, /signup, /forgetpsw): a logged-in visitor goes to /.
 * It checks once per location, not live: right after a login the login page itself navigates to the
 * landing page (/tickets, or /financeiro when expired), and a live redirect to / would race with it.
 */
export function PublicRoute() {
  const location = useLocation();
  // Re-read the session only when the location changes (see above).
  const authenticated = useMemo(hasToken, [location.key]);
  return authenticated ? <Navigate to="/" replace /> : <Outlet />;
}
