import type { Connection } from '../../data/connection-repository';
import type { Ticket } from '../../data/ticket-repository';
import { localMinuteOfDay } from '../settings/company-settings';

/**
 * The ticket timers of routing (issue 13; core §3 Connection; decisions D95, D96, D97) as pure functions:
 * what is due on a ticket and when, and who may be offered a ticket by a queue's rotation. The tick
 * (functions/jobs/ticks/ticket-timers.ts) reads a ticket, plans it here, carries out the first due step and
 * re-arms the timer at the next deadline. Every rule is a table test in test/unit/ticket-timers.test.ts.
 */
export type TimerStep = 'npsExpire' | 'botTimeout' | 'queueRedirect' | 'inactiveMessage' | 'autoClose';

export interface TimerDeadline {
  step: TimerStep;
  /** ISO instant. */
  at: string;
}

export type TimerConnection = Pick<
  Connection,
  | 'timeUseBotQueues'
  | 'sendIdQueue'
  | 'timeSendQueue'
  | 'expiresTicket'
  | 'whenExpiresTicket'
  | 'timeInactiveMessage'
  | 'inactiveMessage'
  | 'expiresTicketNPS'
>;

export interface TimerPlanInput {
  ticket: Pick<
    Ticket,
    'status' | 'userId' | 'queueId' | 'isGroup' | 'isBot' | 'botStage' | 'createdAt' | 'lastInboundAt'
  >;
  /** The last transition (TRACKING `changedAt`), or the creation. */
  changedAt: string;
  /** The ticket's latest message, if any: who wrote it and when. */
  lastMessage: { fromMe: boolean; createdAt: string } | null;
  /** The customer silence an inactivity notice was already sent for (TRACKING `inactiveFor`). */
  inactiveFor: string | null;
  connection: TimerConnection;
}

const plus = (iso: string, minutes: number): string => new Date(Date.parse(iso) + minutes * 60_000).toISOString();
const later = (a: string, b: string): string => (Date.parse(a) >= Date.parse(b) ? a : b);
const minutes = (n: unknown): number => (Number.isFinite(Number(n)) && Number(n) > 0 ? Number(n) : 0);

/** Whose silence an inactivity notice answers: the customer's last message, or the ticket's start. */
export const silenceKey = (ticket: Pick<Ticket, 'lastInboundAt' | 'createdAt'>): string =>
  ticket.lastInboundAt ?? ticket.createdAt;

/** In the bot: a pending ticket nobody holds whose chatbot stage is set. */
export const inBot = (ticket: TimerPlanInput['ticket']): boolean =>
  ticket.status === 'pending' && ticket.userId === null && (ticket.isBot || Boolean(ticket.botStage));

/**
 * Every deadline that applies to the ticket as it is, earliest first. Groups never get timers.
 * - `npsExpire`: in `nps`, `expiresTicketNPS` after the rating was asked (the last transition).
 * - `botTimeout`: in the bot, `timeUseBotQueues` after the bot's last step without an answer.
 * - `queueRedirect`: pending, nobody holds it, out of the bot, not already in `sendIdQueue`: `timeSendQueue`
 *   after it started waiting (the last transition).
 * - `inactiveMessage`: open, our message is the last, `timeInactiveMessage` after it — once per customer
 *   silence (`inactiveFor`).
 * - `autoClose`: open, `expiresTicket` after the last message of either side (`whenExpiresTicket` 0) or
 *   after our last message only (1: a ticket whose last word is the customer's waits for us, never closes);
 *   a transition (accept, transfer) restarts the clock.
 */
