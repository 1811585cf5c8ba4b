import { addDays, dateKey } from '../outbound/zoned-time';

/**
 * National holidays as data (decisions D120): the default calendar is Brazil's national holidays (the
 * spec's market), computed for any year — the fixed dates of federal law and Good Friday from Easter. A
 * company may replace a year's list with its own (PUT /schedule-holidays); business-day rules of scheduled
 * messages read the company's list for a year when it saved one, else these.
 */
export const BR_FIXED_HOLIDAYS: readonly { monthDay: string; name: string; since?: number }[] = [
  { monthDay: '01-01', name: 'Confraternização Universal' },
  { monthDay: '04-21', name: 'Tiradentes' },
  { monthDay: '05-01', name: 'Dia do Trabalho' },
  { monthDay: '09-07', name: 'Independência do Brasil' },
  { monthDay: '10-12', name: 'Nossa Senhora Aparecida' },
  { monthDay: '11-02', name: 'Finados' },
  { monthDay: '11-15', name: 'Proclamação da República' },
  { monthDay: '11-20', name: 'Dia Nacional de Zumbi e da Consciência Negra', since: 2024 },
  { monthDay: '12-25', name: 'Natal' },
];

/** Easter Sunday (Gregorian, anonymous algorithm). */
export const easterOf = (year: number): string => {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return dateKey({ year, month, day });
};

export const defaultHolidays = (year: number): { date: string; name: string }[] =>
  [
    ...BR_FIXED_HOLIDAYS.filter((h) => h.since === undefined || year >= h.since).map((h) => ({
      date: `${String(year).padStart(4, '0')}-${h.monthDay}`,
      name: h.name,
    })),
    { date: addDays(easterOf(year), -2), name: 'Sexta-feira Santa' },
  ].sort((x, y) => x.date.localeCompare(y.date));
