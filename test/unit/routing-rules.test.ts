import { describe, expect, it } from 'vitest';
import { closedPeriodStart, isWithinServiceHours, NEVER_OPEN } from '../../functions/core/inbound/schedule';
import { route, type RoutingInput } from '../../functions/core/inbound/routing';
import { defaultSchedules } from '../../functions/data/connection-repository';
import {
  decideConsent,
  DEFAULT_CONSENT_TEXTS,
  type ConsentDecision,
  type ConsentInput,
} from '../../functions/core/inbound/consent';
import {
  chooseAttendant,
  landsInQueue,
  queuePosition,
  queuePositionMessage,
  withinWorkHours,
  type AttendantInput,
} from '../../functions/core/inbound/landing';

/**
 * The rules of routing that decide once-per-period replies (decisions D92): which closed period an instant
 * falls in, read in the company's time zone, so the out-of-hours message goes once per ticket per closed
 * period.
 */
const everyDay = (startTimeA: string, endTimeA: string) =>
  ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((weekdayEn) => ({
    weekdayEn,
    startTimeA,
    endTimeA,
    startTimeB: '',
    endTimeB: '',
  }));
const weekdays = (startTimeA: string, endTimeA: string) =>
  everyDay(startTimeA, endTimeA).filter((d) => d.weekdayEn !== 'saturday' && d.weekdayEn !== 'sunday');

describe('closed periods in the company time zone', () => {
  const cases: [string, string, ReturnType<typeof everyDay>, string, string | null][] = [
    // America/Manaus: UTC-4 all year. The default hours, 08:00–12:00 and 13:00–18:00 every day.
    ['Manaus, inside the morning shift', 'America/Manaus', defaultSchedules(), '2026-03-02T10:00:00-04:00', null],
    ['Manaus, the evening', 'America/Manaus', defaultSchedules(), '2026-03-02T19:00:00-04:00', '2026-03-02T18:00'],
    [
      'Manaus, the next early morning: the same night',
      'America/Manaus',
      defaultSchedules(),
      '2026-03-03T07:59:00-04:00',
      '2026-03-02T18:00',
    ],
    [
      'Manaus, the lunch break is a closed period of its own',
      'America/Manaus',
      defaultSchedules(),
      '2026-03-03T12:30:00-04:00',
      '2026-03-03T12:00',
    ],
    [
      'Manaus, the next night is another period',
      'America/Manaus',
      defaultSchedules(),
      '2026-03-03T21:00:00-04:00',
      '2026-03-03T18:00',
    ],
    [
      // 12:30 UTC is 08:30 in Manaus (open) but 09:30 in São Paulo: the zone decides, not the server.
      'Manaus, read in its own zone',
      'America/Manaus',
      defaultSchedules(),
      '2026-03-03T11:30:00Z',
      '2026-03-02T18:00',
    ],
    // Europe/Lisbon, weekdays 09:00–18:00: the clocks go forward on Sunday 29 March 2026 (01:00 UTC).
    [
      'Lisbon, Friday evening (WET)',
      'Europe/Lisbon',
      weekdays('09:00', '18:00'),
      '2026-03-27T18:30:00Z',
      '2026-03-27T18:00',
    ],
    ['Lisbon, Saturday', 'Europe/Lisbon', weekdays('09:00', '18:00'), '2026-03-28T10:00:00Z', '2026-03-27T18:00'],
    [
      'Lisbon, Sunday after the change (WEST)',
      'Europe/Lisbon',
      weekdays('09:00', '18:00'),
      '2026-03-29T12:00:00Z',
      '2026-03-27T18:00',
    ],
    [
      'Lisbon, Monday 08:00 WEST: still the weekend period',
      'Europe/Lisbon',
      weekdays('09:00', '18:00'),
      '2026-03-30T07:00:00Z',
      '2026-03-27T18:00',
    ],
    [
      // 08:30 UTC would be closed at the winter offset; in summer time it is 09:30, open.
      'Lisbon, Monday 09:30 WEST is open',
      'Europe/Lisbon',
      weekdays('09:00', '18:00'),
      '2026-03-30T08:30:00Z',
      null,
    ],
    [
      'Lisbon, Monday evening WEST',
      'Europe/Lisbon',
      weekdays('09:00', '18:00'),
      '2026-03-30T17:30:00Z',
      '2026-03-30T18:00',
    ],
    // A night shift, 22:00–06:00, crossing midnight (São Paulo, UTC-3).
    ['night shift, 03:00 is open', 'America/Sao_Paulo', everyDay('22:00', '06:00'), '2026-03-03T03:00:00-03:00', null],
    ['night shift, 23:00 is open', 'America/Sao_Paulo', everyDay('22:00', '06:00'), '2026-03-03T23:00:00-03:00', null],
    [
      'night shift, the day is closed since 06:00',
      'America/Sao_Paulo',
      everyDay('22:00', '06:00'),
      '2026-03-03T07:00:00-03:00',
      '2026-03-03T06:00',
    ],
    [
      'night shift, 21:59 is the same closed period',
      'America/Sao_Paulo',
      everyDay('22:00', '06:00'),
      '2026-03-03T21:59:00-03:00',
      '2026-03-03T06:00',
    ],
    [
      'a shift to midnight ("00:00") ends at the next day',
      'America/Sao_Paulo',
      everyDay('18:00', '00:00'),
      '2026-03-03T01:00:00-03:00',
      '2026-03-03T00:00',
    ],
    [
      '"23:59" covers the last minute; closed from midnight',
      'America/Sao_Paulo',
      everyDay('10:00', '23:59'),
      '2026-03-03T02:00:00-03:00',
      '2026-03-03T00:00',
    ],
    ['hours that never open: one endless period', 'America/Sao_Paulo', [], '2026-03-03T10:00:00-03:00', NEVER_OPEN],
  ];

  it.each(cases)('%s', (_name, zone, schedules, at, expected) => {
    expect(closedPeriodStart(schedules, new Date(at), zone)).toBe(expected);
    expect(isWithinServiceHours(schedules, new Date(at), zone)).toBe(expected === null);
  });
});

