import Box from '@cloudscape-design/components/box';
import { Navigate, Outlet, RouterProvider, type createBrowserRouter, type RouteObject } from 'react-router-dom';
import { AppServicesProvider, type AppServices } from './app-services';
import { NotificationsProvider } from './components/notifications';
import { PageLoading } from './components/page-loading';
import { RouteErrorPage } from './pages/errors/route-error-page';

/** Frame of every page. The next issue puts the app shell (top bar, side menu) here. */
function RootLayout() {
  return (
    <Box padding={{ vertical: 'l', horizontal: 'xl' }}>
      <Outlet />
    </Box>
  );
}

/**
 * The route table. Every page is loaded lazily through the route's `lazy`, so each is its own chunk and
 * loads in parallel with the navigation; paths follow the spec (core §2, administration §2).
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    HydrateFallback: PageLoading,
    ErrorBoundary: RouteErrorPage,
    children: [
      // Seam: the next issue replaces this redirect with the dashboard, adds the public routes (/login,
      // /signup, /forgetpsw) and guards the private ones (unauthenticated visitors go to /login).
      { index: true, element: <Navigate to="/status" replace /> },
      {
        path: 'status',
        lazy: async () => ({ Component: (await import('./pages/status/status-page')).StatusPage }),
      },
      {
        path: '*',
        lazy: async () => ({ Component: (await import('./pages/errors/not-found-page')).NotFoundPage }),
      },
    ],
  },
];

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/** The whole app: services and toasts around the router (a browser router in main.tsx, memory in tests). */
export function App({ services, router }: { services: AppServices; router: AppRouter }) {
  return (
    <AppServicesProvider services={services}>
      <NotificationsProvider>
        <RouterProvider router={router} />
      </NotificationsProvider>
    </AppServicesProvider>
  );
}
