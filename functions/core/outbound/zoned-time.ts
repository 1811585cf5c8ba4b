/**
 * Wall-clock arithmetic in a company's IANA time zone (DESIGN §10), with `Intl` only: what the send
 * governor's allowed hours and the scheduled messages' occurrences are computed with (decisions D117, D118).
 *
 * - `wallOf(instant, zone)`: the local date, time and weekday of an instant.
 * - `instantOf(wall, zone)`: the instant a local wall time names. A wall time that does not exist (the hour
 *   skipped when clocks go forward) is moved forward by the gap (02:30 on a spring-forward night becomes
 *   03:30); a wall time that happens twice (clocks go back) is the first of the two.
 */
export interface WallTime {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
}

export interface ZonedWall extends WallTime {
  /** 0 Sunday … 6 Saturday. */
  weekday: number;
  /** `YYYY-MM-DD`. */
  date: string;
}

const formats = new Map<string, Intl.DateTimeFormat>();
const formatOf = (zone: string): Intl.DateTimeFormat => {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(zone, f);
  }
  return f;
};

const two = (n: number): string => String(n).padStart(2, '0');
export const dateKey = (w: Pick<WallTime, 'year' | 'month' | 'day'>): string =>
  `${String(w.year).padStart(4, '0')}-${two(w.month)}-${two(w.day)}`;
export const wallKey = (w: WallTime): string => `${dateKey(w)}T${two(w.hour)}:${two(w.minute)}`;

export const wallOf = (instant: Date | number, zone: string): ZonedWall & { second: number } => {
  const parts = formatOf(zone).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const w = { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute') };
  const weekday = new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay();
  return { ...w, second: get('second'), weekday, date: dateKey(w) };
};

/** The zone's offset from UTC at an instant, in ms (local = UTC + offset). */
export const offsetAt = (instant: number, zone: string): number => {
  const w = wallOf(instant, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
};

const sameWall = (instant: number, w: WallTime, zone: string): boolean => {
  const x = wallOf(instant, zone);
  return x.year === w.year && x.month === w.month && x.day === w.day && x.hour === w.hour && x.minute === w.minute;
};

export const instantOf = (w: WallTime, zone: string): Date => {
  const naive = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  const before = offsetAt(naive - 36 * 3600_000, zone);
  const after = offsetAt(naive + 36 * 3600_000, zone);
  const candidates = [...new Set([before, after, offsetAt(naive, zone)])]
    .map((o) => naive - o)
    .filter((u) => sameWall(u, w, zone))
    .sort((a, b) => a - b);
  // Clocks went back: the first of the two; skipped by a jump forward: the offset before the jump.
  return new Date(candidates[0] ?? naive - before);
};

/** A calendar date moved by whole days (proleptic Gregorian, no zone involved). */
export const addDays = (date: string, days: number): string => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return dateKey({ year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() });
};

/** The date `months` later, its day clamped to the month's last (31 Jan + 1 month = 28/29 Feb). */
export const addMonths = (date: string, months: number): string => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return dateKey({ year, month, day: Math.min(d, last) });
};

export const weekdayOf = (date: string): number => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
};

/** `YYYY-MM-DDTHH:mm` → its parts, or null when malformed or not a real date. */
export const parseWall = (s: string): WallTime | null => {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d{1,3})?)?$/.exec(s);
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || hour > 23 || minute > 59) return null;
  if (day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return { year, month, day, hour, minute };
};