describe('routing: the out-of-hours and vacation replies are keyed by their period', () => {
  const input = (now: string, over: Partial<RoutingInput> = {}): RoutingInput => ({
    message: { fromMe: false, isGroup: false },
    ticket: { status: 'pending', userId: null, isNew: false },
    connection: {
      greetingMessage: 'Bem-vindo!',
      outOfHoursMessage: 'Fechados agora.',
      schedules: defaultSchedules(),
      queueIds: [],
    },
    queue: null,
    settings: { scheduleType: 'connection', sendGreetingMessageOneQueues: 'enabled' },
    now: new Date(now),
    timeZone: 'America/Manaus',
    ...over,
  });

  it('two messages of one night share the key; the next night has another', () => {
    const evening = route(input('2026-03-02T20:00:00-04:00'));
    const dawn = route(input('2026-03-03T06:00:00-04:00'));
    const nextNight = route(input('2026-03-03T20:00:00-04:00'));
    expect(evening).toEqual([{ kind: 'outOfHours', body: 'Fechados agora.', key: 'outOfHours:2026-03-02T18:00' }]);
    expect(dawn[0]!.key).toBe(evening[0]!.key);
    expect(nextNight[0]!.key).toBe('outOfHours:2026-03-03T18:00');
  });

  it('the vacation message is keyed by the vacation, whatever the day', () => {
    const vacation = {
      collectiveVacationStart: '2026-12-20',
      collectiveVacationEnd: '2027-01-05',
      collectiveVacationMessage: 'Férias coletivas até 05/01.',
    };
    const over = { connection: { ...input('2026-12-21T10:00:00-04:00').connection, ...vacation } };
    const first = route(input('2026-12-21T10:00:00-04:00', over));
    const later = route(input('2027-01-02T22:00:00-04:00', over));
    expect(first).toEqual([
      { kind: 'vacation', body: 'Férias coletivas até 05/01.', key: 'vacation:2026-12-20:2027-01-05' },
    ]);
    expect(later).toEqual(first);
  });
});

