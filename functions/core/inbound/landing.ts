import { localTime } from './schedule';

/**
 * What happens when a ticket lands in a queue to wait for a person (core spec §3 Company settings
 * `DirectTicketsToWallets`, `userRandom`, `sendQueuePosition` + `sendQueuePositionMessage`; decisions D93):
 * pure functions, so each rule is a table test and the pipeline only carries them out.
 *
 * A ticket lands when, after the bot's step, it is pending, nobody holds it, it has a queue and the bot is
 * not waiting for an answer — and it got there in this step: it is new, it changed queue, or the bot just
 * ended. Then, in order:
 * 1. `DirectTicketsToWallets`: the contact's wallet attendant (the user who attended the contact's last
 *    ticket on this connection) gets it, online or not — it is their customer;
 * 2. `userRandom`: one of the queue's users who is online and inside their own working hours (startWork–
 *    endWork, company zone) gets it, at random;
 * 3. otherwise, with `sendQueuePosition`, the customer is told their place among the queue's pending
 *    tickets.
 */
export interface LandingState {
  status: string;
  userId: number | null;
  queueId: number | null;
  botStage: string | null;
}

export const landsInQueue = (before: LandingState, after: LandingState, isNew: boolean): boolean =>
  after.status === 'pending' &&
  after.userId === null &&
  after.queueId !== null &&
  after.botStage === null &&
  (isNew || before.queueId !== after.queueId || before.botStage !== null || before.status !== 'pending');

export interface Candidate {
  id: number;
  queueIds?: readonly number[];
  startWork?: string;
  endWork?: string;
}

export interface AttendantInput {
  queueId: number;
  settings: { userRandom: string; DirectTicketsToWallets: boolean };
  /** The contact's wallet attendant, when they still exist in the company. */
  walletUserId: number | null;
  /** The company's users who are online now. */
  online: readonly Candidate[];
  now: Date;
  timeZone: string;
  /** A number in [0, 1), as Math.random. */
  random: () => number;
}

const minuteOf = (hhmm: string | undefined, fallback: number): number => {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm ?? '');
  return m ? Number(m[1]) * 60 + Number(m[2]) : fallback;
};

/**
 * Whether a minute of the day is inside a user's working hours. The spec's defaults are 00:00–23:59 (all
 * day); "23:59" covers the last minute; an end before the start runs past midnight (22:00–06:00).
 */
export const withinWorkHours = (user: Candidate, minute: number): boolean => {
  const start = minuteOf(user.startWork, 0);
  const end = user.endWork === '23:59' || user.endWork === undefined ? 24 * 60 : minuteOf(user.endWork, 24 * 60);
  if (start === end) return false;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
};

export const chooseAttendant = (input: AttendantInput): { userId: number; by: 'wallet' | 'random' } | null => {
  if (input.settings.DirectTicketsToWallets && input.walletUserId !== null) {
    return { userId: input.walletUserId, by: 'wallet' };
  }
  if (input.settings.userRandom !== 'enabled') return null;
  const { minute } = localTime(input.now, input.timeZone);
  const eligible = input.online
    .filter((u) => (u.queueIds ?? []).includes(input.queueId) && withinWorkHours(u, minute))
    .sort((a, b) => a.id - b.id);
  if (eligible.length === 0) return null;
  const pick = eligible[Math.min(eligible.length - 1, Math.floor(input.random() * eligible.length))]!;
  return { userId: pick.id, by: 'random' };
};

/**
 * The customer's place in the queue: the queue's pending tickets (its live count, D43), counting this
 * ticket once — it is already counted when it was pending in this queue before the step.
 */
export const queuePosition = (pendingInQueue: number, alreadyCounted: boolean): number =>
  Math.max(1, alreadyCounted ? pendingInQueue : pendingInQueue + 1);

/**
 * The position message: the company's `sendQueuePositionMessage` with `{{position}}` replaced by the
 * number; a text without the placeholder gets the number after it (`... *3*`). Null without a text.
 */
export const queuePositionMessage = (template: string, position: number): string | null => {
  const text = template.trim();
  if (!text) return null;
  return text.includes('{{position}}') ? text.replaceAll('{{position}}', String(position)) : `${text} *${position}*`;
};
