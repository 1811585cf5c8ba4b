import * as z from 'zod';
import type { ContactView } from './contacts';

/**
 * Tickets on the wire (core spec §3 Ticket, §4 statuses and transitions, §7 Tickets): the vocabulary, the
 * views the server answers and sends in `ticket` events, and the bodies functions/http/tickets accepts.
 * Shared by the server (data, core, http) and the browser (frontend/src/api/tickets.ts).
 */
export const TICKET_STATUSES = ['open', 'pending', 'closed', 'group', 'lgpd', 'nps'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export type TicketChannel = 'whatsapp' | 'whatsappapi' | 'facebook' | 'instagram';

/** A ticket as lists, the ticket screen and `company-{id}-ticket` events show it. */
export interface TicketView {
  id: number;
  uuid: string;
  status: TicketStatus;
  queueId: number | null;
  queue: { id: number; name: string; color: string } | null;
  userId: number | null;
  user: { id: number; name: string } | null;
  contactId: number;
  contact: ContactView;
  whatsappId: number;
  whatsapp: { id: number; name: string; groupAsTicket: string } | null;
  channel: TicketChannel;
  isGroup: boolean;
  isBot: boolean;
  lastMessage: string;
  unreadMessages: number;
  tags: { id: number }[];
  useIntegration: boolean;
  integrationId: number | null;
  promptId: number | null;
  amountUsedBotQueues: number;
  /** The contact's rating, 1–5, once given. */
  userRating?: number | null;
  /**
   * Facebook, Instagram and Cloud API tickets: when Meta's 24-hour reply window closes (ISO), so the
   * composer can warn (core §8; decisions D40). Null for WhatsApp, and before the contact wrote.
   */
  replyWindowEndsAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /tickets: one page of the tickets the caller may see. */
export interface TicketPage {
  tickets: TicketView[];
  hasMore: boolean;
  count: number;
  /** false when `count` is what this page found rather than the exact total (data-model §1.7). */
  countIsExact: boolean;
  nextCursor?: string;
}

/** One entry of GET /tickets-log/{ticketId}, the ticket's timeline. */
export interface TicketLogView {
  type: string;
  user: { id: number; name: string } | null;
  queue: { id: number; name: string; color: string } | null;
  createdAt: string;
}

const status = z.enum(TICKET_STATUSES);
const optionalId = z.number().int().positive().nullable().optional();

/** POST /tickets: a new ticket; 409 ERR_OTHER_OPEN_TICKET when the contact already has one. */
export const createTicketBody = z.object({
  contactId: z.number({ error: 'Required' }).int().positive(),
  queueId: optionalId,
  whatsappId: optionalId,
  userId: optionalId,
  status: z.enum(['open', 'pending']).optional(),
  companyId: z.unknown().optional(),
});
export type CreateTicketBody = z.input<typeof createTicketBody>;

/** PUT /tickets/{id}: every transition of core spec §4 (accept, return, resolve, ignore, reopen, transfer). */
export const updateTicketBody = z.object({
  status: status.optional(),
  userId: optionalId,
  queueId: optionalId,
  msgTransfer: z.string().max(4096).optional(),
  isTransfered: z.boolean().optional(),
  sendFarewellMessage: z.boolean().optional(),
  amountUsedBotQueues: z.number().int().min(0).max(1000).optional(),
  useIntegration: z.boolean().optional(),
  companyId: z.unknown().optional(),
});
export type UpdateTicketBody = z.input<typeof updateTicketBody>;

/**
 * POST /tickets/closeAll: closes every ticket of the status in the queues (admins). The status is the list
 * the admin is looking at (core spec §4): Atendendo (open), Aguardando (pending) or Grupos (group).
 */
export const closeAllTicketsBody = z.object({
  status: z.enum(['open', 'pending', 'group'], { error: 'must be open, pending or group' }),
  selectedQueueIds: z.array(z.number().int().positive()).max(100).optional(),
});
export type CloseAllTicketsBody = z.input<typeof closeAllTicketsBody>;
