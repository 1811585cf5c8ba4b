import { lazy, Suspense } from 'react';
import { Navigate } from 'react-router-dom';
import { PageLoading } from '@/components/page-loading';
import { useIsAuthenticated } from '@/components/route-guards';
import { LOGIN_PATH } from '@/paths';

const AppShell = lazy(async () => ({ default: (await import('./app-shell')).AppShell }));

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
