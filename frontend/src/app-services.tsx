import { createContext, useContext, type ReactNode } from 'react';
import type { RuntimeConfig } from './config';
import type { RealtimeSocket } from './realtime/socket';
import type { SessionUserStore } from './session-user';

/**
 * What main.tsx builds once at start-up and every screen may need: the runtime config, the one socket and
 * the signed-in user of the last session answer. Passed down by context (not module globals) so tests
 * render screens with their own config, a socket over a fake WebSocket and a fresh user store. The HTTP
 * transport is installed with configureApi() instead, because the typed clients are called from plain
 * functions too.
 */
export interface AppServices {
  config: RuntimeConfig;
  socket: RealtimeSocket;
  sessionUser: SessionUserStore;
}

const AppServicesContext = createContext<AppServices | null>(null);

export function AppServicesProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  return <AppServicesContext value={services}>{children}</AppServicesContext>;
}

export function useAppServices(): AppServices {
  const services = useContext(AppServicesContext);
  if (!services) throw new Error('useAppServices() outside <AppServicesProvider>');
  return services;
}
