import { createContext, useContext, type ReactNode } from 'react';
import type { RuntimeConfig } from './config';
import type { RealtimeSocket } from './realtime/socket';

/**
 * What main.tsx builds once at start-up and every screen may need: the runtime config and the one socket.
 * Passed down by context (not module globals) so tests render screens with their own config and a socket
 * over a fake WebSocket. The HTTP transport is installed with configureApi() instead, because the typed
 * clients are called from plain functions too.
 */
export interface AppServices {
  config: RuntimeConfig;
  socket: RealtimeSocket;
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
