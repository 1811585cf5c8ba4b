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

const inShift = (minute: number, start: string | undefined, end: string | undefined): boolean => {
  const from = minutes(start);
  let to = minutes(end);
  if (from === null || to === null) return false;
  if (end === '23:59') to = 24 * 60;
  return minute >= from && minute < to;
};

export const isWithinServiceHours = (
  schedules: readonly ServiceHours[],
  at: Date,
  timeZone: string = DEFAULT_TIME_ZONE,
): boolean => {
  const { weekdayEn, minute } = localTime(at, timeZone);
  const day = schedules.find((s) => s.weekdayEn.toLowerCase() === weekdayEn);
  if (!day) return false;
  return inShift(minute, day.startTimeA, day.endTimeA) || inShift(minute, day.startTimeB, day.endTimeB);
};
