import { getContact, type Contact } from '../../data/contact-repository';
import { getMessage } from '../../data/message-repository';
import type { ReadScope } from '../../data/read-scope';
import { armRotation } from '../../data/rotation-repository';
import {
  closeTicket,
  getTicket,
  getTicketTimerState,
  rearmTicketTimer,
  TicketChanged,
  transitionTicket,
  type Ticket,
} from '../../data/ticket-repository';
import { expireRating } from './nps';
import { publishTicketChange } from './ticket-events';
import { postBotText } from './ticket-texts';
import { inBot, nextTimerStep, planTicketTimers, silenceKey, type TimerStep } from './ticket-timer-plan';

/**
 * One due ticket timer (decisions D95, D96): the tick read `{companyId, ticketId, at}` from the due index.
 * The ticket is read again (consistently) with its TRACKING: a timer that moved on since (a transition
 * re-armed it) is left to its new entry. Otherwise the ticket is planned as it is now, the first due step
 * is carried out, and the timer re-armed at the next deadline (or removed). Messages never touch TRACKING:
 * a deadline a newer message pushed is found here and re-armed (the lazy re-arm of data-model §2.29).
 *
 * Exactly once: every step that changes the ticket is a transition conditional on the version read, and
 * every text the bot sends has a provider id derived from the step and the ticket's state, so a second run
 * (a redelivery, two ticks) finds it sent.
 */
export type TimerOutcome = TimerStep | 'rearmed' | 'done' | 'moved';

const plus = (iso: string, minutes: number): string => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

export const handleTicketTimer = async (
  scope: ReadScope,
  due: { companyId: number; ticketId: number; at: string },
  now: Date,
): Promise<TimerOutcome> => {
  const { companyId, ticketId } = due;
  const [ticket, state] = await Promise.all([getTicket(companyId, ticketId), getTicketTimerState(companyId, ticketId)]);
  if (!ticket || !state || ticket.status === 'closed' || state.nextTimerAt !== due.at) return 'moved';
  const connection = await scope.connection(companyId, ticket.whatsappId);
  if (!connection) return (await rearmTicketTimer(companyId, ticketId, due.at, null)) ? 'done' : 'moved';
  const changedAt = state.changedAt ?? ticket.createdAt;
  const last = ticket.lastMsgSk ? await getMessage(companyId, ticketId, ticket.lastMsgSk.slice('MSG#'.length)) : null;
  const plan = planTicketTimers({
    ticket,
    changedAt,
    lastMessage: last ? { fromMe: last.fromMe, createdAt: last.createdAt } : null,
    inactiveFor: state.inactiveFor,
    connection,
  });
  await armQueueRotation(scope, ticket, changedAt, now);
  const { due: step, nextAt } = nextTimerStep(plan, now);
  if (!step) return (await rearmTicketTimer(companyId, ticketId, due.at, nextAt)) ? 'rearmed' : 'moved';

  const contact = await getContact(companyId, ticket.contactId);
  if (!contact) return 'moved';
  try {
    switch (step.step) {
      case 'npsExpire':
        await expireRating(scope, ticket, contact);
        break;
      case 'botTimeout':
        await leaveBot(scope, ticket, contact, now);
        break;
      case 'queueRedirect':
        await redirect(scope, ticket, contact, connection.sendIdQueue!, now);
        break;
      case 'inactiveMessage': {
        const silence = silenceKey(ticket);
        await postBotText(scope, ticket, contact, connection.inactiveMessage, `inactive:${silence}`);
        // Marked with the re-arm: "now", so the next tick plans from the notice just sent.
        await rearmTicketTimer(companyId, ticketId, due.at, now.toISOString(), silence);
        break;
      }
      case 'autoClose':
        await autoClose(scope, ticket, contact, connection.expiresInactiveMessage, now);
        break;
    }
  } catch (err) {
    if (err instanceof TicketChanged) return 'moved';
    throw err;
  }
  return step.step;
};

/**
 * A pending ticket waiting in a queue with rotation on makes sure the queue's rotation runs within
 * `tempoRoteador` of the ticket's arrival (a due time in the past runs at the next tick).
 */
const armQueueRotation = async (scope: ReadScope, ticket: Ticket, changedAt: string, now: Date): Promise<void> => {
  if (ticket.status !== 'pending' || ticket.userId !== null || ticket.queueId === null || inBot(ticket)) return;
  if (ticket.isGroup) return;
  const queue = (await scope.queues(ticket.companyId)).get(ticket.queueId);
  if (!queue?.ativarRoteador || !(queue.tempoRoteador > 0)) return;
  const at = plus(changedAt, queue.tempoRoteador);
  await armRotation(ticket.companyId, queue.id, at < now.toISOString() ? now.toISOString() : at);
};

/** Bot expiry: the ticket leaves the bot and waits in its queue (a `queue` log entry). */
const leaveBot = async (scope: ReadScope, ticket: Ticket, contact: Contact, now: Date): Promise<void> => {
  const after = await transitionTicket(
    ticket,
    {
      status: 'pending',
      userId: null,
      queueId: ticket.queueId,
      fields: { botStage: null, botPath: [], isBot: false, amountUsedBotQueues: 0 },
      logs: [{ type: 'queue', userId: null, queueId: ticket.queueId }],
    },
    now,
  );
  await publishTicketChange(scope, ticket, after, contact);
};

/** Nobody accepted within timeSendQueue: the ticket moves to the redirect queue (a `redirect` log entry). */
const redirect = async (
  scope: ReadScope,
  ticket: Ticket,
  contact: Contact,
  queueId: number,
  now: Date,
): Promise<void> => {
  const after = await transitionTicket(
    ticket,
    { status: 'pending', userId: null, queueId, logs: [{ type: 'redirect', userId: null, queueId }] },
    now,
  );
  await publishTicketChange(scope, ticket, after, contact);
};

/** expiresTicket passed: the closing text (keyed on the ticket's version), then the close (`closed` log). */
const autoClose = async (
  scope: ReadScope,
  ticket: Ticket,
  contact: Contact,
  text: string,
  now: Date,
): Promise<void> => {
  if ((text ?? '').trim()) await postBotText(scope, ticket, contact, text, `expire:${ticket.version}`);
  const closed = await closeTicket(ticket, { now });
  await publishTicketChange(scope, ticket, closed, contact);
};
