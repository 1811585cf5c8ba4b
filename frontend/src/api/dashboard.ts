import type {
  AttendantRow,
  DashboardAnswer,
  DashboardCounters,
  MomentsAnswer,
  MomentTicket,
  ReportAnswer,
  ReportRow,
  TicketsDayAnswer,
  TicketsUsersAnswer,
  UserMoment,
} from '@contracts/dashboard';
import { api } from './transport';

/**
 * Dashboard, attendance panel and reports (core §2, §7; admin §2, §7; decisions D108–D111; server:
 * functions/core/dashboard). Days are `yyyy-mm-dd` in the company's zone; times are minutes.
 */
export type {
  AttendantRow,
  DashboardAnswer,
  DashboardCounters,
  MomentsAnswer,
  MomentTicket,
  ReportAnswer,
  ReportRow,
  TicketsDayAnswer,
  TicketsUsersAnswer,
  UserMoment,
};

interface CallOptions {
  signal?: AbortSignal;
}

export interface DashboardFilter {
  dateFrom: string;
  dateTo: string;
  /** Empty: every queue (the company's numbers). */
  queueIds: number[];
}

export const getDashboard = (f: DashboardFilter, options: CallOptions = {}): Promise<DashboardAnswer> =>
  api().get<DashboardAnswer>('/dashboard', {
    ...options,
    query: {
      date_from: f.dateFrom,
      date_to: f.dateTo,
      ...(f.queueIds.length ? { queueIds: JSON.stringify(f.queueIds) } : {}),
    },
  });

export const getTicketsPerUser = (
  range: { dateFrom: string; dateTo: string },
  options: CallOptions = {},
): Promise<TicketsUsersAnswer> =>
  api().get<TicketsUsersAnswer>('/dashboard/ticketsUsers', {
    ...options,
    query: { initialDate: range.dateFrom, finalDate: range.dateTo },
  });

export const getTicketsPerDay = (
  range: { dateFrom: string; dateTo: string },
  options: CallOptions = {},
): Promise<TicketsDayAnswer> =>
  api().get<TicketsDayAnswer>('/dashboard/ticketsDay', {
    ...options,
    query: { initialDate: range.dateFrom, finalDate: range.dateTo },
  });

export const getMoments = (options: CallOptions = {}): Promise<MomentsAnswer> =>
  api().get<MomentsAnswer>('/dashboard/moments', options);

export const getUsersMoments = (options: CallOptions = {}): Promise<UserMoment[]> =>
  api().get<UserMoment[]>('/usersMoments', options);

export interface ReportFilter {
  dateFrom: string;
  dateTo: string;
  searchParam: string;
  status: string[];
  queueIds: number[];
  users: number[];
  whatsappId: number | null;
  onlyRated: boolean;
}

/** The report's filters as the server reads them (the paged report and its export take the same). */
export const reportFilterQuery = (
  f: ReportFilter,
): { dateFrom: string; dateTo: string } & Record<string, string | number> => ({
  dateFrom: f.dateFrom,
  dateTo: f.dateTo,
  ...(f.searchParam.trim() ? { searchParam: f.searchParam.trim() } : {}),
  ...(f.status.length ? { status: JSON.stringify(f.status) } : {}),
  ...(f.queueIds.length ? { queueIds: JSON.stringify(f.queueIds) } : {}),
  ...(f.users.length ? { users: JSON.stringify(f.users) } : {}),
  ...(f.whatsappId ? { whatsappId: f.whatsappId } : {}),
  ...(f.onlyRated ? { onlyRated: 'true' } : {}),
});

export const getReport = (
  f: ReportFilter,
  page: { page: number; pageSize: number },
  options: CallOptions = {},
): Promise<ReportAnswer> =>
  api().get<ReportAnswer>('/ticketreport/reports', {
    ...options,
    query: { ...reportFilterQuery(f), page: page.page, pageSize: page.pageSize },
  });

/** Today and the first of this month, in the browser's calendar (core §9 dashboard default range). */
export const monthToDate = (now = new Date()): { dateFrom: string; dateTo: string } => {
  const pad = (n: number) => String(n).padStart(2, '0');
  const today = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return { dateFrom: `${today.slice(0, 8)}01`, dateTo: today };
};

/** Minutes as hours and minutes (core §9: attendant times), e.g. 125 → "2h 05m". */
export const hoursAndMinutes = (minutes: number): string => {
  const h = Math.floor(minutes / 60);
  const m = Math.round(minutes % 60);
  return `${h}h ${String(m).padStart(2, '0')}m`;
};
