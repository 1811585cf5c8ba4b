import type {
  CreateScheduleBody,
  HolidayView,
  HolidayYearView,
  SchedulePage,
  ScheduleView,
  UpdateScheduleBody,
} from '@contracts/schedules';
import { api } from './transport';

/**
 * Scheduled messages (administration §2 Schedules, §7; server: functions/http/schedules; decisions
 * D118–D120). The wire shapes are the server's contract (functions/contracts/schedules.ts).
 */
export type { SchedulePage };
export type Schedule = ScheduleView;
export type ScheduleInput = Omit<CreateScheduleBody, 'userId' | 'companyId' | 'status'>;
export type ScheduleChanges = Omit<UpdateScheduleBody, 'userId' | 'companyId' | 'status'>;

/** The attachment the server accepts: one png/jpg/jpeg up to 2.5 MB (core §5). */
export const SCHEDULE_MEDIA_MAX_BYTES = 2.5 * 1024 * 1024;

interface CallOptions {
  signal?: AbortSignal;
}

const path = (id: number) => `/schedules/${encodeURIComponent(String(id))}`;

/**
 * GET /schedules {searchParam, period, pageNumber, cursor}: by contact name, or by local send time — newest
 * first, or within a local month/day (`2026-11`, `2026-11-27`) oldest first.
 */
export const listSchedules = (
  query: { searchParam?: string; period?: string; pageNumber?: number; cursor?: string } = {},
  options: CallOptions = {},
): Promise<SchedulePage> =>
  api().get<SchedulePage>('/schedules', {
    ...options,
    query: {
      searchParam: query.searchParam || undefined,
      period: query.period || undefined,
      pageNumber: query.pageNumber,
      cursor: query.cursor,
    },
  });

/** Every schedule of a local period (all its pages): what the calendar shows. */
export const listSchedulesOfPeriod = async (period: string, options: CallOptions = {}): Promise<Schedule[]> => {
  const all: Schedule[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < 40; n += 1) {
    const page = await listSchedules({ period, ...(cursor ? { cursor } : {}) }, options);
    all.push(...page.schedules);
    if (!page.hasMore || !page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return all;
};

export const createSchedule = (input: ScheduleInput): Promise<Schedule> => api().post<Schedule>('/schedules', input);

export const updateSchedule = (id: number, input: ScheduleChanges): Promise<Schedule> =>
  api().put<Schedule>(path(id), input);

export const deleteSchedule = (id: number): Promise<{ message: string }> => api().delete<{ message: string }>(path(id));

/** POST /schedules/{id}/media-upload, multipart {file}: the one image; answers the schedule. */
export const uploadScheduleMedia = (id: number, file: File): Promise<Schedule> => {
  const form = new FormData();
  form.append('file', file, file.name);
  return api().post<Schedule>(`${path(id)}/media-upload`, form);
};

export const deleteScheduleMedia = (id: number): Promise<Schedule> =>
  api().delete<Schedule>(`${path(id)}/media-upload`);

/** The contact a `?contactId=` link names (GET /contacts/{id}), for the add dialog. */
export const getScheduleContact = (id: number, options: CallOptions = {}): Promise<{ id: number; name: string }> =>
  api().get<{ id: number; name: string }>(`/contacts/${encodeURIComponent(String(id))}`, options);

export type { HolidayView, HolidayYearView } from '@contracts/schedules';

/** GET /schedule-holidays?year=: the year's holidays (Brazil's national ones until the company saves its own). */
export const getHolidays = (year: number, options: CallOptions = {}): Promise<HolidayYearView> =>
  api().get<HolidayYearView>('/schedule-holidays', { ...options, query: { year: String(year) } });

/** PUT /schedule-holidays (admins): the year's list, replacing the defaults for that year (decisions D120). */
export const saveHolidays = (year: number, holidays: HolidayView[]): Promise<HolidayYearView> =>
  api().put<HolidayYearView>('/schedule-holidays', { year, holidays });
