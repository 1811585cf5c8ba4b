import Box from '@cloudscape-design/components/box';
import { Outlet, RouterProvider, useMatches, type createBrowserRouter, type RouteObject } from 'react-router-dom';
import { AppServicesProvider, type AppServices } from './app-services';
import { NotificationsProvider } from './components/notifications';
import { PageLoading } from './components/page-loading';
import { PublicRoute } from './components/route-guards';
import { PrivateShell, preloadAppShell } from './components/shell/private-shell';
import { CloudscapeI18n } from './i18n/cloudscape';
import { RouteErrorPage } from './pages/errors/route-error-page';

/** Marks the route whose pages the app shell frames (`handle` of the private layout route). */
interface FrameHandle {
  shell?: boolean;
}

/** Frame of every page: private pages get the app shell (PrivateShell), the others a simple padded page. */
function RootLayout() {
  const inShell = useMatches().some((match) => (match.handle as FrameHandle | undefined)?.shell === true);
  if (inShell) return <Outlet />;
  return (
    <Box padding={{ vertical: 'l', horizontal: 'xl' }}>
      <Outlet />
    </Box>
  );
}

/**
 * Private areas not built yet (core §2, administration §2) would show the coming-soon page under their menu
 * title here until their page replaces the entry; no `path` is the index route, /. Every area of the spec
 * has its page now, so the list is empty.
 */
const COMING_SOON_ROUTES: { path?: string; titleKey: string }[] = [];

