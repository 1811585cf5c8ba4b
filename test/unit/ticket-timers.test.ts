import { describe, expect, it } from 'vitest';
import {
  isWithinWorkHours,
  nextTimerStep,
  planTicketTimers,
  rotate,
  rotationCandidates,
  type TimerConnection,
  type TimerPlanInput,
} from '../../functions/core/tickets/ticket-timer-plan';

/**
 * The ticket timers of routing as tables (decisions D95–D97): which deadline applies to a ticket in each
 * state and when, which step a tick takes, who a queue's rotation may hand a ticket to (working hours in
 * the company's zone, across DST and midnight) and the round robin itself.
 */
const NONE: TimerConnection = {
  timeUseBotQueues: 0,
  sendIdQueue: null,
  timeSendQueue: 0,
  expiresTicket: 0,
  whenExpiresTicket: '0',
  timeInactiveMessage: 0,
  inactiveMessage: '',
  expiresTicketNPS: 0,
};

const T0 = '2026-03-29T00:30:00.000Z';
const at = (minutes: number, from = T0) => new Date(Date.parse(from) + minutes * 60_000).toISOString();

const input = (over: {
  ticket?: Partial<TimerPlanInput['ticket']>;
  connection?: Partial<TimerConnection>;
  lastMessage?: TimerPlanInput['lastMessage'];
  changedAt?: string;
  inactiveFor?: string | null;
}): TimerPlanInput => ({
  ticket: {
    status: 'pending',
    userId: null,
    queueId: 1,
    isGroup: false,
    isBot: false,
    botStage: null,
    createdAt: T0,
    lastInboundAt: T0,
    ...over.ticket,
  },
  changedAt: over.changedAt ?? T0,
  lastMessage: over.lastMessage === undefined ? { fromMe: false, createdAt: T0 } : over.lastMessage,
  inactiveFor: over.inactiveFor ?? null,
  connection: { ...NONE, ...over.connection },
});

describe('planTicketTimers: what is due on a ticket, and when', () => {
  const cases: { name: string; in: TimerPlanInput; plan: { step: string; at: string }[] }[] = [
    { name: 'no timers on the connection: nothing', in: input({}), plan: [] },
    {
      name: 'in the bot: timeUseBotQueues after the last bot step (60 real minutes across the DST change)',
      in: input({ ticket: { isBot: true, botStage: 'chatbot' }, connection: { timeUseBotQueues: 60 } }),
      plan: [{ step: 'botTimeout', at: '2026-03-29T01:30:00.000Z' }],
    },
    {
      name: 'in the bot, the redirect waits until the bot lets go',
      in: input({
        ticket: { botStage: 'queues', queueId: null },
        connection: { timeUseBotQueues: 5, sendIdQueue: 2, timeSendQueue: 10 },
      }),
      plan: [{ step: 'botTimeout', at: at(5) }],
    },
    {
      name: 'pending out of the bot: redirect timeSendQueue after it started waiting',
      in: input({ changedAt: at(3), connection: { sendIdQueue: 2, timeSendQueue: 10 } }),
      plan: [{ step: 'queueRedirect', at: at(13) }],
    },
    {
      name: 'already in the redirect queue: redirected once only',
      in: input({ ticket: { queueId: 2 }, connection: { sendIdQueue: 2, timeSendQueue: 10 } }),
      plan: [],
    },
    {
      name: 'a person holds it: no bot, redirect or rotation timers',
      in: input({
        ticket: { status: 'open', userId: 7 },
        connection: { timeUseBotQueues: 5, sendIdQueue: 2, timeSendQueue: 10 },
      }),
      plan: [],
    },
    {
      name: 'open, our message last: the inactivity notice, then the auto-close, from that message',
      in: input({
        ticket: { status: 'open', userId: 7 },
        lastMessage: { fromMe: true, createdAt: at(10) },
        connection: { timeInactiveMessage: 5, inactiveMessage: 'Ainda está aí?', expiresTicket: 30 },
      }),
      plan: [
        { step: 'inactiveMessage', at: at(15) },
        { step: 'autoClose', at: at(40) },
      ],
    },
    {
      name: 'the notice goes once per customer silence',
      in: input({
        ticket: { status: 'open', userId: 7 },
        lastMessage: { fromMe: true, createdAt: at(10) },
        inactiveFor: T0,
        connection: { timeInactiveMessage: 5, inactiveMessage: 'Ainda está aí?' },
      }),
      plan: [],
    },
    {
      name: 'the customer wrote last: no notice; whenExpiresTicket 0 still closes after the silence',
      in: input({
        ticket: { status: 'open', userId: 7 },
        lastMessage: { fromMe: false, createdAt: at(10) },
        connection: { timeInactiveMessage: 5, inactiveMessage: 'Ainda está aí?', expiresTicket: 30 },
      }),
      plan: [{ step: 'autoClose', at: at(40) }],
    },
    {
      name: 'whenExpiresTicket 1 counts from our last message only: the customer waiting for us is never closed',
      in: input({
        ticket: { status: 'open', userId: 7 },
        lastMessage: { fromMe: false, createdAt: at(10) },
        connection: { expiresTicket: 30, whenExpiresTicket: '1' },
      }),
      plan: [],
    },
    {
      name: 'an accept after the last message restarts the clock',
      in: input({
        ticket: { status: 'open', userId: 7 },
        changedAt: at(20),
        lastMessage: { fromMe: false, createdAt: at(10) },
        connection: { expiresTicket: 30 },
      }),
      plan: [{ step: 'autoClose', at: at(50) }],
    },
    {
      name: 'nps: expiresTicketNPS after the rating was asked',
      in: input({ ticket: { status: 'nps', userId: 7 }, connection: { expiresTicketNPS: 5, expiresTicket: 1 } }),
      plan: [{ step: 'npsExpire', at: at(5) }],
    },
    {
      name: 'groups never',
      in: input({ ticket: { status: 'group', isGroup: true }, connection: { expiresTicket: 1, timeSendQueue: 1 } }),
      plan: [],
    },
  ];
  it.each(cases)('$name', ({ in: given, plan }) => {
    expect(planTicketTimers(given)).toEqual(plan);
  });
});

