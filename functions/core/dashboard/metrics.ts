import type { AttendantRow, DashboardCounters } from '../../contracts/dashboard';

/**
 * The derived metrics (decisions D109): every card, attendant row, chart point and export cell is computed
 * here from summed day counters (functions/data/ticket-stats.ts `ticketCounters`), so the same number is
 * the same wherever it appears.
 */
export type Counters = Record<string, number>;

export const sumCounters = (rows: Iterable<Counters>): Counters => {
  const total: Counters = {};
  for (const row of rows) for (const [k, v] of Object.entries(row)) total[k] = (total[k] ?? 0) + v;
  return total;
};

const n = (c: Counters, k: string): number => Math.max(0, c[k] ?? 0);
/** Average seconds → whole minutes. */
const avgMinutes = (sum: number, count: number): number => (count > 0 ? Math.round(sum / count / 60) : 0);
/** A share in percent with one decimal. */
export const percent = (part: number, whole: number): number =>
  whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;

export const dashboardCounters = (c: Counters, leads: number): DashboardCounters => {
  const rated = n(c, 'rated');
  const promoters = n(c, 'npsPromoters');
  const detractors = n(c, 'npsDetractors');
  const withRating = n(c, 'closedRated');
  const withoutRating = n(c, 'closedUnrated');
  return {
    supportHappening: n(c, 'st_open'),
    supportPending: n(c, 'st_pending'),
    supportFinished: n(c, 'st_closed'),
    supportGroups: n(c, 'groups'),
    leads,
    avgSupportTime: avgMinutes(n(c, 'supportSum'), n(c, 'supportCount')),
    avgWaitTime: avgMinutes(n(c, 'waitSum'), n(c, 'waitCount')),
    activeTickets: n(c, 'active'),
    passiveTickets: n(c, 'passive'),
    tickets: n(c, 'created'),
    waitRating: n(c, 'st_nps'),
    withoutRating,
    withRating,
    percRating: percent(withRating, withRating + withoutRating),
    npsScore: rated > 0 ? Math.round(((promoters - detractors) / rated) * 1000) / 10 : 0,
    npsPromotersPerc: percent(promoters, rated),
    npsDetractorsPerc: percent(detractors, rated),
    npsPassivePerc: percent(n(c, 'npsPassives'), rated),
  };
};

export const attendantRow = (user: { id: number; name: string; online: boolean }, c: Counters): AttendantRow => {
  const countRating = n(c, 'rated');
  return {
    id: user.id,
    name: user.name,
    rating: countRating > 0 ? Math.round((n(c, 'rating5Sum') / countRating) * 10) / 10 : 0,
    countRating,
    tickets: n(c, 'created'),
    avgWaitTime: avgMinutes(n(c, 'waitSum'), n(c, 'waitCount')),
    avgSupportTime: avgMinutes(n(c, 'supportSum'), n(c, 'supportCount')),
    online: user.online,
  };
};

/** Seconds between two instants as whole minutes (the report's supportTime). */
export const minutesBetween = (from: string, to: string): number =>
  Math.round(Math.max(0, Date.parse(to) - Date.parse(from)) / 60000);

// ------------------------------------------------------------------------------------------------- days

export const addDays = (day: string, by: number): string => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + by);
  return d.toISOString().slice(0, 10);
};

export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** Every day from `from` to `to`, inclusive. */
export const eachDay = (from: string, to: string): string[] => {
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
  return days;
};

const wallClockMs = (instant: number, zone: string): number => {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(instant));
  const p = (t: string) => Number(parts.find((x) => x.type === t)?.value ?? 0);
  return Date.UTC(p('year'), p('month') - 1, p('day'), p('hour') % 24, p('minute'), p('second'));
};

/** The UTC instant a company day starts (midnight in the zone; DST-safe). */
export const zoneDayStart = (day: string, zone: string): Date => {
  const midnight = Date.parse(`${day}T00:00:00Z`);
  let guess = midnight - (wallClockMs(midnight, zone) - midnight);
  guess = midnight - (wallClockMs(guess, zone) - guess);
  return new Date(guess);
};