export const planTicketTimers = (input: TimerPlanInput): TimerDeadline[] => {
  const { ticket, changedAt, lastMessage, connection: c } = input;
  if (ticket.isGroup || ticket.status === 'closed' || ticket.status === 'group') return [];
  const out: TimerDeadline[] = [];
  if (ticket.status === 'nps') {
    if (minutes(c.expiresTicketNPS)) out.push({ step: 'npsExpire', at: plus(changedAt, minutes(c.expiresTicketNPS)) });
    return out;
  }
  if (ticket.status === 'pending' && ticket.userId === null) {
    if (inBot(ticket)) {
      if (minutes(c.timeUseBotQueues)) {
        out.push({ step: 'botTimeout', at: plus(changedAt, minutes(c.timeUseBotQueues)) });
      }
    } else if (minutes(c.timeSendQueue) && c.sendIdQueue !== null && c.sendIdQueue !== ticket.queueId) {
      out.push({ step: 'queueRedirect', at: plus(changedAt, minutes(c.timeSendQueue)) });
    }
  }
  if (ticket.status === 'open') {
    const ours = lastMessage?.fromMe === true;
    const lastAt = lastMessage ? later(lastMessage.createdAt, changedAt) : changedAt;
    if (
      ours &&
      minutes(c.timeInactiveMessage) &&
      (c.inactiveMessage ?? '').trim() !== '' &&
      input.inactiveFor !== silenceKey(ticket)
    ) {
      out.push({ step: 'inactiveMessage', at: plus(lastAt, minutes(c.timeInactiveMessage)) });
    }
    if (minutes(c.expiresTicket) && (c.whenExpiresTicket !== '1' || ours)) {
      out.push({ step: 'autoClose', at: plus(lastAt, minutes(c.expiresTicket)) });
    }
  }
  return out.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
};

/** What the tick does now: the first due step (a close before a notice due at the same time), and when to look again. */
export const nextTimerStep = (
  plan: TimerDeadline[],
  now: Date,
): { due: TimerDeadline | null; nextAt: string | null } => {
  const due = plan.filter((d) => Date.parse(d.at) <= now.getTime());
  const pick = due.find((d) => d.step === 'autoClose') ?? due[0] ?? null;
  const waiting = plan.filter((d) => Date.parse(d.at) > now.getTime());
  return { due: pick, nextAt: waiting[0]?.at ?? null };
};

// ------------------------------------------------------------------------------------------- rotation

const hhmm = (value: string | undefined, fallback: number): number => {
  const m = /^(\d{1,2}):(\d{2})$/.exec(value ?? '');
  return m ? Number(m[1]) * 60 + Number(m[2]) : fallback;
};

/**
 * Whether `now` falls in a user's working time `startWork`–`endWork` (core §3 User, defaults 00:00–23:59)
 * in the company's zone. The end is exclusive except 23:59, which covers the day's last minute; a window
 * whose end is before its start crosses midnight (22:00–06:00).
 */
export const isWithinWorkHours = (
  user: { startWork?: string; endWork?: string },
  now: Date,
  timeZone: string,
): boolean => {
  const start = hhmm(user.startWork, 0);
  const endRaw = hhmm(user.endWork, 23 * 60 + 59);
  const end = endRaw === 23 * 60 + 59 ? 24 * 60 : endRaw;
  const minute = localMinuteOfDay(now, timeZone);
  if (start === end) return true;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
};

export interface RotationUser {
  id: number;
  queueIds: readonly number[];
  startWork?: string;
  endWork?: string;
  online: boolean;
}

/** The users a queue's rotation may offer tickets to now: its members, online, inside their hours; by id. */
export const rotationCandidates = (
  users: readonly RotationUser[],
  queueId: number,
  now: Date,
  timeZone: string,
): number[] =>
  users
    .filter((u) => u.queueIds.includes(queueId) && u.online && isWithinWorkHours(u, now, timeZone))
    .map((u) => u.id)
    .sort((a, b) => a - b);

/**
 * Round robin: the tickets, in order, each to the candidate after the previous one (after `lastUserId`,
 * wrapping). Answers the assignments and the new pointer; nobody available assigns nothing.
 */
export const rotate = (
  ticketIds: readonly number[],
  candidates: readonly number[],
  lastUserId: number | null,
): { assignments: { ticketId: number; userId: number }[]; lastUserId: number | null } => {
  if (candidates.length === 0) return { assignments: [], lastUserId };
  let index = lastUserId === null ? -1 : candidates.findIndex((id) => id > lastUserId) - 1;
  if (lastUserId !== null && index === -2) index = candidates.length - 1;
  const assignments = ticketIds.map((ticketId) => {
    index = (index + 1) % candidates.length;
    return { ticketId, userId: candidates[index]! };
  });
  return { assignments, lastUserId: assignments.length ? assignments.at(-1)!.userId : lastUserId };
};
