import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { render } from '@testing-library/react';
import { createMemoryRouter, type RouteObject } from 'react-router-dom';
import { configureApi, createTransport, type HttpAdapter } from '@/api/transport';
import { App, routes as appRoutes } from '@/App';
import { DEFAULT_META_LOGIN_URL, type RuntimeConfig } from '@/config';
import { RealtimeSocket } from '@/realtime/socket';
import { createSessionUserStore } from '@/session-user';
import { fakeWebSocketServer } from './fake-web-socket';

export const TEST_CONFIG: RuntimeConfig = {
  apiBase: 'https://desk.example.com/api',
  wsUrl: 'wss://desk.example.com/ws',
  mediaBase: '/media',
  stage: 'test',
  metaLoginUrl: DEFAULT_META_LOGIN_URL,
};

/**
 * Renders the real App (services, toasts, router) at `path` over a memory router, with the transport
 * talking to `adapter` and the socket to a fake WebSocket server.
 */
export const renderApp = ({
  path,
  adapter,
  routes = appRoutes,
  token = 'token-1',
  config = TEST_CONFIG,
}: {
  path: string;
  adapter: HttpAdapter;
  routes?: RouteObject[];
  token?: string | null;
  /** The runtime config the app sees (TEST_CONFIG: no Meta app). */
  config?: RuntimeConfig;
}) => {
  if (token) localStorage.setItem('token', token);
  configureApi(createTransport({ adapter }));
  const server = fakeWebSocketServer();
  const socket = new RealtimeSocket({
    url: TEST_CONFIG.wsUrl,
    getToken: () => localStorage.getItem('token'),
    WebSocketImpl: server.WebSocket,
  });
  const sessionUser = createSessionUserStore();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(<App services={{ config, socket, sessionUser }} router={router} />);
  return { ...view, router, socket, server, sessionUser, wrapper: createWrapper() };
};
