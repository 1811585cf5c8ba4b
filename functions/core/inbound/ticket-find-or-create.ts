import type { Connection } from '../../data/connection-repository';
import type { Contact } from '../../data/contact-repository';
import type { ReadAhead } from '../../data/consistent-reads';
import {
  createTicket,
  getLastClosedTicket,
  getOpenTicketId,
  getTicket,
  OtherOpenTicket,
  releaseStaleGuard,
  TicketChanged,
  transitionTicket,
  type Ticket,
  type TicketChannel,
} from '../../data/ticket-repository';
import { ServiceUnavailable } from '../../shared/errors';
import { logger } from '../../shared/logger';

/**
 * The ticket an inbound message belongs to (data-model §2.14): the contact's not-closed ticket on the
 * connection (open, pending, group, lgpd, nps), or a new one. "One per contact per connection" is the
 * guard item's conditional write inside the create transaction, so a hundred parallel first messages make
 * exactly one ticket: the losers read the winner's guard and join its ticket. A closed ticket has no guard:
 * the contact's next message opens a new ticket (docs/decisions/D33-inbound-tickets-automatic-replies.md).
 *
 * A new ticket is `pending` — `group` for a WhatsApp group unless the connection treats groups as tickets
 * (`groupAsTicket` enabled) — in the connection's queue when it has exactly one (groups get no queue), and
 * `origin: passive` when the contact wrote first.
 */
export interface TicketStart {
  channel: TicketChannel;
  isGroup: boolean;
  fromMe: boolean;
  chatId: string;
  providerMessageId: string;
  /** From the import of old messages: never reopens a recently closed ticket (decisions D78). */
  imported?: boolean;
}

export const newTicketStatus = (isGroup: boolean, connection: Pick<Connection, 'groupAsTicket'>): Ticket['status'] =>
  isGroup && connection.groupAsTicket !== 'enabled' ? 'group' : 'pending';

export const newTicketQueue = (isGroup: boolean, connection: Pick<Connection, 'queueIds'>): number | null =>
  !isGroup && connection.queueIds.length === 1 ? connection.queueIds[0]! : null;

const ATTEMPTS = 8;

export const findOrCreateTicket = async (
  contact: Contact,
  connection: Connection,
  start: TicketStart,
  /** The inbound batch's reads ahead: the guard may have been read with the contact (decisions D84). */
  readAhead?: ReadAhead,
): Promise<{ ticket: Ticket; created: boolean }> => {
  const { companyId } = contact;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const openId = await getOpenTicketId(companyId, contact.id, connection.id, readAhead);
    if (openId !== null) {
      const ticket = await getTicket(companyId, openId);
      if (ticket && ticket.status !== 'closed') return { ticket, created: false };
      logger.warn('stale open-ticket guard released', { companyId, contactId: contact.id, ticketId: openId });
      await releaseStaleGuard(companyId, contact.id, connection.id, openId);
      continue;
    }
    const reopened = await reopenRecent(contact, connection, start);
    if (reopened === 'retry') continue;
    if (reopened) return { ticket: reopened, created: false };
    try {
      const ticket = await createTicket(companyId, {
        status: newTicketStatus(start.isGroup, connection),
        queueId: newTicketQueue(start.isGroup, connection),
        userId: null,
        contactId: contact.id,
        whatsappId: connection.id,
        channel: start.channel,
        isGroup: start.isGroup,
        origin: start.fromMe ? 'active' : 'passive',
        firstProviderId: start.providerMessageId,
        chatId: start.chatId,
      });
      return { ticket, created: true };
    } catch (err) {
      // Another message of this contact made the ticket a moment ago: join it.
      if (err instanceof OtherOpenTicket || err instanceof ServiceUnavailable) {
        await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
        continue;
      }
      throw err;
    }
  }
  throw new ServiceUnavailable();
};

/**
 * `timeCreateNewTicket` (minutes, per connection): a contact who writes again within that time of their
 * last ticket's close on the connection gets that ticket back — reopened as pending (group for groups), with
 * nobody assigned and a `reopen` log entry — instead of a new one (data-model §2.14). 'retry' when another
 * writer reopened or created a ticket meanwhile: the caller looks again.
 */
const reopenRecent = async (
  contact: Contact,
  connection: Connection,
  start: TicketStart,
  now = new Date(),
): Promise<Ticket | 'retry' | null> => {
  const minutes = Number(connection.timeCreateNewTicket ?? 0);
  if (!(minutes > 0) || start.fromMe || start.imported) return null;
  const last = await getLastClosedTicket(contact.companyId, contact.id, connection.id);
  if (!last || now.getTime() - Date.parse(last.closedAt) > minutes * 60_000) return null;
  const ticket = await getTicket(contact.companyId, last.ticketId);
  if (!ticket || ticket.status !== 'closed') return null;
  try {
    return await transitionTicket(
      ticket,
      {
        status: newTicketStatus(start.isGroup, connection),
        userId: null,
        queueId: ticket.queueId,
        logs: [{ type: 'reopen', userId: null, queueId: ticket.queueId }],
      },
      now,
    );
  } catch (err) {
    if (err instanceof OtherOpenTicket || err instanceof TicketChanged) return 'retry';
    throw err;
  }
};
