import { getTicket, getTicketByUuid, type Ticket } from '../../data/ticket-repository';
import { getTicketViewers } from '../../data/ticket-viewer-repository';
import type { AuthContext } from '../../shared/auth-context';
import { Forbidden, NotFound } from '../../shared/errors';
import { canSeeTicket, toTicketViewer, type TicketViewer } from './visibility';

/**
 * The one door to a single ticket for HTTP services (tickets, messages, tags, notes): the caller's
 * visibility (functions/core/tickets/visibility.ts) is read from the stored user — queues and flags as they
 * are now, not as the token was issued — and checked before anything of the ticket is returned or changed.
 * Another company's ticket is indistinguishable from one that never existed (404 ERR_NO_TICKET_FOUND);
 * a ticket of the caller's company that they may not see is 403 ERR_NO_PERMISSION.
 */
export const ticketViewerOf = async (auth: AuthContext): Promise<TicketViewer> => {
  const [stored] = await getTicketViewers(auth.companyId, [auth.userId]);
  if (!stored) throw new Forbidden('ERR_NO_PERMISSION', 'No permission');
  return { ...toTicketViewer(stored), super: auth.super };
};

export const ticketNotFound = (): NotFound => new NotFound('ERR_NO_TICKET_FOUND', 'Ticket not found');

const visible = async (auth: AuthContext, ticket: Ticket | null, viewer?: TicketViewer) => {
  if (!ticket) throw ticketNotFound();
  const who = viewer ?? (await ticketViewerOf(auth));
  if (!canSeeTicket(who, ticket)) throw new Forbidden('ERR_NO_PERMISSION', 'No permission');
  return { ticket, viewer: who };
};

/** The ticket `id` of the caller's company, if the caller may see it, with the caller's viewer. */
export const findVisibleTicket = async (auth: AuthContext, id: number, viewer?: TicketViewer) =>
  visible(auth, await getTicket(auth.companyId, id), viewer);

/** The same by the ticket's uuid (`/tickets/u/{uuid}`, `/messages/{ticketUuid}`). */
export const findVisibleTicketByUuid = async (auth: AuthContext, uuid: string, viewer?: TicketViewer) =>
  visible(auth, await getTicketByUuid(auth.companyId, uuid), viewer);
