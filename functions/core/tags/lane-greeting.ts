import { getContact } from '../../data/contact-repository';
import { getLaneEntry, finishLaneGreeting } from '../../data/kanban-repository';
import type { ReadScope } from '../../data/read-scope';
import { getTag } from '../../data/tag-repository';
import { getTicket, type Ticket } from '../../data/ticket-repository';
import { errorFields, logger } from '../../shared/logger';
import { postBotText } from '../tickets/ticket-texts';

/**
 * An automatic text to a ticket's customer, exactly once per `seed` (decisions D102): the bot's keyed text
 * (`postBotText`, D96), so a retry — a crashed tick, a second tick, the request and the tick racing — finds
 * it stored and at most queues it again while unsent. Answers whether it was stored or queued now.
 */
export const sendAutomaticText = async (
  scope: ReadScope,
  ticket: Ticket,
  body: string,
  seed: string,
): Promise<boolean> => {
  const contact = await getContact(ticket.companyId, ticket.contactId);
  if (!contact) return false;
  return (await postBotText(scope, ticket, contact, body, seed)) !== null;
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
