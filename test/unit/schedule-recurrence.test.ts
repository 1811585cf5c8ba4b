import { describe, expect, it } from 'vitest';
import { defaultHolidays, easterOf } from '../../functions/core/schedules/holidays';
import {
  businessDayFor,
  nextOccurrence,
  nominalOccurrence,
  type Recurrence,
} from '../../functions/core/schedules/schedule-recurrence';
import { instantOf, offsetAt, parseWall, wallOf, weekdayOf } from '../../functions/core/outbound/zoned-time';

/**
 * When scheduled messages' occurrences fall (decisions D118): local wall time kept across DST changes in
 * five zones, never two occurrences at one time, business-day rules around weekends and holidays.
 */
const ZONES = ['America/Sao_Paulo', 'America/New_York', 'Europe/Lisbon', 'Australia/Sydney', 'America/Santiago'];

/** A small seeded generator (mulberry32): the same cases on every run, many of them. */
const seeded = (seed: number) => () => {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const holidays = new Set([2025, 2026, 2027, 2028].flatMap((y) => defaultHolidays(y).map((h) => h.date)));
const isHoliday = (d: string) => holidays.has(d);
const minutesOfDay = (w: { hour: number; minute: number }) => w.hour * 60 + w.minute;

/** The occurrences of a recurrence, as the sender walks them. */
const occurrences = (startLocal: string, r: Recurrence, zone: string): Date[] => {
  const all = [nominalOccurrence(startLocal, 0, r, zone, isHoliday)];
  let index = 0;
  while (all.length < r.enviarQuantasVezes) {
    const next = nextOccurrence(startLocal, index, all.at(-1)!, r, zone, isHoliday);
    if (!next) break;
    all.push(next.at);
    index = next.index;
  }
  return all;
};

const CASES = 600;

describe('local wall time across DST changes (property, seeded)', { timeout: 120_000 }, () => {
  it('in five IANA zones: 0 wrong-hour occurrences, 0 duplicates, business-day rules hold', () => {
    const random = seeded(20261127);
    let cases = 0;
    let checked = 0;
    let wrongHour = 0;
    let duplicates = 0;
    let notBusiness = 0;
    for (let n = 0; n < CASES; n += 1) {
      const zone = ZONES[Math.floor(random() * ZONES.length)]!;
      // Starts spread over 2026, at any minute of the day (the DST nights included, 00:00–03:59 often).
      const day = 1 + Math.floor(random() * 365);
      const date = new Date(Date.UTC(2026, 0, day)).toISOString().slice(0, 10);
      const hour = random() < 0.5 ? Math.floor(random() * 4) : Math.floor(random() * 24);
      const minute = Math.floor(random() * 60);
      const startLocal = `${date}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
      const r: Recurrence = {
        intervalo: 1 + Math.floor(random() * 3),
        valorIntervalo: 1 + Math.floor(random() * 3),
        enviarQuantasVezes: 2 + Math.floor(random() * 40),
        tipoDias: 4 + Math.floor(random() * 3),
      };
      const all = occurrences(startLocal, r, zone);
      cases += 1;
      const wanted = minutesOfDay(parseWall(startLocal)!);
      for (let i = 0; i < all.length; i += 1) {
        const at = all[i]!;
        checked += 1;
        if (i > 0 && at.getTime() <= all[i - 1]!.getTime()) duplicates += 1;
        const w = wallOf(at, zone);
        if (minutesOfDay(w) !== wanted) {
          // Only allowed where the wall time does not exist that day: moved forward by exactly the gap.
          const gap = offsetAt(at.getTime() + 6 * 3600_000, zone) - offsetAt(at.getTime() - 6 * 3600_000, zone);
          const skipped = instantOf({ ...w, hour: Math.floor(wanted / 60), minute: wanted % 60 }, zone);
          const exists = minutesOfDay(wallOf(skipped, zone)) === wanted;
          if (exists || gap <= 0 || minutesOfDay(w) !== wanted + gap / 60_000) wrongHour += 1;
        }
        if (r.tipoDias !== 4) {
          const wd = weekdayOf(w.date);
          if (wd === 0 || wd === 6 || isHoliday(w.date)) notBusiness += 1;
        }
      }
    }
    expect(cases).toBe(CASES);
    expect(checked).toBeGreaterThan(CASES * 10);
    expect({ wrongHour, duplicates, notBusiness }).toEqual({ wrongHour: 0, duplicates: 0, notBusiness: 0 });
  });

  it('minutes keep real time: every 90 minutes through the New York spring-forward night is 90 real minutes', () => {
    const r: Recurrence = { intervalo: 4, valorIntervalo: 90, enviarQuantasVezes: 6, tipoDias: 4 };
    const all = occurrences('2026-03-07T23:00', r, 'America/New_York');
    const gaps = all.slice(1).map((at, i) => (at.getTime() - all[i]!.getTime()) / 60_000);
    expect(gaps).toEqual([90, 90, 90, 90, 90]);
    // 23:00, 00:30, 02:00 EST … which reads 03:00 once clocks jumped at 02:00.
    expect(all.map((at) => wallOf(at, 'America/New_York').hour)).toEqual([23, 0, 3, 4, 6, 7]);
  });

  it('a daily 02:30 in New York is 03:30 on the spring-forward day and 02:30 again the next day', () => {
    const r: Recurrence = { intervalo: 1, valorIntervalo: 1, enviarQuantasVezes: 3, tipoDias: 4 };
    const local = occurrences('2026-03-07T02:30', r, 'America/New_York').map((at) => {
      const w = wallOf(at, 'America/New_York');
      return `${w.date} ${w.hour}:${w.minute}`;
    });
    expect(local).toEqual(['2026-03-07 2:30', '2026-03-08 3:30', '2026-03-09 2:30']);
  });

  it('a daily 01:30 in Lisbon on the night clocks go back is sent once, at the first 01:30', () => {
    const r: Recurrence = { intervalo: 1, valorIntervalo: 1, enviarQuantasVezes: 3, tipoDias: 4 };
    const all = occurrences('2026-10-24T01:30', r, 'Europe/Lisbon');
    expect(all.map((at) => at.toISOString())).toEqual([
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z', // 01:30 WEST, the first of the two
      '2026-10-26T01:30:00.000Z',
    ]);
  });

  it('months clamp to the month end and keep the local time in Sydney across its April change', () => {
    const r: Recurrence = { intervalo: 3, valorIntervalo: 1, enviarQuantasVezes: 4, tipoDias: 4 };
    const local = occurrences('2026-01-31T09:00', r, 'Australia/Sydney').map((at) => {
      const w = wallOf(at, 'Australia/Sydney');
      return `${w.date} ${w.hour}`;
    });
    expect(local).toEqual(['2026-01-31 9', '2026-02-28 9', '2026-03-31 9', '2026-04-30 9']);
  });
});

describe('business days (tipoDias) and holidays', () => {
  it("Brazil's national holidays, Good Friday from Easter", () => {
    expect(easterOf(2026)).toBe('2026-04-05');
    expect(defaultHolidays(2026).map((h) => h.date)).toEqual([
      '2026-01-01',
      '2026-04-03',
      '2026-04-21',
      '2026-05-01',
      '2026-09-07',
      '2026-10-12',
      '2026-11-02',
      '2026-11-15',
      '2026-11-20',
      '2026-12-25',
    ]);
  });

  it('5 moves to the business day before, 6 to the one after, around a weekend and a holiday', () => {
    // Tiradentes, Tuesday 21 April 2026; Good Friday 3 April 2026 then a weekend.
    expect(businessDayFor('2026-04-21', 5, isHoliday)).toBe('2026-04-20');
    expect(businessDayFor('2026-04-21', 6, isHoliday)).toBe('2026-04-22');
    expect(businessDayFor('2026-04-04', 5, isHoliday)).toBe('2026-04-02'); // Saturday → Thursday (Friday is a holiday)
    expect(businessDayFor('2026-04-04', 6, isHoliday)).toBe('2026-04-06');
    expect(businessDayFor('2026-04-04', 4, isHoliday)).toBe('2026-04-04');
  });

  it('a daily message with rule 5 sends Friday once for Friday, Saturday and Sunday', () => {
    const r: Recurrence = { intervalo: 1, valorIntervalo: 1, enviarQuantasVezes: 4, tipoDias: 5 };
    const dates = occurrences('2026-11-26T10:00', r, 'America/Sao_Paulo').map(
      (at) => wallOf(at, 'America/Sao_Paulo').date,
    );
    // Thu 26, Fri 27 (Sat 28 and Sun 29 move to Fri 27: already sent), Mon 30, Tue 1.
    expect(dates).toEqual(['2026-11-26', '2026-11-27', '2026-11-30', '2026-12-01']);
  });
});
