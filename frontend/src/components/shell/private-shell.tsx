import { lazy, Suspense } from 'react';
import { Navigate } from 'react-router-dom';
import { PageLoading } from '@/components/page-loading';
import { useIsAuthenticated } from '@/components/route-guards';
import { session } from '@/api/session';
import { LOGIN_PATH } from '@/paths';

let shellModule: Promise<typeof import('./app-shell')> | undefined;
const loadAppShell = () => (shellModule ??= import('./app-shell'));

/**
 * Starts loading the shell's chunk when a session exists, so a returning user's shell downloads beside the
 * page's chunk instead of after it (the private layout route's `lazy`, App.tsx). A visitor without a
 * session goes to /login and never downloads it.
 */
export const preloadAppShell = async (): Promise<void> => {
  if (session.getToken() !== null) await loadAppShell();
};

const AppShell = lazy(async () => ({ default: (await loadAppShell()).AppShell }));

/**
 * Layout route around the private pages: without a session the visitor goes to /login (as PrivateRoute),
 * with one the app shell (top bar, side menu) frames the page. The shell is its own chunk, loaded only
 * here, so /login and the other public pages never download it.
 */
export function PrivateShell() {
  const authenticated = useIsAuthenticated();
  if (!authenticated) return <Navigate to={LOGIN_PATH} replace />;
  return (
    <Suspense fallback={<PageLoading />}>
      <AppShell />
    </Suspense>
  );
}
