import { getContact } from '../../data/contact-repository';
import { getLaneEntry, finishLaneGreeting } from '../../data/kanban-repository';
import {
  claimProviderRef,
  getMessage,
  messageWireId,
  storeMessage,
  type StoredMessage,
} from '../../data/message-repository';
import type { ReadScope } from '../../data/read-scope';
import { getTag } from '../../data/tag-repository';
import { getTicket, type Ticket } from '../../data/ticket-repository';
import { seededUlid } from '../../data/ulids';
import { errorFields, logger } from '../../shared/logger';
import { lastMessagePreview } from '../pipeline/message-content';
import { enqueueOutbound, whatsappMessageId } from '../pipeline/outbound-queue';
import { isReplyWindowOpen } from '../pipeline/reply-window';
import { publishForTicket, ticketViewOf } from '../tickets/ticket-events';
import { toContactView, toMessageView } from '../tickets/ticket-views';

/**
 * An automatic text to a ticket's customer, exactly once per `seed` (decisions D102): the message's provider
 * id and key are derived from the ticket and the seed, so a retry — a crashed tick, a second tick, the
 * request and the tick racing — finds the message already stored and at most queues it again, which the
 * sender drops once it left ack 0. Stored as the system's (fromMe, no author, unread kept) and sent through
 * the outbound pipeline like every reply. Answers whether a message exists for the seed now.
 */
export const sendAutomaticText = async (
  scope: ReadScope,
  ticket: Ticket,
  body: string,
  seed: string,
): Promise<boolean> => {
  const text = body.trim();
  if (!text || !ticket.chatId) return false;
  if (!isReplyWindowOpen(ticket)) {
    logger.info('automatic text skipped: reply window closed', { companyId: ticket.companyId, ticketId: ticket.id });
    return false;
  }
  const { companyId, whatsappId } = ticket;
  const providerId = whatsappMessageId(`${companyId}:${whatsappId}:${ticket.id}:${seed}`);
  const { ref } = await claimProviderRef(companyId, whatsappId, providerId, {
    ticketId: ticket.id,
    ulid: seededUlid(Date.now(), `${whatsappId}:${providerId}`),
    contactId: ticket.contactId,
  });
  if (ref.ticketId !== ticket.id) return false;
  const createdAt = new Date().toISOString();
  const message: StoredMessage = {
    ulid: ref.ulid,
    companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId,
    body: text,
    mediaType: 'chat',
    fromMe: true,
    isPrivate: false,
    isDeleted: false,
    isEdited: false,
    isForwarded: false,
    queueId: ticket.queueId,
    ack: 0,
    createdAt,
    providerId,
    userId: null,
  };
  const outcome = await storeMessage(message, {
    lastMessage: lastMessagePreview(message),
    updatedAt: createdAt,
    unread: 'keep',
  });
  if (outcome === 'ticket-gone') return false;
  if (outcome === 'duplicate') {
    // Stored by an earlier attempt: queue it again only while unsent (the sender drops it past ack 0).
    const stored = await getMessage(companyId, ticket.id, ref.ulid);
    if (!stored || stored.ack !== 0) return true;
  } else {
    const current = (await getTicket(companyId, ticket.id)) ?? ticket;
    const contact = await getContact(companyId, ticket.contactId);
    if (contact) {
      const view = await ticketViewOf(scope, current, contact);
      await publishForTicket(scope, current, [
        {
          channel: 'appMessage',
          action: 'create',
          message: toMessageView(message, current),
          ticket: view,
          contact: toContactView(contact),
        },
        { channel: 'ticket', action: 'update', ticket: view },
      ]);
    }
  }
  await enqueueOutbound({
    kind: 'send',
    companyId,
    whatsappId,
    channel: ticket.channel,
    ticketId: ticket.id,
    messageId: messageWireId(ticket.id, ref.ulid),
    chatId: ticket.chatId,
    ...(ticket.channel === 'whatsapp' ? { providerMessageId: providerId } : {}),
    requestedAt: new Date().toISOString(),
  });
  return true;
};

/**
 * Sends the lane's greeting (`greetingMessageLane`) for the card's current entry into lane `tagId`, if it is
 * still pending, then marks it done and arms the lane's timer. Idempotent per (ticket, lane entry): the
 * message is keyed by the entry's `enteredAt`. Answers whether a greeting went out (or was found sent).
 */
export const greetLaneEntry = async (
  scope: ReadScope,
  companyId: number,
  ticketId: number,
  tagId: number,
): Promise<boolean> => {
  const entry = await getLaneEntry(companyId, ticketId, tagId);
  if (!entry?.greetPending) return false;
  const [ticket, lane] = await Promise.all([getTicket(companyId, ticketId), getTag(companyId, tagId)]);
  const sent =
    ticket !== null && lane !== null && ticket.status !== 'closed'
      ? await sendAutomaticText(scope, ticket, lane.greetingMessageLane, `lane:${tagId}:${entry.enteredAt}`)
      : false;
  await finishLaneGreeting(companyId, ticketId, tagId, entry);
  return sent;
};

/** The same after a person moved a card: a failure is logged and left to the lane tick, never thrown. */
export const greetLaneEntrySoon = async (
  scope: ReadScope,
  companyId: number,
  ticketId: number,
  tagId: number,
): Promise<void> => {
  try {
    await greetLaneEntry(scope, companyId, ticketId, tagId);
  } catch (err) {
    logger.warn('lane greeting left to the tick', { companyId, ticketId, tagId, ...errorFields(err) });
  }
};