describe('LGPD consent', () => {
  const input = (over: Partial<ConsentInput> = {}): ConsentInput => ({
    settings: { enableLGPD: 'enabled', lgpdMessage: 'Tratamos seus dados conforme a LGPD.', lgpdLink: '' },
    isNew: true,
    isGroup: false,
    ticket: { status: 'pending', userId: null },
    contact: { lgpdAcceptedAt: null },
    body: 'Oi',
    texts: DEFAULT_CONSENT_TEXTS,
    ...over,
  });
  const question = 'Tratamos seus dados conforme a LGPD.\n\n*1* - Aceito\n*2* - Não aceito';
  const onLgpd = { isNew: false, ticket: { status: 'lgpd', userId: null } };

  const cases: [string, Partial<ConsentInput>, ConsentDecision][] = [
    ['a new ticket of a contact who never accepted is asked', {}, { action: 'ask', body: question }],
    [
      'the link goes under the message',
      { settings: { enableLGPD: 'enabled', lgpdMessage: 'Dados:', lgpdLink: 'https://ex.com/lgpd' } },
      { action: 'ask', body: 'Dados:\n\nhttps://ex.com/lgpd\n\n*1* - Aceito\n*2* - Não aceito' },
    ],
    [
      'without a message of its own, the default text',
      { settings: { enableLGPD: 'enabled', lgpdMessage: ' ', lgpdLink: '' } },
      { action: 'ask', body: `${DEFAULT_CONSENT_TEXTS.defaultMessage}\n\n*1* - Aceito\n*2* - Não aceito` },
    ],
    [
      'the setting off: nothing',
      { settings: { enableLGPD: 'disabled', lgpdMessage: '', lgpdLink: '' } },
      { action: 'none' },
    ],
    [
      'a contact who accepted before: nothing',
      { contact: { lgpdAcceptedAt: '2026-01-01T00:00:00Z' } },
      { action: 'none' },
    ],
    ['not a later message of a pending ticket', { isNew: false }, { action: 'none' }],
    ['never a group', { isGroup: true }, { action: 'none' }],
    ['not a ticket someone holds', { ticket: { status: 'open', userId: 4 } }, { action: 'none' }],
    ['on an lgpd ticket, 1 accepts', { ...onLgpd, body: ' 1 ' }, { action: 'accept' }],
    ['the name accepts too, any case and accents', { ...onLgpd, body: 'ACEITO' }, { action: 'accept' }],
    ['2 refuses', { ...onLgpd, body: '2' }, { action: 'refuse', body: DEFAULT_CONSENT_TEXTS.refused }],
    [
      '"nao aceito" refuses',
      { ...onLgpd, body: 'nao aceito' },
      { action: 'refuse', body: DEFAULT_CONSENT_TEXTS.refused },
    ],
    [
      'anything else asks again',
      { ...onLgpd, body: 'quero falar com alguém' },
      { action: 'reask', body: `${DEFAULT_CONSENT_TEXTS.invalid}\n\n${question}` },
    ],
    [
      '3 is no option: asks again',
      { ...onLgpd, body: '3' },
      { action: 'reask', body: `${DEFAULT_CONSENT_TEXTS.invalid}\n\n${question}` },
    ],
  ];
  it.each(cases)('%s', (_name, over, expected) => {
    expect(decideConsent(input(over))).toEqual(expected);
  });
});

