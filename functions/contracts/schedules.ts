import * as z from 'zod';

/**
 * Scheduled messages on the wire (administration §2 Schedules, §3 Schedule, §4, §7 Schedules, §9; core §5
 * "Schedule"; data-model §2.21; decisions D118–D120): the view the server answers and sends on
 * `company{id}-schedule`, and the bodies functions/http/schedules accepts.
 */
export const SCHEDULE_STATUSES = ['PENDENTE', 'ENVIADA', 'ERRO'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** intervalo: 1 days, 2 weeks, 3 months, 4 minutes. */
export const INTERVAL_UNITS = [1, 2, 3, 4] as const;
/** tipoDias: 4 send on any day, 5 one business day before, 6 one business day after. */
export const DAY_RULES = [4, 5, 6] as const;

export interface ScheduleView {
  id: number;
  body: string;
  contactId: number;
  contact: { id: number; name: string; number: string } | null;
  /** The next (or last) occurrence, ISO UTC. */
  sendAt: string;
  /** The same on the company's clock, `YYYY-MM-DDTHH:mm` (where the calendar places it). */
  sendAtLocal: string;
  /** Set when the schedule is done (its last occurrence went out or failed); then it is read-only. */
  sentAt: string | null;
  status: ScheduleStatus;
  openTicket: 'enabled' | 'disabled';
  ticketUserId: number | null;
  queueId: number | null;
  statusTicket: 'open' | 'pending' | 'closed';
  intervalo: number;
  valorIntervalo: number;
  enviarQuantasVezes: number;
  tipoDias: number;
  assinar: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  whatsappId: number | null;
  userId: number;
  /** Occurrences done (sent or missed) of `enviarQuantasVezes`. */
  sentCount: number;
  missedCount: number;
  /** Why the last occurrence failed or was missed (catch-up policy), if it did. */
  lastError: string | null;
  /** The ticket the last occurrence went to. */
  ticketId: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface SchedulePage {
  schedules: ScheduleView[];
  hasMore: boolean;
  nextCursor?: string;
}

export interface HolidayView {
  date: string;
  name: string;
}

/** GET /schedule-holidays?year=: the year's holidays and where they come from. */
export interface HolidayYearView {
  year: number;
  /** `default`: the national holidays of Brazil (computed); `company`: the list the company saved. */
  source: 'default' | 'company';
  holidays: HolidayView[];
}

const idOrNull = z.union([z.coerce.number().int().positive(), z.null(), z.literal('').transform(() => null)]);
const fields = {
  body: z.string({ error: 'Obrigatório' }).trim().min(5, 'Mensagem muito curta').max(4096, 'Too Long!'),
  contactId: z.coerce.number({ error: 'Obrigatório' }).int().positive('Obrigatório'),
  /** `YYYY-MM-DDTHH:mm` on the company's clock, or an ISO instant with its offset. */
  sendAt: z.string({ error: 'Obrigatório' }).trim().min(1, 'Obrigatório').max(40),
  openTicket: z.enum(['enabled', 'disabled']).optional(),
  ticketUserId: idOrNull.optional(),
  queueId: idOrNull.optional(),
  statusTicket: z.enum(['open', 'pending', 'closed']).optional(),
  intervalo: z.coerce
    .number()
    .int()
    .refine((v) => (INTERVAL_UNITS as readonly number[]).includes(v), '1 days, 2 weeks, 3 months or 4 minutes')
    .optional(),
  valorIntervalo: z.coerce.number().int().min(0).max(999).optional(),
  enviarQuantasVezes: z.coerce.number().int().min(1).max(999).optional(),
  tipoDias: z.coerce
    .number()
    .int()
    .refine((v) => (DAY_RULES as readonly number[]).includes(v), '4, 5 or 6')
    .optional(),
  assinar: z.boolean().optional(),
  whatsappId: idOrNull.optional(),
  // The spec's form also sends these; the owner and tenant come from the token.
  userId: z.unknown().optional(),
  companyId: z.unknown().optional(),
  status: z.unknown().optional(),
};

/** POST /schedules. */
export const createScheduleBody = z.object(fields);
export type CreateScheduleBody = z.input<typeof createScheduleBody>;
/** PUT /schedules/{id}: the fields sent change. */
export const updateScheduleBody = z.object({
  ...fields,
  body: fields.body.optional(),
  contactId: fields.contactId.optional(),
  sendAt: fields.sendAt.optional(),
});
export type UpdateScheduleBody = z.input<typeof updateScheduleBody>;

/** PUT /schedule-holidays: one year's list, replacing the defaults for that year. */
export const saveHolidaysBody = z.object({
  year: z.coerce.number().int().min(2000).max(2100),
  holidays: z
    .array(
      z.object({
        date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD'),
        name: z.string().trim().min(1).max(100),
      }),
    )
    .max(100),
});
export type SaveHolidaysBody = z.input<typeof saveHolidaysBody>;
