import type { AuthUser } from '@/api/auth';
import type { Ticket, TicketListQuery } from '@/api/tickets';

/**
 * One list of the ticket screen (a section of the open tab, the closed tab or the search tab) and how a
 * live event changes it (core spec §4 Listing): the list never needs a refresh.
 */
export type ListSection = 'open' | 'pending' | 'group' | 'closed' | 'search';

export interface ListFilter {
  section: ListSection;
  searchParam: string;
  searchOnMessages: boolean;
  showAll: boolean;
  queueIds: number[];
  tags: number[];
  users: number[];
  whatsapps: number[];
  statusFilter: string[];
  withUnreadMessages: boolean;
  sortTickets: 'ASC' | 'DESC' | null;
}

/** The GET /tickets query of a list. The search tab sends no status (it searches every status). */
export const queryOf = (filter: ListFilter): TicketListQuery => ({
  ...(filter.section === 'search' ? {} : { status: filter.section }),
  searchParam: filter.section === 'search' ? filter.searchParam : undefined,
  searchOnMessages: filter.section === 'search' && filter.searchOnMessages,
  showAll: filter.showAll,
  queueIds: filter.queueIds,
  tags: filter.tags,
  users: filter.users,
  whatsapps: filter.whatsapps,
  statusFilter: filter.statusFilter,
  withUnreadMessages: filter.withUnreadMessages,
  // Core spec §2: sorting is offered on the open tab only (hidden on closed and search).
  sortTickets:
    filter.section === 'closed' || filter.section === 'search' ? undefined : (filter.sortTickets ?? undefined),
});

/**
 * Whether a ticket the server sent (so one the user may see) belongs in this list. Open tickets are the
 * user's own unless show-all is on; a ticket outside the selected queues leaves (one without a queue stays:
 * the server only sends it to users who may see such tickets). Search results depend on text the client
 * cannot match, so the search list only updates the tickets it shows.
 */
export const belongsTo = (ticket: Ticket, filter: ListFilter, me: Pick<AuthUser, 'id'>): boolean => {
  if (filter.section === 'search') return false;
  if (ticket.status !== filter.section) return false;
  if (filter.section === 'open' && !filter.showAll && ticket.userId !== me.id) return false;
  if (ticket.queueId !== null && !filter.queueIds.includes(ticket.queueId)) return false;
  if (filter.users.length > 0 && (ticket.userId === null || !filter.users.includes(ticket.userId))) return false;
  if (filter.whatsapps.length > 0 && !filter.whatsapps.includes(ticket.whatsappId)) return false;
  if (filter.tags.length > 0 && !ticket.tags.some((t) => filter.tags.includes(t.id))) return false;
  if (filter.withUnreadMessages && ticket.unreadMessages === 0) return false;
  return true;
};

export type TicketChange =
  | { kind: 'update'; ticket: Ticket }
  /** A message arrived or was sent in the ticket (appMessage create). */
  | { kind: 'message'; ticket: Ticket }
  | { kind: 'delete'; ticketId: number }
  | { kind: 'read'; ticketId: number };

const byUpdatedAt = (direction: 'ASC' | 'DESC') => (a: Ticket, b: Ticket) =>
  direction === 'ASC' ? a.updatedAt.localeCompare(b.updatedAt) : b.updatedAt.localeCompare(a.updatedAt);

/**
 * The list after a change. An update replaces the ticket where it is (or adds it on top when it now
 * belongs, e.g. just accepted or transferred here) and removes it when it no longer belongs; a new message
 * moves an unread ticket to the top; a chosen sort direction keeps the list ordered by updatedAt instead
 * (decisions D60).
 */
export const applyTicketChange = (
  list: Ticket[],
  change: TicketChange,
  filter: ListFilter,
  me: Pick<AuthUser, 'id'>,
): Ticket[] => {
  if (change.kind === 'delete') return list.filter((t) => t.id !== change.ticketId);
  if (change.kind === 'read') {
    return list.map((t) => (t.id === change.ticketId && t.unreadMessages !== 0 ? { ...t, unreadMessages: 0 } : t));
  }
  const incoming = change.ticket;
  const index = list.findIndex((t) => t.id === incoming.id);
  const shown = index === -1 ? undefined : list[index];
  // An event older than what is shown (answers and events cross) changes nothing.
  if (shown && incoming.updatedAt < shown.updatedAt) return list;
  const stays = filter.section === 'search' ? shown !== undefined : belongsTo(incoming, filter, me);
  if (!stays) return index === -1 ? list : list.filter((t) => t.id !== incoming.id);
  const sort = filter.section === 'closed' || filter.section === 'search' ? null : filter.sortTickets;
  if (sort) {
    const rest = list.filter((t) => t.id !== incoming.id);
    return [...rest, incoming].sort(byUpdatedAt(sort));
  }
  const toTop = index === -1 || (change.kind === 'message' && incoming.unreadMessages > 0);
  if (toTop) return [incoming, ...list.filter((t) => t.id !== incoming.id)];
  return list.map((t, i) => (i === index ? incoming : t));
};

/**
 * The ticket open on screen is being read: the list shows it without unread messages, from the moment it
 * opens and while messages arrive in it (the conversation's first page marks it read on the server).
 */
export const seenWhileOpen = (ticket: Ticket, openUuid: string | undefined): Ticket =>
  openUuid !== undefined && ticket.uuid === openUuid && ticket.unreadMessages !== 0
    ? { ...ticket, unreadMessages: 0 }
    : ticket;

/** `seenWhileOpen` over a list; the same array when nothing changes. */
export const listSeenWhileOpen = (list: Ticket[], openUuid: string | undefined): Ticket[] => {
  const seen = list.map((t) => seenWhileOpen(t, openUuid));
  return seen.some((t, i) => t !== list[i]) ? seen : list;
};

/** Appends a loaded page, skipping tickets an event already put on the list. */
export const appendPage = (list: Ticket[], page: Ticket[]): Ticket[] => {
  const seen = new Set(list.map((t) => t.id));
  return [...list, ...page.filter((t) => !seen.has(t.id))];
};
