import {
  getContacts,
  listContacts,
  numberDigits,
  searchContactsByNumber,
  type ContactChannel,
} from '../../data/contact-repository';
import { company, searchForm } from '../../data/keys';
import { searchMessageTickets } from '../../data/message-search-repository';
import type { Page } from '../../data/query-page';
import {
  contactTicketIds,
  getTickets,
  listTicketStreams,
  queueStream,
  ticketIdsCreatedBetween,
  userStream,
  type TicketStream,
} from '../../data/ticket-list-repository';
import {
  getLiveCounts,
  getTicket,
  queueCountKey,
  userCountKey,
  type Ticket,
  type TicketStatus,
} from '../../data/ticket-repository';
import type { AuthContext } from '../../shared/auth-context';
import { BadRequest } from '../../shared/errors';
import { ReadScope } from '../../data/read-scope';
import { fetchPage, type PagingInput } from '../paging';
import { ticketViewerOf } from './ticket-access';
import { viewForCaller } from './ticket-service';
import type { TicketPage, TicketView } from '../../contracts/tickets';
import { canSeeTicket, type TicketViewer } from './visibility';

/**
 * GET /tickets (core §2 Ticket screen, §7 Tickets; data-model §3.2). Three ways in, each O(page):
 * - the tabs: a merge of list streams — queue × status on gsi1, or the attendant's own × status on gsi2 —
 *   chosen from the caller's visibility (decisions D44);
 * - a search: contacts by name or number (their indexes), then each contact's recent tickets, plus the
 *   ticket whose number was typed;
 * - a creation day (`date`): the creation index.
 * Every ticket also passes the one visibility function before it is answered, whatever selected it.
 */
export const TICKET_PAGE_SIZE = 40;
const SEARCH_CONTACTS_PER_PAGE = 20;
const TICKETS_PER_CONTACT = 10;
const MAX_STREAMS = 64;
const CHANNELS: ContactChannel[] = ['whatsapp', 'instagram', 'facebook'];

export interface TicketListInput extends PagingInput {
  searchParam?: string | undefined;
  status?: TicketStatus | undefined;
  statusFilter?: TicketStatus[] | undefined;
  showAll?: boolean | undefined;
  queueIds?: number[] | undefined;
  tags?: number[] | undefined;
  users?: number[] | undefined;
  whatsapps?: number[] | undefined;
  withUnreadMessages?: boolean | undefined;
  sortTickets?: 'ASC' | 'DESC' | undefined;
  /** yyyy-mm-dd: tickets updated that day (UTC). */
  updatedAt?: string | undefined;
  /** yyyy-mm-dd: tickets created that day (UTC). */
  date?: string | undefined;
  searchOnMessages?: boolean | undefined;
}

const isManager = (v: TicketViewer) => v.profile === 'admin' || v.super;
const dayRange = (day: string) => ({ from: `${day}T00:00:00.000Z`, to: `${day}T23:59:59.999Z` });

/** The statuses a list covers: the tab's, else the filter's, else everything not closed the caller may see. */
const statusesOf = (q: TicketListInput, viewer: TicketViewer): TicketStatus[] => {
  const wanted: TicketStatus[] = q.status
    ? [q.status]
    : q.statusFilter?.length
      ? q.statusFilter
      : ['open', 'pending', 'group', 'lgpd', 'nps'];
  return wanted.filter((s) => s !== 'group' || viewer.allowGroup || isManager(viewer));
};

/** The queues a list covers (0 = no queue): the selection, within what the caller may see. */
const queuesOf = async (q: TicketListInput, viewer: TicketViewer, scope: ReadScope, companyId: number) => {
  const all = [...(await scope.queues(companyId)).keys()];
  const allowed = isManager(viewer) ? all : viewer.queueIds.filter((id) => all.includes(id));
  const selected = q.queueIds?.length ? q.queueIds.filter((id) => allowed.includes(id)) : allowed;
  const noQueue = isManager(viewer) || viewer.allTicket;
  return { queues: selected, noQueue, restricted: Boolean(q.queueIds?.length) };
};

