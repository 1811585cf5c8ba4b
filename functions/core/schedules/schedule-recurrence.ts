import { addDays, addMonths, instantOf, parseWall, wallOf, weekdayOf, type WallTime } from '../outbound/zoned-time';

/**
 * When a scheduled message's occurrences fall (administration §3 Schedule; decisions D118), on the
 * company's clock:
 * - occurrence k (0-based) of a schedule starting at local wall time S is S + k × valorIntervalo days, weeks
 *   or months on the calendar (the local time of day kept; a month's day clamped to its last day), or
 *   S + k × valorIntervalo minutes of real time (intervalo 4);
 * - tipoDias 5 moves an occurrence that falls on a Saturday, Sunday or holiday to the business day before,
 *   6 to the business day after, keeping its local time; 4 leaves it;
 * - the local wall time becomes an instant with the zone's rules of that date (a time skipped by a DST jump
 *   moves forward by the gap; a repeated one is the first);
 * - an occurrence that lands at or before the previous one (two weekend days moved to the same Friday) is
 *   skipped, so occurrences strictly increase: never two sends for one time.
 */
export interface Recurrence {
  intervalo: number;
  valorIntervalo: number;
  enviarQuantasVezes: number;
  tipoDias: number;
}

export type HolidayLookup = (date: string) => boolean;

export const isRecurring = (r: Recurrence): boolean => r.enviarQuantasVezes > 1 && r.valorIntervalo > 0;

/** The business day `date` moves to under `tipoDias` (itself when it is one, or with rule 4). */
export const businessDayFor = (date: string, tipoDias: number, isHoliday: HolidayLookup): string => {
  if (tipoDias !== 5 && tipoDias !== 6) return date;
  const step = tipoDias === 5 ? -1 : 1;
  let d = date;
  for (let i = 0; i < 60; i += 1) {
    const wd = weekdayOf(d);
    if (wd !== 0 && wd !== 6 && !isHoliday(d)) return d;
    d = addDays(d, step);
  }
  return d;
};

const withDate = (date: string, w: Pick<WallTime, 'hour' | 'minute'>): WallTime => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return { year, month, day, hour: w.hour, minute: w.minute };
};

/** The instant of occurrence `k` (before the strictly-increasing rule), from the local start `startLocal`. */
export const nominalOccurrence = (
  startLocal: string,
  k: number,
  r: Recurrence,
  zone: string,
  isHoliday: HolidayLookup,
): Date => {
  const start = parseWall(startLocal);
  if (!start) throw new Error(`bad local start ${startLocal}`);
  const startDate = startLocal.slice(0, 10);
  let local: WallTime;
  if (r.intervalo === 4) {
    const first = instantOf(start, zone).getTime();
    const w = wallOf(first + k * r.valorIntervalo * 60_000, zone);
    local = w;
  } else {
    const date =
      r.intervalo === 3
        ? addMonths(startDate, k * r.valorIntervalo)
        : addDays(startDate, k * r.valorIntervalo * (r.intervalo === 2 ? 7 : 1));
    local = withDate(date, start);
  }
  const moved = businessDayFor(
    `${String(local.year).padStart(4, '0')}-${String(local.month).padStart(2, '0')}-${String(local.day).padStart(2, '0')}`,
    r.tipoDias,
    isHoliday,
  );
  return instantOf(withDate(moved, local), zone);
};

/**
 * The occurrence after the one at `previous` (index `previousIndex`): the first later index whose instant is
 * strictly after `previous`, or null when the recurrence has no more (indexes run to 999 × 4 at most).
 */
export const nextOccurrence = (
  startLocal: string,
  previousIndex: number,
  previous: Date,
  r: Recurrence,
  zone: string,
  isHoliday: HolidayLookup,
): { index: number; at: Date } | null => {
  if (!isRecurring(r)) return null;
  for (let k = previousIndex + 1; k < previousIndex + 60; k += 1) {
    const at = nominalOccurrence(startLocal, k, r, zone, isHoliday);
    if (at.getTime() > previous.getTime()) return { index: k, at };
  }
  return null;
};