const comingSoonRoute = ({ path, titleKey }: { path?: string; titleKey: string }): RouteObject => {
  const lazy = async () => {
    const { ComingSoonPage } = await import('./pages/coming-soon/coming-soon-page');
    return { element: <ComingSoonPage titleKey={titleKey} /> };
  };
  return path === undefined ? { index: true, lazy } : { path, lazy };
};

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
        // Private pages, framed by the app shell: an unauthenticated visitor goes to /login. Later issues
        // replace their COMING_SOON_ROUTES entry with their page here.
        Component: PrivateShell,
        handle: { shell: true } satisfies FrameHandle,
        // The router loads the shell's chunk together with the page's (decisions D114).
        lazy: async () => {
          await preloadAppShell();
          return {};
        },
        children: [
          ...COMING_SOON_ROUTES.map(comingSoonRoute),
          {
            index: true,
            lazy: async () => ({ Component: (await import('./pages/dashboard/dashboard-page')).DashboardPage }),
          },
          {
            path: 'financeiro',
            lazy: async () => ({ Component: (await import('./pages/financeiro/financeiro-page')).FinanceiroPage }),
          },
          {
            path: 'subscription',
            lazy: async () => ({ Component: (await import('./pages/financeiro/subscription-page')).SubscriptionPage }),
          },
          {
            path: 'companies',
            lazy: async () => ({ Component: (await import('./pages/companies/companies-page')).CompaniesPage }),
          },
          {
            path: 'reports',
            lazy: async () => ({ Component: (await import('./pages/reports/reports-page')).ReportsPage }),
          },
          {
            path: 'moments',
            lazy: async () => ({ Component: (await import('./pages/moments/moments-page')).MomentsPage }),
          },
          {
            path: 'tickets/:ticketUuid?',
            lazy: async () => ({ Component: (await import('./pages/tickets/tickets-page')).TicketsPage }),
          },
          {
            path: 'schedules',
            lazy: async () => ({ Component: (await import('./pages/schedules/schedules-page')).SchedulesPage }),
          },
          {
            path: 'flowbuilders',
            lazy: async () => ({ Component: (await import('./pages/flows/flows-page')).FlowsPage }),
          },
          {
            // The flow editor (decisions D138, D159, D160): its chunk alone carries @xyflow/react.
            path: 'flowbuilder/:flowId?',
            lazy: async () => ({
              Component: (await import('./pages/flow-editor/flow-editor-page')).FlowEditorPage,
            }),
          },
          {
            path: 'phrase-lists',
            lazy: async () => ({ Component: (await import('./pages/phrase-lists/phrase-lists-page')).PhraseListsPage }),
          },
          {
            path: 'quick-messages',
            lazy: async () => ({
              Component: (await import('./pages/quick-messages/quick-messages-page')).QuickMessagesPage,
            }),
          },
          {
            path: 'contacts',
            lazy: async () => ({ Component: (await import('./pages/contacts/contacts-page')).ContactsPage }),
          },
          {
            path: 'contacts/import',
            lazy: async () => ({
              Component: (await import('./pages/contacts/contact-import-page')).ContactImportPage,
            }),
          },
          {
            path: 'queue-integration',
            lazy: async () => ({
              Component: (await import('./pages/queue-integration/queue-integrations-page')).QueueIntegrationsPage,
            }),
          },
          {
            path: 'prompts',
            lazy: async () => ({ Component: (await import('./pages/prompts/prompts-page')).PromptsPage }),
          },
          {
            path: 'files',
            lazy: async () => ({ Component: (await import('./pages/files/files-page')).FilesPage }),
          },
          {
            path: 'users',
            lazy: async () => ({ Component: (await import('./pages/users/users-page')).UsersPage }),
          },
          {
            path: 'connections',
            lazy: async () => ({
              Component: (await import('./pages/connections/connections-page')).ConnectionsPage,
            }),
          },
          {
            path: 'connections/:whatsappId/simulator',
            lazy: async () => ({
              Component: (await import('./pages/simulator/simulator-page')).SimulatorPage,
            }),
          },
          {
            path: 'allConnections',
            lazy: async () => ({
              Component: (await import('./pages/all-connections/all-connections-page')).AllConnectionsPage,
            }),
          },
          {
            path: 'queues',
            lazy: async () => ({ Component: (await import('./pages/queues/queues-page')).QueuesPage }),
          },
          {
            path: 'tags',
            lazy: async () => ({ Component: (await import('./pages/tags/tags-page')).TagsPage }),
          },
          {
            path: 'TagsKanban',
            lazy: async () => ({ Component: (await import('./pages/tags/tags-kanban-page')).TagsKanbanPage }),
          },
          {
            path: 'Kanban',
            lazy: async () => ({ Component: (await import('./pages/kanban/kanban-page')).KanbanPage }),
          },
          {
            path: 'settings',
            lazy: async () => ({ Component: (await import('./pages/settings/settings-page')).SettingsPage }),
          },
          {
            path: 'contact-lists',
            lazy: async () => ({
              Component: (await import('./pages/contact-lists/contact-lists-page')).ContactListsPage,
            }),
          },
          {
            path: 'contact-lists/:contactListId/contacts',
            lazy: async () => ({
              Component: (await import('./pages/contact-lists/contact-list-items-page')).ContactListItemsPage,
            }),
          },
          {
            path: 'campaigns',
            lazy: async () => ({ Component: (await import('./pages/campaigns/campaigns-page')).CampaignsPage }),
          },
          {
            path: 'campaigns-config',
            lazy: async () => ({
              Component: (await import('./pages/campaigns/campaigns-config-page')).CampaignsConfigPage,
            }),
          },
          {
            path: 'campaign/:campaignId/report',
            lazy: async () => ({
              Component: (await import('./pages/campaigns/campaign-report-page')).CampaignReportPage,
            }),
          },
          {
            path: 'messages-api',
            lazy: async () => ({
              Component: (await import('./pages/messages-api/messages-api-page')).MessagesApiPage,
            }),
          },
          {
            path: 'todolist',
            lazy: async () => ({ Component: (await import('./pages/todolist/todo-list-page')).TodoListPage }),
          },
          {
            path: 'announcements',
            lazy: async () => ({
              Component: (await import('./pages/announcements/announcements-page')).AnnouncementsPage,
            }),
          },
          {
            path: 'helps',
            lazy: async () => ({ Component: (await import('./pages/helps/helps-page')).HelpsPage }),
          },
          {
            path: 'chats/:chatUuid?',
            lazy: async () => ({ Component: (await import('./pages/chats/chats-page')).ChatsPage }),
          },
        ],
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

/**
 * The whole app: services, Cloudscape's translated labels and toasts around the router (a browser router in
 * main.tsx, memory in tests).
 */
export function App({ services, router }: { services: AppServices; router: AppRouter }) {
  return (
    <AppServicesProvider services={services}>
      <CloudscapeI18n>
        <NotificationsProvider>
          <RouterProvider router={router} />
        </NotificationsProvider>
      </CloudscapeI18n>
    </AppServicesProvider>
  );
}
