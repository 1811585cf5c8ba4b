import * as z from 'zod';
import { TICKET_STATUSES, type TicketStatus } from './tickets';

/**
 * Dashboard, attendance panel and reports (core §2, §3, §7; admin §2, §3, §7; decisions D108–D111).
 * Days are `yyyy-mm-dd` in the company's time zone; times are minutes.
 */

/** A query value that is a JSON list (`[1,2]`) or a comma-separated one (`1,2`); '' or `[]` is none. */
const list = <T extends z.ZodType>(item: T, max: number) =>
  z
    .string()
    .transform((s, ctx) => {
      const text = s.trim();
      if (text === '') return [];
      if (!text.startsWith('[')) return text.split(',').map((v) => v.trim());
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON list' });
        return z.NEVER;
      }
    })
    .pipe(z.array(item, { error: 'must be a JSON list' }).max(max));

export const dayString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be yyyy-mm-dd')
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    {
      message: 'not a calendar day',
    },
  );
const ids = list(z.coerce.number().int().positive(), 100);

/** The longest range a dashboard or report request may cover. */
export const MAX_RANGE_DAYS = 366;

export const dashboardQuery = z.object({
  days: z.coerce.number().int().min(1).max(MAX_RANGE_DAYS).optional(),
  date_from: dayString.optional(),
  date_to: dayString.optional(),
  queueIds: ids.optional(),
  companyId: z.unknown().optional(),
});
export type DashboardQuery = z.infer<typeof dashboardQuery>;

export const chartQuery = z.object({
  initialDate: dayString,
  finalDate: dayString,
  companyId: z.unknown().optional(),
});
export type ChartQuery = z.infer<typeof chartQuery>;

const statuses = list(z.enum(TICKET_STATUSES), 6);

export const momentsQuery = z.object({
  status: z.enum(TICKET_STATUSES).optional(),
  showAll: z.enum(['true', 'false']).optional(),
  queueIds: ids.optional(),
  dateStart: dayString.optional(),
  dateEnd: dayString.optional(),
  userId: z.coerce.number().int().positive().optional(),
  companyId: z.unknown().optional(),
});
export type MomentsQuery = z.infer<typeof momentsQuery>;

export const REPORT_PAGE_SIZES = [5, 10, 20, 50] as const;
/** The export's page size ceiling (admin §2: a very large page size; data-model §1.7). */
export const MAX_REPORT_PAGE_SIZE = 5000;

export const reportQuery = z.object({
  searchParam: z.string().max(100).optional(),
  contactId: z.coerce.number().int().positive().optional(),
  whatsappId: z.coerce.number().int().positive().optional(),
  users: ids.optional(),
  queueIds: ids.optional(),
  status: statuses.optional(),
  dateFrom: dayString,
  dateTo: dayString,
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_REPORT_PAGE_SIZE).default(10),
  onlyRated: z.enum(['true', 'false']).optional(),
  companyId: z.unknown().optional(),
});
export type ReportQuery = z.infer<typeof reportQuery>;

/** The spec's dashboard counters (core §3), one definition each (decisions D109). */
export interface DashboardCounters {
  supportHappening: number;
  supportPending: number;
  supportFinished: number;
  supportGroups: number;
  leads: number;
  /** Minutes. */
  avgSupportTime: number;
  /** Minutes. */
  avgWaitTime: number;
  activeTickets: number;
  passiveTickets: number;
  tickets: number;
  waitRating: number;
  withoutRating: number;
  withRating: number;
  percRating: number;
  npsScore: number;
  npsPromotersPerc: number;
  npsDetractorsPerc: number;
  npsPassivePerc: number;
}

export interface AttendantRow {
  id: number;
  name: string;
  /** Average rating 1–5 (0 without ratings). */
  rating: number;
  countRating: number;
  tickets: number;
  avgWaitTime: number;
  avgSupportTime: number;
  online: boolean;
}

export interface DashboardAnswer {
  counters: DashboardCounters;
  attendants: AttendantRow[];
  /** The range the numbers cover (company days). */
  dateFrom: string;
  dateTo: string;
}

export interface TicketsUsersAnswer {
  data: { userId: number; nome: string; quantidade: number }[];
  count: number;
}

export interface TicketsDayAnswer {
  /** Per day (`data`) or, for a one-day range, per hour (`horario`, `00`–`23`). */
  data: { data?: string; horario?: string; total: number }[];
  count: number;
}

export interface UserMoment {
  id: number;
  name: string;
  online: boolean;
  profile: string;
  open: number;
  pending: number;
}

export interface MomentTicket {
  id: number;
  uuid: string;
  status: TicketStatus;
  lastMessage: string;
  updatedAt: string;
  createdAt: string;
  unreadMessages: number;
  userId: number | null;
  user: { id: number; name: string } | null;
  queueId: number | null;
  queue: { id: number; name: string; color: string } | null;
  contact: { id: number; name: string };
  whatsapp: { id: number; name: string } | null;
  /** Whether the caller may open it (an admin any; a user only their own). */
  canOpen: boolean;
}

export interface MomentsAnswer {
  tickets: MomentTicket[];
  /** More tickets are waiting than the panel lists. */
  hasMore: boolean;
}

export interface ReportRow {
  id: number;
  uuid: string;
  whatsappName: string;
  contactName: string;
  userName: string;
  queueName: string;
  status: TicketStatus;
  lastMessage: string;
  createdAt: string;
  closedAt: string | null;
  /** Minutes from the first attendant to the end of the work (null when not applicable). */
  supportTime: number | null;
  /** The contact's 0–10 score. */
  NPS: number | null;
}

export interface ReportAnswer {
  tickets: ReportRow[];
  totalTickets: { total: number };
  /** False when the total is the number found while walking (capped), not an aggregate. */
  countIsExact: boolean;
  hasMore: boolean;
}