describe('landing in a queue', () => {
  const idle = { status: 'pending', userId: null, queueId: 5, botStage: null };
  it.each([
    ['a new ticket in its queue', idle, idle, true, true],
    ['a later message of a waiting ticket', idle, idle, false, false],
    ['moved to another queue', { ...idle, queueId: 4 }, idle, false, true],
    ['the bot just ended', { ...idle, botStage: 'chatbot' }, idle, false, true],
    ['back to pending after consent', { ...idle, status: 'lgpd' }, idle, false, true],
    ['still in a menu', idle, { ...idle, botStage: 'chatbot' }, true, false],
    ['given to someone', idle, { ...idle, status: 'open', userId: 3 }, true, false],
    ['without a queue', idle, { ...idle, queueId: null }, true, false],
    ['closed', idle, { ...idle, status: 'closed' }, true, false],
  ] as const)('%s', (_name, before, after, isNew, expected) => {
    expect(landsInQueue(before, after, isNew)).toBe(expected);
  });

  const input = (over: Partial<AttendantInput> = {}): AttendantInput => ({
    queueId: 5,
    settings: { userRandom: 'enabled', DirectTicketsToWallets: false },
    walletUserId: null,
    online: [
      { id: 1, queueIds: [5], startWork: '08:00', endWork: '18:00' },
      { id: 2, queueIds: [5, 6], startWork: '00:00', endWork: '23:59' },
      { id: 3, queueIds: [6] },
      { id: 4, queueIds: [5], startWork: '22:00', endWork: '06:00' },
    ],
    // 10:00 in Manaus (UTC-4).
    now: new Date('2026-03-02T14:00:00Z'),
    timeZone: 'America/Manaus',
    random: () => 0,
    ...over,
  });

  it('the wallet attendant comes first, online or not', () => {
    expect(
      chooseAttendant(input({ settings: { userRandom: 'enabled', DirectTicketsToWallets: true }, walletUserId: 9 })),
    ).toEqual({
      userId: 9,
      by: 'wallet',
    });
  });
  it('no wallet attendant: random among the queue users online and at work', () => {
    const picks = [0, 0.5, 0.99].map((r) => chooseAttendant(input({ random: () => r }))?.userId);
    expect(picks).toEqual([1, 2, 2]);
  });
  it('working hours are read in the company zone, a night shift crossing midnight', () => {
    // 23:30 in Manaus: user 1 (08–18) is off, user 4 (22–06) and user 2 (all day) are at work.
    const night = input({ now: new Date('2026-03-03T03:30:00Z'), random: () => 0.99 });
    expect(chooseAttendant(night)).toEqual({ userId: 4, by: 'random' });
    expect(chooseAttendant({ ...night, random: () => 0 })).toEqual({ userId: 2, by: 'random' });
  });
  it('userRandom disabled, or nobody eligible: nobody', () => {
    expect(chooseAttendant(input({ settings: { userRandom: 'disabled', DirectTicketsToWallets: false } }))).toBeNull();
    expect(chooseAttendant(input({ queueId: 7 }))).toBeNull();
  });
  it('work hours: defaults all day, 23:59 covers the last minute, an empty span is closed', () => {
    expect(withinWorkHours({ id: 1 }, 0)).toBe(true);
    expect(withinWorkHours({ id: 1, startWork: '09:00', endWork: '23:59' }, 23 * 60 + 59)).toBe(true);
    expect(withinWorkHours({ id: 1, startWork: '09:00', endWork: '17:00' }, 17 * 60)).toBe(false);
    expect(withinWorkHours({ id: 1, startWork: '09:00', endWork: '09:00' }, 9 * 60)).toBe(false);
  });

  it('the position counts the ticket once', () => {
    expect(queuePosition(3, true)).toBe(3);
    expect(queuePosition(3, false)).toBe(4);
    expect(queuePosition(0, true)).toBe(1);
  });
  it('the position message: the placeholder, or the number after the text', () => {
    expect(queuePositionMessage('Você é o {{position}}º da fila.', 3)).toBe('Você é o 3º da fila.');
    expect(queuePositionMessage('Sua posição na fila:', 2)).toBe('Sua posição na fila: *2*');
    expect(queuePositionMessage('  ', 2)).toBeNull();
  });
});
