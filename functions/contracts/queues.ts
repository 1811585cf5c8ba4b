/**
 * Queues as every signed-in user reads them (core §7 "Other": GET /queue, GET /queue/{id}), and the
 * service hours queues and connections share; used by functions/core/queues, functions/contracts/
 * connections.ts and frontend/src/api.
 */
/**
 * One day of the service hours: two shifts, A and B, HH:MM ('' for none). `weekdayEn` is a day of the
 * week in English whenever it was written through the API (connections.ts WEEKDAYS_EN); stored schedules
 * are typed as text.
 */
export interface ScheduleEntry {
  weekday: string;
  weekdayEn: string;
  startTimeA: string;
  endTimeA: string;
  startTimeB: string;
  endTimeB: string;
}

export interface QueueView {
  id: number;
  name: string;
  color: string;
  orderQueue: number | null;
  greetingMessage: string;
  outOfHoursMessage: string;
  schedules: ScheduleEntry[];
}
