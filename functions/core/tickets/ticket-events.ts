import type { Contact } from '../../data/contact-repository';
import type { Ticket } from '../../data/ticket-repository';
import {
  publishBatchToConnections,
  publishToConnections,
  type Audience,
  type RealtimeEvent,
} from '../../realtime/publisher';
import { ticketAudience } from '../../realtime/ticket-audience';
import { maskEventNumbers } from '../contacts/number-mask';
import type { InboundScope } from '../inbound/inbound-scope';
import { errorFields, logger } from '../logger';
import { toTicketView, type TicketView } from './ticket-views';

/**
 * A ticket's wire view and its real-time events, shared by the inbound job, the outbound sender and the
 * tickets and messages services. `scope` memoises the company reads (queues, connection, viewers,
 * settings) for one batch or one request.
 */
export const ticketViewOf = async (scope: InboundScope, ticket: Ticket, contact: Contact): Promise<TicketView> => {
  const [queues, connection, userName] = await Promise.all([
    scope.queues(ticket.companyId),
    scope.connection(ticket.companyId, ticket.whatsappId),
    ticket.userId === null ? Promise.resolve(null) : scope.userName(ticket.companyId, ticket.userId),
  ]);
  const queue = ticket.queueId === null ? undefined : queues.get(ticket.queueId);
  return toTicketView(ticket, contact, {
    queue: queue ? { id: queue.id, name: queue.name, color: queue.color } : null,
    whatsapp: connection ? { id: connection.id, name: connection.name, groupAsTicket: connection.groupAsTicket } : null,
    user: ticket.userId === null ? null : { id: ticket.userId, name: userName ?? '' },
  });
};

/** An event about a ticket, on one of the company's channels (spec §7 real time). */
export interface TicketEvent {
  channel: 'appMessage' | 'ticket' | 'contact';
  action: string;
  [payload: string]: unknown;
}

/** Sends a ticket's events to the sockets whose user may see it; a failure is logged, never retried. */
export const publishForTicket = async (scope: InboundScope, ticket: Ticket, events: TicketEvent[]): Promise<void> => {
  try {
    const snapshot = await scope.viewers(ticket.companyId);
    if (snapshot.connections.length === 0) return;
    const audience = ticketAudience(snapshot, ticket);
    // LGPD (D42): where the company hides numbers, plain users get the contact's number masked.
    const hideNumbers = await scope.hidesNumbers(ticket.companyId);
    const manager: Audience = (c) => c.profile === 'admin' || c.super;
    // One frame per socket for all of them (decisions D83).
    const full = events.map(
      ({ channel, ...event }) => ({ ...event, channel: `company-${ticket.companyId}-${channel}` }) as RealtimeEvent,
    );
    if (!hideNumbers) {
      await publishBatchToConnections(snapshot.connections, full, audience);
      return;
    }
    await publishBatchToConnections(snapshot.connections, full, (c) => audience(c) && manager(c));
    await publishBatchToConnections(
      snapshot.connections,
      full.map(maskEventNumbers),
      (c) => audience(c) && !manager(c),
    );
  } catch (err) {
    logger.warn('ticket events not sent', { companyId: ticket.companyId, ticketId: ticket.id, ...errorFields(err) });
  }
};

/**
 * A ticket moved (created, transitioned, deleted): everyone who may see it now gets `update` with its view;
 * those who could see it before and no longer can (another queue, another attendant) get `delete`, so
 * their list drops it without a refresh. `after` null is a delete.
 */
export const publishTicketChange = async (
  scope: InboundScope,
  before: Ticket | null,
  after: Ticket | null,
  contact: Contact,
): Promise<void> => {
  const ticket = after ?? before;
  if (!ticket) return;
  try {
    if (after) {
      await publishForTicket(scope, after, [
        { channel: 'ticket', action: 'update', ticket: await ticketViewOf(scope, after, contact) },
      ]);
    }
    if (!before) return;
    const snapshot = await scope.viewers(ticket.companyId);
    if (snapshot.connections.length === 0) return;
    const sawBefore = ticketAudience(snapshot, before);
    const seesAfter: Audience = after ? ticketAudience(snapshot, after) : () => false;
    await publishToConnections(
      snapshot.connections,
      { channel: `company-${ticket.companyId}-ticket`, action: 'delete', ticketId: ticket.id },
      (c) => sawBefore(c) && !seesAfter(c),
    );
  } catch (err) {
    logger.warn('ticket events not sent', { companyId: ticket.companyId, ticketId: ticket.id, ...errorFields(err) });
  }
};