export const listCompanyTickets = async (auth: AuthContext, q: TicketListInput): Promise<TicketPage> => {
  const { companyId } = auth;
  const viewer = await ticketViewerOf(auth);
  const scope = new ReadScope();
  const search = q.searchParam?.trim() ?? '';
  const page = search
    ? await fetchPage(q, TICKET_PAGE_SIZE, (cursor) => searchTickets(companyId, viewer, q, search, cursor))
    : q.date
      ? await fetchPage(q, TICKET_PAGE_SIZE, (cursor) => ticketsCreatedOn(companyId, viewer, q, q.date!, cursor))
      : await listTabs(companyId, viewer, scope, q);
  // One BatchGet for the page's contacts, not a read per ticket.
  const contacts = await getContacts(
    companyId,
    page.items.map((t) => t.contactId),
  );
  const tickets: TicketView[] = [];
  for (const t of page.items) {
    const contact = contacts.get(t.contactId);
    if (contact) tickets.push(await viewForCaller(auth, scope, t, contact));
  }
  return {
    tickets,
    hasMore: page.hasMore,
    count: 'count' in page ? (page as { count: number }).count : tickets.length,
    countIsExact: 'count' in page,
    ...(page.nextCursor ? ({ nextCursor: page.nextCursor } satisfies Partial<TicketPage>) : {}),
  };
};

// ------------------------------------------------------------------------------------------------- tabs

const listTabs = async (
  companyId: number,
  viewer: TicketViewer,
  scope: ReadScope,
  q: TicketListInput,
): Promise<Page<Ticket> & { count?: number }> => {
  const manager = isManager(viewer);
  const showAll = Boolean(q.showAll) && (manager || viewer.allUserChat);
  const statuses = statusesOf(q, viewer);
  const { queues, noQueue, restricted } = await queuesOf(q, viewer, scope, companyId);
  const users = manager && q.users?.length ? q.users : undefined;
  const streams: TicketStream[] = [];
  const countKeys: string[] = [];
  for (const status of statuses) {
    if (users) {
      for (const u of users) {
        streams.push(userStream(companyId, u, status));
        countKeys.push(userCountKey(u, status));
      }
      continue;
    }
    // Assigned statuses without show-all: the caller's own tickets ("Atendendo", resolved).
    if ((status === 'open' || status === 'closed') && !showAll) {
      streams.push(userStream(companyId, viewer.userId, status));
      countKeys.push(userCountKey(viewer.userId, status));
      continue;
    }
    const queueIds: (number | null)[] = [...queues, ...(noQueue || status === 'group' ? [null] : [])];
    for (const queueId of queueIds) {
      streams.push(queueStream(companyId, queueId, status));
      countKeys.push(queueCountKey(queueId, status));
    }
  }
  if (streams.length > MAX_STREAMS) {
    throw new BadRequest('ERR_VALIDATION', 'Too many queues and statuses at once', [
      { field: 'query.queueIds', reason: `at most ${MAX_STREAMS} queue × status lists per request` },
    ]);
  }
  const selectedQueues = new Set<number | null>([...queues, ...(noQueue ? [null] : [])]);
  const accept = (t: Ticket) => canSeeTicket(viewer, t) && (!restricted || t.isGroup || selectedQueues.has(t.queueId));
  const filter = {
    whatsappIds: q.whatsapps,
    tagIds: q.tags,
    unreadOnly: q.withUnreadMessages,
  };
  const filtered = Boolean(q.whatsapps?.length || q.tags?.length || q.withUnreadMessages || q.updatedAt);
  const scopeKey = [
    company(companyId),
    'TICKETS',
    viewer.userId,
    streams.map((s) => s.partition).join(','),
    q.sortTickets ?? 'DESC',
    q.updatedAt ?? '',
    JSON.stringify(filter),
    restricted ? 'R' : '',
  ].join('#');
  const fetch = (cursor: string | undefined) =>
    listTicketStreams({
      scope: scopeKey,
      streams,
      descending: q.sortTickets !== 'ASC',
      updatedBetween: q.updatedAt ? dayRange(q.updatedAt) : undefined,
      filter,
      accept,
      limit: TICKET_PAGE_SIZE,
      cursor,
    });
  const [page, counts] = await Promise.all([
    fetchPage(q, TICKET_PAGE_SIZE, fetch),
    filtered ? Promise.resolve(null) : getLiveCounts(companyId, countKeys),
  ]);
  return counts ? { ...page, count: [...counts.values()].reduce((a, b) => a + b, 0) } : page;
};

