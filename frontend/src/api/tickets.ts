import type { ContactPage, ContactView, UpdateContactBody } from '@contracts/contacts';
import type { QueueView } from '@contracts/queues';
import type {
  CloseAllTicketsBody,
  CreateTicketBody,
  TicketChannel,
  TicketLogView,
  TicketPage,
  TicketStatus,
  TicketView,
  UpdateTicketBody,
} from '@contracts/tickets';
import { ApiError } from './api-error';
import { api } from './transport';

/**
 * Tickets (core spec §3 Ticket, §4 transitions, §7 Tickets): the typed client of functions/http/tickets,
 * plus the few calls of other areas the ticket screen needs (company settings it reads, the company's
 * queues, contact actions of the contact drawer) until those areas have their own clients; tags and notes
 * are in ./tags.ts.
 * Wire shapes: the server's contracts (functions/contracts/tickets.ts, contacts.ts, queues.ts).
 */
export type { TicketChannel, TicketPage, TicketStatus };
export type Ticket = TicketView;
export type TicketContact = ContactView;

/** The list's query (core spec §7 GET /tickets); list values travel as JSON arrays. */
export interface TicketListQuery {
  searchParam?: string;
  pageNumber?: number;
  status?: 'open' | 'pending' | 'closed' | 'group';
  showAll?: boolean;
  queueIds?: number[];
  tags?: number[];
  users?: number[];
  whatsapps?: number[];
  statusFilter?: string[];
  withUnreadMessages?: boolean;
  sortTickets?: 'ASC' | 'DESC';
  searchOnMessages?: boolean;
  cursor?: string;
}

interface CallOptions {
  signal?: AbortSignal;
}

const list = (values: unknown[] | undefined) => (values && values.length > 0 ? JSON.stringify(values) : undefined);

/** The wire query of a list request: empty filters are left out, flags only when on. */
export const ticketListQuery = (q: TicketListQuery): Record<string, string | number | undefined> => ({
  searchParam: q.searchParam?.trim() || undefined,
  pageNumber: q.pageNumber ?? 1,
  status: q.status,
  showAll: q.showAll ? 'true' : undefined,
  queueIds: q.queueIds ? JSON.stringify(q.queueIds) : undefined,
  tags: list(q.tags),
  users: list(q.users),
  whatsapps: list(q.whatsapps),
  statusFilter: list(q.statusFilter),
  withUnreadMessages: q.withUnreadMessages ? 'true' : undefined,
  sortTickets: q.sortTickets,
  searchOnMessages: q.searchOnMessages ? 'true' : undefined,
  cursor: q.cursor,
});

const ticketPath = (id: number) => `/tickets/${encodeURIComponent(String(id))}`;

/** GET /tickets: one page of the tickets the caller may see. */
export const listTickets = (query: TicketListQuery, options: CallOptions = {}): Promise<TicketPage> =>
  api().get<TicketPage>('/tickets', { ...options, query: ticketListQuery(query) });

/** GET /tickets/u/{uuid}. */
export const getTicketByUuid = (uuid: string, options: CallOptions = {}): Promise<Ticket> =>
  api().get<Ticket>(`/tickets/u/${encodeURIComponent(uuid)}`, options);

/** What the new-ticket dialog sends: always an open ticket of the caller's. */
export type NewTicketInput = Omit<CreateTicketBody, 'companyId'> & { userId: number; status: 'open' };

/** POST /tickets: a new open ticket; 409 ERR_OTHER_OPEN_TICKET when the contact already has one. */
export const createTicket = (input: NewTicketInput): Promise<Ticket> => api().post<Ticket>('/tickets', input);

export type TicketUpdate = Omit<UpdateTicketBody, 'companyId'>;

/** PUT /tickets/{id}: every transition of core spec §4 (accept, return, resolve, ignore, reopen, transfer). */
export const updateTicket = (id: number, update: TicketUpdate): Promise<Ticket> =>
  api().put<Ticket>(ticketPath(id), update);

/** The bodies of the spec's transitions (core §4), in one place. */
export const transitions = {
  accept: (me: number, queueId?: number | null): TicketUpdate => ({
    status: 'open',
    userId: me,
    ...(queueId ? { queueId } : {}),
  }),
  returnToQueue: (): TicketUpdate => ({ status: 'pending', userId: null }),
  resolve: (me: number | null, sendFarewellMessage: boolean): TicketUpdate => ({
    status: 'closed',
    sendFarewellMessage,
    userId: me,
  }),
  ignore: (): TicketUpdate => ({ status: 'closed', sendFarewellMessage: false, amountUsedBotQueues: 0 }),
  reopen: (me: number): TicketUpdate => ({ status: 'open', userId: me }),
  transfer: (queueId: number, userId: number | null, msgTransfer: string): TicketUpdate => ({
    queueId,
    userId,
    msgTransfer,
    isTransfered: true,
  }),
};

