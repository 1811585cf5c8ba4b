import type { Connection } from '../../data/connection-repository';
import type { Contact } from '../../data/contact-repository';
import { closeTicket, getTicket, transitionTicket, type Ticket } from '../../data/ticket-repository';
import type { ReadScope } from '../../data/read-scope';
import { publishTicketChange } from './ticket-events';
import { postAgentText } from './ticket-texts';

/**
 * Ratings (issue 5 item 2; core §3 "userRating (rate 1-5)", §9 "Rating scale 0 to 10"; decisions D46).
 * With the company's userRating on and a rating message on the connection, resolving a ticket with the
 * farewell moves it to `nps` and sends the rating message instead of closing it. The contact's next
 * message is the answer: a whole number 0–10 is stored (0–10 on TRACKING, 1–5 as the ticket's
 * userRating), the ticket closes and the farewell goes out. Anything else asks again, at most
 * maxUseBotQueuesNPS times, then the ticket closes unrated. With expiresTicketNPS (minutes) set, a timer
 * closes an unanswered ticket (the ticket-timers tick).
 */
export const ratingApplies = (
  settings: { userRating: boolean },
  connection: Pick<Connection, 'ratingMessage'> | null,
  ticket: Pick<Ticket, 'isGroup' | 'status'>,
): boolean =>
  settings.userRating && Boolean(connection?.ratingMessage?.trim()) && !ticket.isGroup && ticket.status !== 'nps';

/** The score in a contact's answer: the whole message is an integer 0–10 (spaces and a final dot allowed). */
export const parseScore = (body: string): number | null => {
  const m = /^\s*(\d{1,2})\s*\.?\s*$/.exec(body);
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 0 && n <= 10 ? n : null;
};

/** 0–10 as the 1–5 the screens show (0–2 → 1, 3–4 → 2, 5–6 → 3, 7–8 → 4, 9–10 → 5). */
export const ratingOf = (score: number): number => Math.min(5, Math.max(1, Math.ceil(score / 2)));

/** Resolve with rating: the ticket waits in `nps` (with its expiry timer) and the rating message goes out. */
export const startRating = async (
  scope: ReadScope,
  ticket: Ticket,
  contact: Contact,
  connection: Pick<Connection, 'ratingMessage' | 'expiresTicketNPS'>,
  actorId: number,
  now = new Date(),
): Promise<Ticket> => {
  const minutes = Number(connection.expiresTicketNPS ?? 0);
  const waiting = await transitionTicket(
    ticket,
    {
      status: 'nps',
      userId: ticket.userId,
      queueId: ticket.queueId,
      fields: { amountUsedBotQueues: 0 },
      ...(minutes > 0 ? { timerAt: new Date(now.getTime() + minutes * 60_000).toISOString() } : {}),
      logs: [],
    },
    now,
  );
  await publishTicketChange(scope, ticket, waiting, contact);
  await postAgentText(scope, waiting, contact, connection.ratingMessage, actorId);
  return (await getTicket(ticket.companyId, ticket.id)) ?? waiting;
};

/** Closes a ticket that waited in `nps`, with the contact's score when there is one, and says goodbye. */
const finish = async (
  scope: ReadScope,
  ticket: Ticket,
  contact: Contact,
  connection: Pick<Connection, 'complationMessage'> | null,
  score: number | null,
): Promise<Ticket> => {
  const closed = await transitionTicket(ticket, {
    status: 'closed',
    userId: ticket.userId,
    queueId: ticket.queueId,
    ...(score === null ? {} : { rating: score, fields: { userRating: ratingOf(score) } }),
    logs: [{ type: 'closed', userId: null, queueId: ticket.queueId }],
  });
  await publishTicketChange(scope, ticket, closed, contact);
  const farewell = connection?.complationMessage?.trim();
  if (score !== null && farewell) {
    // The goodbye belongs to the conversation that just ended: stored on it, sent to the contact.
    await postAgentText(scope, { ...closed, status: 'nps' }, contact, farewell, ticket.userId);
  }
  return closed;
};

/**
 * The contact answered while their ticket waits in `nps` (the inbound job calls this with the stored
 * message's text). Answers the ticket as it is afterwards.
 */
export const handleRatingReply = async (
  scope: ReadScope,
  ticket: Ticket,
  contact: Contact,
  connection: Pick<Connection, 'ratingMessage' | 'complationMessage' | 'maxUseBotQueuesNPS'> | null,
  body: string,
): Promise<Ticket> => {
  const score = parseScore(body);
  if (score !== null) return finish(scope, ticket, contact, connection, score);
  const tries = (ticket.amountUsedBotQueues ?? 0) + 1;
  const max = Math.max(1, Number(connection?.maxUseBotQueuesNPS ?? 3));
  if (tries >= max) return finish(scope, ticket, contact, connection, null);
  const asked = await transitionTicket(ticket, {
    status: 'nps',
    userId: ticket.userId,
    queueId: ticket.queueId,
    fields: { amountUsedBotQueues: tries },
    logs: [],
  });
  if (connection?.ratingMessage?.trim()) await postAgentText(scope, asked, contact, connection.ratingMessage, null);
  return asked;
};

/** The NPS wait expired (ticket-timers tick): the ticket closes unrated, silently. */
export const expireRating = async (scope: ReadScope, ticket: Ticket, contact: Contact): Promise<Ticket> => {
  const closed = await closeTicket(ticket);
  await publishTicketChange(scope, ticket, closed, contact);
  return closed;
};
