import type { Contact } from '../../data/contact-repository';
import type { Ticket } from '../../data/ticket-repository';
import type { CompanyEvent } from '../../contracts/realtime';
import { managers, publishToConnections, type Audience } from '../notifier';
import { hidesNumbers } from '../settings/company-settings';
import { ticketAudience, ticketViewersOf } from './ticket-audience';
import { maskEventNumbers } from '../privacy/number-mask';
import type { ReadScope } from '../../data/read-scope';
import { errorFields, logger } from '../../shared/logger';
import type { TicketView } from '../../contracts/tickets';
import { toTicketView } from './ticket-views';

/**
 * A ticket's wire view and its real-time events, shared by the inbound job, the outbound sender and the
 * tickets and messages services. `scope` memoises the company reads (queues, connection, viewers,
 * settings) for one batch or one request.
 */
export const ticketViewOf = async (scope: ReadScope, ticket: Ticket, contact: Contact): Promise<TicketView> => {
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
export type TicketEvent = CompanyEvent<'appMessage' | 'ticket' | 'contact'>;

/** Sends a ticket's events to the sockets whose user may see it; a failure is logged, never retried. */
export const publishForTicket = async (scope: ReadScope, ticket: Ticket, events: TicketEvent[]): Promise<void> => {
  try {
    const snapshot = await ticketViewersOf(scope, ticket.companyId);
    if (snapshot.connections.length === 0) return;
    const audience = ticketAudience(snapshot, ticket);
    const { companyId } = ticket;
    // One frame per socket for all of them (decisions D83).
    if (!(await hidesNumbers(scope, companyId))) {
      await publishToConnections(snapshot.connections, companyId, events, audience);
      return;
    }
    // LGPD (D42): where the company hides numbers, plain users get the contact's number masked.
    await publishToConnections(snapshot.connections, companyId, events, (c) => audience(c) && managers(c));
    await publishToConnections(
      snapshot.connections,
      companyId,
      events.map(maskEventNumbers),
      (c) => audience(c) && !managers(c),
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
  scope: ReadScope,
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
    const snapshot = await ticketViewersOf(scope, ticket.companyId);
    if (snapshot.connections.length === 0) return;
    const sawBefore = ticketAudience(snapshot, before);
    const seesAfter: Audience = after ? ticketAudience(snapshot, after) : () => false;
    await publishToConnections(
      snapshot.connections,
      ticket.companyId,
      { channel: 'ticket', action: 'delete', ticketId: ticket.id },
      (c) => sawBefore(c) && !seesAfter(c),
    );
  } catch (err) {
    logger.warn('ticket events not sent', { companyId: ticket.companyId, ticketId: ticket.id, ...errorFields(err) });
  }
};
