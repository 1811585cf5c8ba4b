import { canSeeTicket, toTicketViewer, type TicketViewer, type VisibleTicket } from '../core/tickets/visibility';
import { getTicketViewers } from '../data/ticket-viewer-repository';
import { listCompanyConnections, type WsConnection } from '../data/ws-connection-repository';
import type { Audience } from './publisher';

/**
 * Who is online in a company and what each of them may see of tickets: the company's sockets (one Query)
 * and the users behind them (one BatchGet of just the visibility fields), read together — O(connected
 * users), not O(company users). A job builds one snapshot per company per batch and filters every
 * ticket event of that batch through it, so the flags it uses are at most one batch old
 * (docs/decisions/D32-ticket-visibility-event-audience.md). Sockets of users who no longer exist see nothing.
 */
export interface TicketViewers {
  connections: WsConnection[];
  viewers: Map<number, TicketViewer>;
  /** Names of the users behind the sockets (a ticket's assigned user is often one of them). */
  names: Map<number, string>;
}

export const loadTicketViewers = async (companyId: number): Promise<TicketViewers> => {
  const connections = await listCompanyConnections(companyId);
  const users =
    connections.length === 0
      ? []
      : await getTicketViewers(
          companyId,
          connections.map((c) => c.userId),
        );
  return {
    connections,
    viewers: new Map(users.map((u) => [u.id, toTicketViewer(u)])),
    names: new Map(users.map((u) => [u.id, u.name])),
  };
};

/** The sockets whose user may see the ticket (functions/core/tickets/visibility.ts). */
export const ticketAudience =
  (snapshot: Pick<TicketViewers, 'viewers'>, ticket: VisibleTicket): Audience =>
  (connection) => {
    const viewer = snapshot.viewers.get(connection.userId);
    return viewer !== undefined && canSeeTicket(viewer, ticket);
  };
