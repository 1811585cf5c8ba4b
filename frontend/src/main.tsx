import '@cloudscape-design/global-styles/index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { createAmplifyAdapter } from './api/amplify-adapter';
import { getMe } from './api/auth';
import { session } from './api/session';
import { configureApi, createTransport } from './api/transport';
import { App, routes } from './App';
import { loadConfig, takeEarlyConfigFetch, type RuntimeConfig } from './config';
import { initI18n } from './i18n';
import { ConfigErrorPage } from './pages/errors/config-error-page';
import { RealtimeSocket } from './realtime/socket';
import { registerServiceWorker } from './service-worker-registration';
import { createSessionUserStore } from './session-user';
import { applyStoredTheme } from './theme';
import { loadBranding } from './branding';

/**
 * Start-up: theme and language first (the error screen needs them too), then /config.json before anything
 * renders; without it the app cannot know where its API is, so a clear error screen replaces it.
 */
const bootstrap = async () => {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  const root = createRoot(container);

  applyStoredTheme();
  const i18nReady = initI18n();
  // The router starts loading the first page's chunks (and the shell's, for a returning user) at once, in
  // parallel with /config.json, instead of after it (decisions D114). It renders only once config is in.
  const router = createBrowserRouter(routes);

  let config: RuntimeConfig;
  try {
    // index.html's start-config.js asked for it while this code downloaded (D177).
    config = await loadConfig(takeEarlyConfigFetch());
  } catch (err) {
    console.error(err);
    await i18nReady;
    root.render(
      <StrictMode>
        <ConfigErrorPage error={err} />
      </StrictMode>,
    );
    return;
  }
  await i18nReady;

  const transport = createTransport({ adapter: createAmplifyAdapter(config.apiBase) });
  configureApi(transport);
  // Whitelabel name, colours and favicon from the public settings, without holding up the first screen (D158).
  void loadBranding();
  const sessionUser = createSessionUserStore();
  // A returning user: ask who they are now, while the router loads the page's and the shell's chunks,
  // instead of after them (the shell joins this read; decisions D114).
  if (session.getToken() !== null) sessionUser.fetch(() => getMe()).catch(() => undefined);

  const socket = new RealtimeSocket({
    url: config.wsUrl,
    getToken: () => session.getToken(),
    // An expired or refused token is renewed before reconnecting, through the transport's one refresh.
    refreshToken: () => transport.refreshSession(),
  });
  session.onChange(() => socket.start());
  session.onExpired(() => socket.stop());
  socket.start();

  root.render(
    <StrictMode>
      <App services={{ config, socket, sessionUser }} router={router} />
    </StrictMode>,
  );
};

void bootstrap();
registerServiceWorker();
