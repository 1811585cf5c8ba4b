/**
 * Service hours (core spec §3 Connection `schedules`, admin spec queue schedules): per weekday two shifts,
 * A and B, as `HH:MM` start and end in the company's time zone. A shift with an empty start or end is
 * closed; a day without an entry is closed. The end is exclusive ("18:00" closes at 18:00), except "23:59",
 * which covers the day's last minute.
 */
export interface ServiceHours {
  weekdayEn: string;
  startTimeA?: string;
  endTimeA?: string;
  startTimeB?: string;
  endTimeB?: string;
}

import { DEFAULT_TIME_ZONE } from '../settings/company-settings';

const minutes = (hhmm: string | undefined): number | null => {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm ?? '');
  if (!m) return null;
  const value = Number(m[1]) * 60 + Number(m[2]);
  return value <= 24 * 60 ? value : null;
};

/** Weekday (english, lower case) and minute of the day of an instant in a time zone. */
export const localTime = (at: Date, timeZone: string): { weekdayEn: string; minute: number } => {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'long',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { weekdayEn: part('weekday').toLowerCase(), minute: Number(part('hour')) * 60 + Number(part('minute')) };
};

const DAY = 24 * 60;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/**
 * A shift as minutes from its day's local midnight, `[from, to)`; null when closed. "23:59" ends at the
 * day's end; an end earlier than the start runs past midnight into the next day ("22:00"–"06:00"); an end
 * equal to the start is an empty shift.
 */
const shiftSpan = (start: string | undefined, end: string | undefined): [number, number] | null => {
  const from = minutes(start);
  let to = minutes(end);
  if (from === null || to === null) return null;
  if (end === '23:59') to = DAY;
  if (to < from) to += DAY;
  return to === from ? null : [from, to];
};

/** The local calendar day (yyyy-mm-dd) of an instant in a time zone. */
const localDay = (at: Date, timeZone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

/** The calendar day `offset` days after `day` (pure calendar arithmetic: no zone, so no DST). */
const addDays = (day: string, offset: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + offset * DAY * 60_000).toISOString().slice(0, 10);

/**
 * The open spans of the days from `daysBack` days ago to today, as minutes from today's local midnight
 * (yesterday's 22:00–06:00 is `[-120, 360)`).
 */
const openSpans = (schedules: readonly ServiceHours[], day: string, daysBack: number): [number, number][] => {
  const spans: [number, number][] = [];
  for (let offset = -daysBack; offset <= 0; offset += 1) {
    const weekday = WEEKDAYS[new Date(`${addDays(day, offset)}T00:00:00Z`).getUTCDay()]!;
    const entry = schedules.find((s) => s.weekdayEn.toLowerCase() === weekday);
    if (!entry) continue;
    for (const span of [shiftSpan(entry.startTimeA, entry.endTimeA), shiftSpan(entry.startTimeB, entry.endTimeB)]) {
      if (span) spans.push([span[0] + offset * DAY, span[1] + offset * DAY]);
    }
  }
  return spans;
};

export const isWithinServiceHours = (
  schedules: readonly ServiceHours[],
  at: Date,
  timeZone: string = DEFAULT_TIME_ZONE,
): boolean => {
  const { minute } = localTime(at, timeZone);
  // Today's shifts and yesterday's, which may run past midnight into today.
  return openSpans(schedules, localDay(at, timeZone), 1).some(([from, to]) => minute >= from && minute < to);
};

/** The closed period of a schedule that never opens (no shift on any day). */
export const NEVER_OPEN = 'never-open';

/**
 * Which closed period an instant falls in: null when the hours are open, else the local date and time
 * (`2026-03-27T18:00`, in the company's zone) at which the last shift before it ended — the same for every
 * instant of one closed period (a night, a weekend, a lunch break), different for the next one. Automatic
 * replies that go once per closed period key on it (decisions D92). A schedule without any shift is one
 * endless closed period, `NEVER_OPEN`.
 */
export const closedPeriodStart = (
  schedules: readonly ServiceHours[],
  at: Date,
  timeZone: string = DEFAULT_TIME_ZONE,
): string | null => {
  const { minute } = localTime(at, timeZone);
  const today = localDay(at, timeZone);
  // A week back (and the day before, for a shift running past midnight) holds every weekday's shifts.
  const spans = openSpans(schedules, today, 8);
  if (spans.some(([from, to]) => minute >= from && minute < to)) return null;
  const ends = spans.map(([, to]) => to).filter((to) => to <= minute);
  if (ends.length === 0) return NEVER_OPEN;
  const end = Math.max(...ends);
  const dayOffset = Math.floor(end / DAY);
  const minuteOfDay = end - dayOffset * DAY;
  const hhmm = `${String(Math.floor(minuteOfDay / 60)).padStart(2, '0')}:${String(minuteOfDay % 60).padStart(2, '0')}`;
  return `${addDays(today, dayOffset)}T${hhmm}`;
};
