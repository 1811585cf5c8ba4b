import { describe, expect, it } from 'vitest';
import { closedPeriodStart, isWithinServiceHours, NEVER_OPEN } from '../../functions/core/inbound/schedule';
import { route, type RoutingInput } from '../../functions/core/inbound/routing';
import { defaultSchedules } from '../../functions/data/connection-repository';

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
