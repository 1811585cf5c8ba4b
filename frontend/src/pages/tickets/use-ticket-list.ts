import { useCallback, useEffect, useRef, useState } from 'react';
import { companyChannel } from '@contracts/realtime';
import type { AuthUser } from '@/api/auth';
import { listTickets, type Ticket } from '@/api/tickets';
import type { SocketEvent } from '@/realtime/socket';
import { useChannel, useOnReconnect } from '@/realtime/use-socket';
import {
  appendPage,
  applyTicketChange,
  listSeenWhileOpen,
  queryOf,
  seenWhileOpen,
  type ListFilter,
  type TicketChange,
} from './ticket-list-state';

/** Core spec §9: the ticket fetch waits 500 ms (filters and typing settle first). */
export const TICKET_FETCH_DELAY_MS = 500;

const isTicket = (value: unknown): value is Ticket =>
  typeof value === 'object' && value !== null && typeof (value as Ticket).id === 'number' && 'status' in value;

/** The change a `company-{id}-ticket` or `company-{id}-appMessage` event carries, or null. */
export const ticketChangeOf = (event: SocketEvent): TicketChange | null => {
  if (event.channel.endsWith('-appMessage')) {
    if ((event.action === 'create' || event.action === 'update') && isTicket(event.ticket)) {
      return { kind: event.action === 'create' ? 'message' : 'update', ticket: event.ticket };
    }
    return null;
  }
  if (event.action === 'update' && isTicket(event.ticket)) return { kind: 'update', ticket: event.ticket };
  if (event.action === 'delete' && typeof event.ticketId === 'number')
    return { kind: 'delete', ticketId: event.ticketId };
  if (event.action === 'updateUnread' && typeof event.ticketId === 'number')
    return { kind: 'read', ticketId: event.ticketId };
  return null;
};

export interface TicketList {
  status: 'loading' | 'ready' | 'error';
  tickets: Ticket[];
  count: number;
  hasMore: boolean;
  loadingMore: boolean;
  error: unknown;
  loadMore: () => void;
  reload: () => void;
  /** An answer of the server (accept, transfer, ...): shown at once, events may follow. */
  apply: (change: TicketChange) => void;
}

/**
 * One ticket list: the first page TICKET_FETCH_DELAY_MS after the filter settles, further pages on demand
 * (cursor paging), and the company's ticket and message events applied as they come. A reconnect reads
 * the list again, because events sent while the socket was down are gone. The ticket open on screen
 * (`openUuid`) shows no unread messages (`seenWhileOpen`).
 */
export function useTicketList(
  filter: ListFilter,
  me: AuthUser,
  enabled = true,
  openUuid: string | undefined = undefined,
): TicketList {
  const [state, setState] = useState<{
    status: TicketList['status'];
    tickets: Ticket[];
    count: number;
    hasMore: boolean;
    cursor?: string;
    page: number;
    error: unknown;
  }>({ status: 'loading', tickets: [], count: 0, hasMore: false, page: 1, error: undefined });
  const [loadingMore, setLoadingMore] = useState(false);
  const [generation, setGeneration] = useState(0);
  const filterKey = JSON.stringify(filter);
  const filterRef = useRef(filter);
  filterRef.current = filter;
  const openRef = useRef(openUuid);
  openRef.current = openUuid;

  // Opening a ticket clears its unread count in the list at once.
  useEffect(() => {
    setState((s) => {
      const tickets = listSeenWhileOpen(s.tickets, openUuid);
      return tickets === s.tickets ? s : { ...s, tickets };
    });
  }, [openUuid]);

  useEffect(() => {
    if (!enabled) return undefined;
    const controller = new AbortController();
    setState((s) => ({ ...s, status: 'loading' }));
    const timer = setTimeout(() => {
      listTickets({ ...queryOf(filterRef.current), pageNumber: 1 }, { signal: controller.signal }).then(
        (page) => {
          if (controller.signal.aborted) return;
          setState({
            status: 'ready',
            tickets: listSeenWhileOpen(page.tickets, openRef.current),
            count: page.count,
            hasMore: page.hasMore,
            cursor: page.nextCursor,
            page: 1,
            error: undefined,
          });
        },
        (error: unknown) => {
          if (!controller.signal.aborted) setState((s) => ({ ...s, status: 'error', error }));
        },
      );
    }, TICKET_FETCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [filterKey, generation, enabled]);

  const loadMore = useCallback(() => {
    if (loadingMore) return;
    setLoadingMore(true);
    const next = state.page + 1;
    listTickets({ ...queryOf(filterRef.current), pageNumber: next, cursor: state.cursor }).then(
      (page) => {
        setState((s) => ({
          ...s,
          tickets: appendPage(s.tickets, listSeenWhileOpen(page.tickets, openRef.current)),
          hasMore: page.hasMore,
          cursor: page.nextCursor,
          page: next,
        }));
        setLoadingMore(false);
      },
      (error: unknown) => {
        setState((s) => ({ ...s, error }));
        setLoadingMore(false);
      },
    );
  }, [loadingMore, state.page, state.cursor]);

  const apply = useCallback(
    (change: TicketChange) =>
      setState((s) => {
        const seen =
          change.kind === 'update' || change.kind === 'message'
            ? { ...change, ticket: seenWhileOpen(change.ticket, openRef.current) }
            : change;
        const tickets = applyTicketChange(s.tickets, seen, filterRef.current, me);
        if (tickets === s.tickets) return s;
        return { ...s, tickets, count: Math.max(0, s.count + tickets.length - s.tickets.length) };
      }),
    [me],
  );

  const onEvent = (event: SocketEvent) => {
    const change = enabled ? ticketChangeOf(event) : null;
    if (change) apply(change);
  };
  useChannel(companyChannel(me.companyId, 'ticket'), onEvent);
  useChannel(companyChannel(me.companyId, 'appMessage'), onEvent);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  useOnReconnect(reload);

  return {
    status: state.status,
    tickets: state.tickets,
    count: state.count,
    hasMore: state.hasMore,
    loadingMore,
    error: state.error,
    loadMore,
    reload,
    apply,
  };
}
