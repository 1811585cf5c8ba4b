import { describe, expect, it } from 'vitest';
import { CAMPAIGN_SETTINGS_DEFAULTS } from '../../functions/core/outbound/campaign-settings';
import { planSlot, type GovernorRules } from '../../functions/core/outbound/send-governor';
import { wallOf } from '../../functions/core/outbound/zoned-time';
import { EMPTY_GOVERNOR, type GovernorState } from '../../functions/data/send-governor-repository';

/**
 * The send governor's arithmetic (decisions D117): pacing in seconds with the longer pause, allowed hours
 * and days on the company's clock, the daily cap. The storage side (two reservers never sharing a slot)
 * is in test/integration/schedules.test.ts.
 */
const rules = (settings: Partial<GovernorRules['settings']> = {}, officeHours = true): GovernorRules => ({
  settings: { ...CAMPAIGN_SETTINGS_DEFAULTS, ...settings },
  timeZone: 'America/Sao_Paulo',
  officeHours,
});

/** Reserves `n` slots one after another, all asked at `now`; answers their times (ms). */
const reserveMany = (r: GovernorRules, now: number, n: number, state: GovernorState = EMPTY_GOVERNOR) => {
  const times: number[] = [];
  let s = state;
  for (let i = 0; i < n; i += 1) {
    const plan = planSlot(s, r, now);
    times.push(plan.at);
    s = { ...plan.next, version: s.version + 1 };
  }
  return { times, state: s };
};

// Wednesday 25 November 2026, 10:00 in São Paulo (UTC−3).
const wednesday10h = Date.parse('2026-11-25T13:00:00.000Z');

describe('pacing', () => {
  it('messageInterval seconds between sends and greaterInterval after every longerIntervalAfter-th', () => {
    const { times } = reserveMany(
      rules({ messageInterval: 20, longerIntervalAfter: 3, greaterInterval: 60 }),
      wednesday10h,
      7,
    );
    const gaps = times.slice(1).map((t, i) => (t - times[i]!) / 1000);
    expect(gaps).toEqual([20, 20, 60, 20, 20, 60]);
  });

  it('interval 0 lets every send go at once; intervals are seconds, never milliseconds', () => {
    const { times } = reserveMany(rules({ messageInterval: 0, longerIntervalAfter: 0 }), wednesday10h, 5);
    expect(new Set(times)).toEqual(new Set([wednesday10h]));
    const one = reserveMany(rules({ messageInterval: 1, longerIntervalAfter: 0 }), wednesday10h, 2).times;
    expect(one[1]! - one[0]!).toBe(1000);
  });

  it('an idle spell as long as the longer pause restarts the streak', () => {
    const r = rules({ messageInterval: 10, longerIntervalAfter: 3, greaterInterval: 30 });
    const first = reserveMany(r, wednesday10h, 2);
    const later = planSlot(first.state, r, wednesday10h + 10 * 60_000);
    expect(later.at).toBe(wednesday10h + 10 * 60_000);
    expect(later.next.streak).toBe(1);
  });
});

describe('allowed hours and days (campaign kinds)', () => {
  it('before startHour waits for it; after endHour goes to the next allowed morning', () => {
    const early = Date.parse('2026-11-25T10:00:00.000Z'); // 07:00 local
    expect(new Date(planSlot(EMPTY_GOVERNOR, rules(), early).at).toISOString()).toBe('2026-11-25T12:00:00.000Z');
    const late = Date.parse('2026-11-25T22:30:00.000Z'); // 19:30 local
    const plan = planSlot(EMPTY_GOVERNOR, rules(), late);
    expect(new Date(plan.at).toISOString()).toBe('2026-11-26T12:00:00.000Z');
    expect(plan.reason).toBe('outside-hours');
  });

  it('Saturday and Sunday wait for Monday unless sabado / domingo allow them', () => {
    const saturday = Date.parse('2026-11-28T14:00:00.000Z'); // Saturday 11:00 local
    expect(wallOf(planSlot(EMPTY_GOVERNOR, rules(), saturday).at, 'America/Sao_Paulo')).toMatchObject({
      date: '2026-11-30',
      hour: 9,
      minute: 0,
    });
    expect(planSlot(EMPTY_GOVERNOR, rules({ sabado: true }), saturday).at).toBe(saturday);
    const sunday = Date.parse('2026-11-29T14:00:00.000Z');
    expect(wallOf(planSlot(EMPTY_GOVERNOR, rules({ sabado: true }), sunday).at, 'America/Sao_Paulo').date).toBe(
      '2026-11-30',
    );
    expect(planSlot(EMPTY_GOVERNOR, rules({ domingo: true }), sunday).at).toBe(sunday);
  });

  it('schedules and API sends keep their own time: no office hours for them', () => {
    const late = Date.parse('2026-11-28T23:30:00.000Z'); // Saturday 20:30 local
    expect(planSlot(EMPTY_GOVERNOR, rules({}, false), late).at).toBe(late);
  });
});

describe('daily cap per connection', () => {
  it('after dailyLimit sends the next waits for the next local day', () => {
    const r = rules({ messageInterval: 0, longerIntervalAfter: 0, dailyLimit: 3 }, false);
    const { times } = reserveMany(r, wednesday10h, 4);
    expect(times.slice(0, 3)).toEqual([wednesday10h, wednesday10h, wednesday10h]);
    expect(new Date(times[3]!).toISOString()).toBe('2026-11-26T03:00:00.000Z'); // local midnight
  });

  it('the local day, not the UTC day: 22:00 and 23:00 local are the same day in São Paulo', () => {
    const r = rules({ messageInterval: 0, longerIntervalAfter: 0, dailyLimit: 1 }, false);
    const first = planSlot(EMPTY_GOVERNOR, r, Date.parse('2026-11-26T01:00:00.000Z')); // 22:00 local on the 25th
    const second = planSlot({ ...first.next, version: 1 }, r, Date.parse('2026-11-26T02:00:00.000Z'));
    expect(second.reason).toBe('daily-cap');
    expect(new Date(second.at).toISOString()).toBe('2026-11-26T03:00:00.000Z');
  });
});

describe('provider rate-limit pause (decisions D166)', () => {
  it('no automatic send before pausedUntil, with the reason; the pause survives the slot taken after it', () => {
    const r = rules({ messageInterval: 5, longerIntervalAfter: 0 }, false);
    const paused: GovernorState = { ...EMPTY_GOVERNOR, pausedUntil: wednesday10h + 90_000, throttles: 2 };
    const plan = planSlot(paused, r, wednesday10h);
    expect(plan.at).toBe(wednesday10h + 90_000);
    expect(plan.reason).toBe('throttled');
    expect(plan.next).toMatchObject({ pausedUntil: wednesday10h + 90_000, throttles: 2, nextAt: plan.at + 5000 });
    // Once the pause is over it no longer moves anything.
    const after = planSlot(paused, r, wednesday10h + 120_000);
    expect(after).toMatchObject({ at: wednesday10h + 120_000, reason: null });
  });

  it('pacing later than the pause keeps its own reason', () => {
    const r = rules({ messageInterval: 5, longerIntervalAfter: 0 }, false);
    const state: GovernorState = { ...EMPTY_GOVERNOR, nextAt: wednesday10h + 60_000, pausedUntil: wednesday10h + 1 };
    expect(planSlot(state, r, wednesday10h)).toMatchObject({ at: wednesday10h + 60_000, reason: 'paced' });
  });
});
