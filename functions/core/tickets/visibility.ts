/**
 * Who may see a ticket — its place in the lists, its messages arriving live, its contact's changes. One
 * pure function, used by the publisher's audiences (and by the ticket lists when they arrive), from the
 * core spec §6 per-user permissions and §2/§4 (docs/decisions/D32-ticket-visibility-event-audience.md):
 *
 * 1. Admins and super users see every ticket of the company.
 * 2. Everyone sees the tickets assigned to them, whatever queue or status.
 * 3. Group tickets (WhatsApp groups: `isGroup`, status `group`) need `allowGroup` ("Grouping tab needs
 *    allowGroup").
 * 4. A ticket assigned to another user needs `allUserChat` ("see other users' chats") — open or closed.
 *    Unassigned tickets (pending: waiting for someone to accept; lgpd, nps) need no such flag.
 * 5. Then the queue: a ticket in a queue is seen by the members of that queue; a ticket without a queue by
 *    users with `allTicket` enabled ("see tickets without queue"), except group tickets, which usually have
 *    no queue and are granted by `allowGroup` itself.
 *
 * `allHistoric` is not a ticket permission: it opens other queues' past messages of a contact inside a
 * ticket the user already sees (data-model §2.17).
 */
import type { TicketStatus } from '../../contracts/tickets';

export type { TicketStatus };

export interface TicketViewer {
  userId: number;
  profile: 'admin' | 'user';
  super: boolean;
  queueIds: readonly number[];
  /** The spec's `allTicket === 'enable'`. */
  allTicket: boolean;
  allowGroup: boolean;
  /** The spec's `allUserChat === 'enabled'`. */
  allUserChat: boolean;
}

export interface VisibleTicket {
  status: TicketStatus;
  queueId: number | null;
  userId: number | null;
  isGroup: boolean;
}

export const canSeeTicket = (viewer: TicketViewer, ticket: VisibleTicket): boolean => {
  if (viewer.profile === 'admin' || viewer.super) return true;
  if (ticket.userId !== null && ticket.userId === viewer.userId) return true;
  const group = ticket.isGroup || ticket.status === 'group';
  if (group && !viewer.allowGroup) return false;
  if (ticket.userId !== null && !viewer.allUserChat) return false;
  if (ticket.queueId === null) return group || viewer.allTicket;
  return viewer.queueIds.includes(ticket.queueId);
};

const on = (v: unknown): boolean => v === true || v === 'enabled' || v === 'enable';

/** A stored user (flags as the spec stores them: 'enable'/'enabled'/true) as a viewer. */
export const toTicketViewer = (user: {
  id: number;
  profile: string;
  super?: boolean;
  queueIds?: readonly number[];
  allTicket?: unknown;
  allowGroup?: unknown;
  allUserChat?: unknown;
}): TicketViewer => ({
  userId: user.id,
  profile: String(user.profile).toLowerCase() === 'admin' ? 'admin' : 'user',
  super: user.super === true,
  queueIds: (user.queueIds ?? []).map(Number),
  allTicket: on(user.allTicket),
  allowGroup: on(user.allowGroup),
  allUserChat: on(user.allUserChat),
});
