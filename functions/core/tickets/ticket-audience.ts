import type { ReadScope } from '../../data/read-scope';
import type { WsConnection } from '../../data/ws-connection-repository';
import type { Audience } from '../notifier';
import { canSeeTicket, toTicketViewer, type TicketViewer, type VisibleTicket } from './visibility';

/**
 * Who is online in a company and what each of them may see of tickets, from the scope's online users (its
 * sockets and the visibility fields of the users behind them). A job builds one snapshot per company per
 * batch and filters every ticket event of that batch through it, so the flags it uses are at most one batch
 * old (decisions D32). Sockets of users who no longer exist see nothing.
 */
export interface TicketViewers {
  connections: WsConnection[];
  viewers: Map<number, TicketViewer>;
  /** Names of the users behind the sockets (a ticket's assigned user is often one of them). */
  names: Map<number, string>;
}

export const ticketViewersOf = (scope: ReadScope, companyId: number): Promise<TicketViewers> =>
  scope.memo(
    `viewers:${companyId}`,
    async () => {
      const { connections, users } = await scope.onlineUsers(companyId);
      const stored = [...users.values()];
      return {
        connections,
        viewers: new Map(stored.map((u) => [u.id, toTicketViewer(u)])),
        names: new Map(stored.map((u) => [u.id, u.name])),
      };
    },
    'viewers',
  );

/** The sockets whose user may see the ticket (functions/core/tickets/visibility.ts). */
export const ticketAudience =
  (snapshot: Pick<TicketViewers, 'viewers'>, ticket: VisibleTicket): Audience =>
  (connection) => {
    const viewer = snapshot.viewers.get(connection.userId);
    return viewer !== undefined && canSeeTicket(viewer, ticket);
  };
