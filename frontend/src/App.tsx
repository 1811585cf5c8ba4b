import Box from '@cloudscape-design/components/box';
import { Navigate, Outlet, RouterProvider, type createBrowserRouter, type RouteObject } from 'react-router-dom';
import { AppServicesProvider, type AppServices } from './app-services';
import { NotificationsProvider } from './components/notifications';
import { PageLoading } from './components/page-loading';
import { PrivateRoute, PublicRoute } from './components/route-guards';
import { RouteErrorPage } from './pages/errors/route-error-page';
import { AFTER_LOGIN_PATH } from './paths';

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
      {
        // Public pages: a logged-in visitor goes to / (core spec §2).
        Component: PublicRoute,
        children: [
          {
            path: 'login',
            lazy: async () => ({ Component: (await import('./pages/auth/login/login-page')).LoginPage }),
          },
          {
            path: 'signup',
            lazy: async () => ({ Component: (await import('./pages/auth/signup/signup-page')).SignupPage }),
          },
          {
            path: 'forgetpsw',
            lazy: async () => ({
              Component: (await import('./pages/auth/forgot-password/forgot-password-page')).ForgotPasswordPage,
            }),
          },
        ],
      },
      {
        // Private pages: an unauthenticated visitor goes to /login. Seam: the dashboard replaces this
        // redirect at /, and later issues add their pages (/tickets, /financeiro, ...) as children here.
        Component: PrivateRoute,
        children: [{ index: true, element: <Navigate to={AFTER_LOGIN_PATH} replace /> }],
      },
      // Neither public nor private: what this deployment is and whether it reaches its server.
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