// ----------------------------------------------------------------------------------------------- search

const searchTickets = async (
  companyId: number,
  viewer: TicketViewer,
  q: TicketListInput,
  search: string,
  cursor: string | undefined,
): Promise<Page<Ticket>> => {
  const digits = /^[\d\s()+\-.]+$/.test(search) ? numberDigits(search) : '';
  // With searchOnMessages the pages follow the message index (D47); the first also holds the contacts' matches.
  const inMessages = q.searchOnMessages
    ? await searchMessageTickets(companyId, search, TICKET_PAGE_SIZE, cursor)
    : null;
  const contactCursor = inMessages ? undefined : cursor;
  const contacts =
    inMessages && cursor
      ? { items: [], hasMore: false }
      : digits
        ? await searchContactsByNumber(companyId, { digits, limit: SEARCH_CONTACTS_PER_PAGE, cursor: contactCursor })
        : await listContacts(companyId, {
            kinds: CHANNELS.flatMap((channel) => [false, true].map((isGroup) => ({ channel, isGroup }))),
            namePrefix: searchForm(search),
            limit: SEARCH_CONTACTS_PER_PAGE,
            cursor: contactCursor,
          });
  const ids = [
    ...(await Promise.all(contacts.items.map((c) => contactTicketIds(companyId, c.id, TICKETS_PER_CONTACT)))).flat(),
    ...(inMessages?.items ?? []),
  ];
  // "#123" or "123": the ticket with that number, on the first page.
  const number = !cursor && /^#?\d{1,10}$/.test(search) ? Number(search.replace('#', '')) : null;
  const byNumber = number ? await getTicket(companyId, number) : null;
  const statuses = q.statusFilter?.length ? q.statusFilter : q.status ? [q.status] : null;
  const tickets = [...(byNumber ? [byNumber] : []), ...(await getTickets(companyId, ids))].filter(
    (t, i, all) =>
      all.findIndex((o) => o.id === t.id) === i &&
      canSeeTicket(viewer, t) &&
      (!statuses || statuses.includes(t.status)) &&
      (!q.whatsapps?.length || q.whatsapps.includes(t.whatsappId)) &&
      (!q.tags?.length || q.tags.some((tag) => (t.tagIds ?? []).includes(tag))) &&
      (!q.withUnreadMessages || t.unreadMessages > 0),
  );
  tickets.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : b.id - a.id));
  const paging = inMessages ?? contacts;
  return {
    items: tickets,
    hasMore: paging.hasMore,
    ...('nextCursor' in paging && paging.nextCursor ? { nextCursor: paging.nextCursor } : {}),
  };
};

// ------------------------------------------------------------------------------------------ created on

const ticketsCreatedOn = async (
  companyId: number,
  viewer: TicketViewer,
  q: TicketListInput,
  day: string,
  cursor: string | undefined,
): Promise<Page<Ticket>> => {
  const ids = await ticketIdsCreatedBetween(companyId, dayRange(day), TICKET_PAGE_SIZE, cursor);
  const statuses = q.statusFilter?.length ? q.statusFilter : q.status ? [q.status] : null;
  const tickets = (await getTickets(companyId, ids.items)).filter(
    (t) => canSeeTicket(viewer, t) && (!statuses || statuses.includes(t.status)),
  );
  return { ...ids, items: tickets };
};