describe('nextTimerStep: the first due step, and when to look again', () => {
  const plan = [
    { step: 'inactiveMessage' as const, at: at(5) },
    { step: 'autoClose' as const, at: at(5) },
  ];
  it('nothing due: look again at the earliest deadline', () => {
    expect(nextTimerStep(plan, new Date(at(4)))).toEqual({ due: null, nextAt: at(5) });
  });
  it('the close wins over a notice due at the same time (a missed tick catching up)', () => {
    expect(nextTimerStep(plan, new Date(at(60)))).toEqual({ due: plan[1], nextAt: null });
  });
  it('a single due step, the rest later', () => {
    expect(nextTimerStep([plan[0]!, { step: 'autoClose', at: at(30) }], new Date(at(6)))).toEqual({
      due: plan[0],
      nextAt: at(30),
    });
  });
});

describe('isWithinWorkHours: startWork–endWork in the company zone', () => {
  const cases: {
    name: string;
    user: { startWork?: string; endWork?: string };
    now: string;
    zone: string;
    in: boolean;
  }[] = [
    {
      name: 'default 00:00–23:59 covers the last minute',
      user: {},
      now: '2026-11-28T02:59:30Z',
      zone: 'America/Sao_Paulo',
      in: true,
    },
    {
      name: 'São Paulo 07:59 is before 08:00',
      user: { startWork: '08:00', endWork: '18:00' },
      now: '2026-11-27T10:59:00Z',
      zone: 'America/Sao_Paulo',
      in: false,
    },
    {
      name: 'São Paulo 08:00 is inside',
      user: { startWork: '08:00', endWork: '18:00' },
      now: '2026-11-27T11:00:00Z',
      zone: 'America/Sao_Paulo',
      in: true,
    },
    {
      name: 'São Paulo 18:00: the end is exclusive',
      user: { startWork: '08:00', endWork: '18:00' },
      now: '2026-11-27T21:00:00Z',
      zone: 'America/Sao_Paulo',
      in: false,
    },
    {
      name: 'night shift 22:00–06:00: Lisbon 23:30 (WET, before the change)',
      user: { startWork: '22:00', endWork: '06:00' },
      now: '2026-03-28T23:30:00Z',
      zone: 'Europe/Lisbon',
      in: true,
    },
    {
      name: 'night shift: Lisbon 05:30 WEST (04:30 UTC) after the change',
      user: { startWork: '22:00', endWork: '06:00' },
      now: '2026-03-29T04:30:00Z',
      zone: 'Europe/Lisbon',
      in: true,
    },
    {
      name: 'night shift: 05:30 UTC is 06:30 in Lisbon after the change: out',
      user: { startWork: '22:00', endWork: '06:00' },
      now: '2026-03-29T05:30:00Z',
      zone: 'Europe/Lisbon',
      in: false,
    },
    {
      name: 'night shift: midday is out',
      user: { startWork: '22:00', endWork: '06:00' },
      now: '2026-03-28T12:00:00Z',
      zone: 'Europe/Lisbon',
      in: false,
    },
  ];
  it.each(cases)('$name', ({ user, now, zone, in: inside }) => {
    expect(isWithinWorkHours(user, new Date(now), zone)).toBe(inside);
  });
});

describe('rotation', () => {
  const now = new Date('2026-11-27T15:00:00Z'); // 12:00 in São Paulo
  it('candidates: members of the queue, online, inside their hours; by id', () => {
    const users = [
      { id: 5, queueIds: [1], online: true },
      { id: 2, queueIds: [1, 2], online: true, startWork: '08:00', endWork: '18:00' },
      { id: 3, queueIds: [1], online: false },
      { id: 4, queueIds: [2], online: true },
      { id: 6, queueIds: [1], online: true, startWork: '13:00', endWork: '22:00' },
    ];
    expect(rotationCandidates(users, 1, now, 'America/Sao_Paulo')).toEqual([2, 5]);
  });
  it('round robin from the pointer, wrapping', () => {
    expect(rotate([10, 11, 12], [2, 5, 9], 5)).toEqual({
      assignments: [
        { ticketId: 10, userId: 9 },
        { ticketId: 11, userId: 2 },
        { ticketId: 12, userId: 5 },
      ],
      lastUserId: 5,
    });
    expect(rotate([10], [2, 5, 9], null).assignments).toEqual([{ ticketId: 10, userId: 2 }]);
    // The pointer's user left: the next id after it.
    expect(rotate([10], [2, 5, 9], 6).assignments).toEqual([{ ticketId: 10, userId: 9 }]);
    expect(rotate([10], [2, 5, 9], 9).assignments).toEqual([{ ticketId: 10, userId: 2 }]);
  });
  it('nobody available: nothing handed out, the pointer stays', () => {
    expect(rotate([10, 11], [], 5)).toEqual({ assignments: [], lastUserId: 5 });
  });
});