/** DELETE /tickets/{id} (permission ticket-options:deleteTicket). */
export const deleteTicket = async (id: number): Promise<void> => {
  await api().delete<unknown>(ticketPath(id));
};

/** POST /tickets/closeAll: closes every ticket of the status in the queues (admins). */
export const closeAllTickets = async (
  status: CloseAllTicketsBody['status'],
  selectedQueueIds: number[],
): Promise<void> => {
  await api().post<unknown>('/tickets/closeAll', { status, selectedQueueIds } satisfies CloseAllTicketsBody);
};

export type TicketLogEntry = TicketLogView;

/** GET /tickets-log/{ticketId}: the ticket's timeline. */
export const getTicketLog = (ticketId: number, options: CallOptions = {}): Promise<TicketLogEntry[]> =>
  api().get<TicketLogEntry[]>(`/tickets-log/${encodeURIComponent(String(ticketId))}`, options);

/** Who holds the ticket another create or accept ran into (details of 409 ERR_OTHER_OPEN_TICKET). */
export interface OtherOpenTicket {
  userId: number | null;
  user: { name: string } | null;
  queue: { name: string } | null;
  uuid: string;
  status: string;
}

export const otherOpenTicketOf = (err: unknown): OtherOpenTicket | null => {
  if (!(err instanceof ApiError) || err.code !== 'ERR_OTHER_OPEN_TICKET' || !err.details) return null;
  const d = err.details as Partial<OtherOpenTicket>;
  if (typeof d.uuid !== 'string') return null;
  return {
    userId: typeof d.userId === 'number' ? d.userId : null,
    user: d.user ?? null,
    queue: d.queue ?? null,
    uuid: d.uuid,
    status: typeof d.status === 'string' ? d.status : '',
  };
};

// --- Other areas the ticket screen calls -------------------------------------------------------------

/** A queue of the company as GET /queue lists it (core spec §3 Queue), in the company's order. */
export type CompanyQueue = QueueView;

/** GET /queue: every queue of the company (any signed-in user; the dialogs offer them all). */
export const listCompanyQueues = (options: CallOptions = {}): Promise<CompanyQueue[]> =>
  api().get<CompanyQueue[]>('/queue', options);

/** The company settings the ticket screen obeys (GET /companySettings/{companyId}, any signed-in user). */
export interface TicketScreenSettings {
  sendSignMessage?: string;
  requiredTag?: string;
  lgpdHideNumber?: string;
  showNotificationPending?: boolean;
  userRating?: string;
  [column: string]: unknown;
}

export const getCompanySettings = (companyId: number, options: CallOptions = {}): Promise<TicketScreenSettings> =>
  api().get<TicketScreenSettings>(`/companySettings/${encodeURIComponent(String(companyId))}`, options);

/** A contact as GET /contacts lists it (the new-ticket, forward and send-contact dialogs search them). */
export type ContactSummary = TicketContact;

/** GET /contacts {searchParam}: the first page of contacts whose name or number matches. */
export const searchContacts = async (searchParam: string, options: CallOptions = {}): Promise<ContactSummary[]> => {
  const page = await api().get<ContactPage>('/contacts', {
    ...options,
    query: { searchParam, pageNumber: 1 },
  });
  return page.contacts;
};

/**
 * The contact of a WhatsApp number (talk to sender, core spec §4): GET /contacts/profile/{number}, or when
 * the number has no contact yet (404) POST /contacts with `name` — and if another call created it meanwhile
 * (ERR_DUPLICATED_CONTACT), the one it names.
 */
export const contactIdForNumber = async (number: string, name: string): Promise<number> => {
  try {
    const profile = await api().get<{ contactId: number }>(`/contacts/profile/${encodeURIComponent(number)}`);
    return profile.contactId;
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
  }
  try {
    return (await api().post<TicketContact>('/contacts', { name, number })).id;
  } catch (err) {
    const taken = err instanceof ApiError && err.code === 'ERR_DUPLICATED_CONTACT' ? err.details?.contactId : null;
    if (typeof taken === 'number') return taken;
    throw err;
  }
};

export type ContactUpdate = Omit<UpdateContactBody, 'companyId'>;

/** PUT /contacts/{id}. */
export const updateContact = (id: number, update: ContactUpdate): Promise<TicketContact> =>
  api().put<TicketContact>(`/contacts/${id}`, update);

/** PUT /contacts/block/{id} {active}: false blocks, true unblocks. */
export const setContactActive = (id: number, active: boolean): Promise<TicketContact> =>
  api().put<TicketContact>(`/contacts/block/${id}`, { active });

/** PUT /contacts/toggleAcceptAudio/{id}. */
export const toggleContactAcceptAudio = (id: number): Promise<TicketContact> =>
  api().put<TicketContact>(`/contacts/toggleAcceptAudio/${id}`);
