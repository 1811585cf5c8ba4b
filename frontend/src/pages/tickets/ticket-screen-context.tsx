import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { AuthUser } from '@/api/auth';
import { listConnections, type Connection } from '@/api/connections';
import { listTags, type Tag } from '@/api/tags';
import { getCompanySettings, listCompanyQueues, type CompanyQueue, type TicketScreenSettings } from '@/api/tickets';
import { listUserNames } from '@/api/users';
import { useCurrentUser } from '@/components/shell/shell-context';
import { useRequest } from '@/hooks/use-request';
import { roleOf } from '@/permissions';

/**
 * What the list and the open ticket both use, read once per visit of the ticket screen: company settings,
 * tags, users (names) and connections. Each may fail alone: the screen then works without that part
 * (no tag names, say), it never blocks the list.
 */
export interface TicketScreenData {
  user: AuthUser;
  isAdmin: boolean;
  settings: TicketScreenSettings;
  tags: Tag[];
  users: { id: number; name: string }[];
  connections: Pick<Connection, 'id' | 'name' | 'channel' | 'status'>[];
  /** The company's queues (GET /queue): the accept, transfer and new-ticket dialogs offer them all. */
  queues: Pick<CompanyQueue, 'id' | 'name' | 'color'>[];
  /** Connections are read only once something needs them (the filters, the new-ticket dialog). */
  wantConnections: () => void;
}

const TicketScreenContext = createContext<TicketScreenData | null>(null);

const NO_SETTINGS: TicketScreenSettings = {};
const NONE: never[] = [];

export function TicketScreenProvider({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  const settings = useRequest((signal) => getCompanySettings(user.companyId, { signal }), [user.companyId]);
  const tags = useRequest((signal) => listTags({ kanban: 0 }, { signal }), []);
  const users = useRequest((signal) => listUserNames({ signal }), []);
  const queues = useRequest((signal) => listCompanyQueues({ signal }), []);
  const [connectionsWanted, setConnectionsWanted] = useState(false);
  const connections = useRequest(
    (signal) => (connectionsWanted ? listConnections({ signal }) : Promise.resolve(NONE)),
    [connectionsWanted],
  );
  const wantConnections = useCallback(() => setConnectionsWanted(true), []);
  const settingsData = settings.status === 'ready' ? settings.data : undefined;
  const tagsData = tags.status === 'ready' ? tags.data : undefined;
  const usersData = users.status === 'ready' ? users.data : undefined;
  const connectionsData = connections.status === 'ready' ? connections.data : undefined;
  // Until GET /queue answers (or if it fails), the user's own queues.
  const queuesData = queues.status === 'ready' ? queues.data : undefined;
  const value = useMemo<TicketScreenData>(
    () => ({
      user,
      isAdmin: roleOf(user) === 'admin',
      settings: settingsData ?? NO_SETTINGS,
      tags: tagsData ?? NONE,
      users: usersData ?? NONE,
      connections: connectionsData ?? NONE,
      queues: queuesData ?? user.queues,
      wantConnections,
    }),
    [user, settingsData, tagsData, usersData, connectionsData, queuesData, wantConnections],
  );
  return <TicketScreenContext value={value}>{children}</TicketScreenContext>;
}

export const useTicketScreen = (): TicketScreenData => {
  const value = useContext(TicketScreenContext);
  if (!value) throw new Error('useTicketScreen() outside <TicketScreenProvider>');
  return value;
};

/** The company setting `column` is on ('enabled' or true). */
export const settingOn = (settings: TicketScreenSettings, column: string): boolean =>
  settings[column] === 'enabled' || settings[column] === true;
