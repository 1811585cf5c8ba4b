import * as z from 'zod';
import type { ScheduleEntry } from './queues';

/**
 * Connections on the wire (core spec §3 Connection, §4, §5 connection rules, §7 Connections; decisions
 * D22–D25, D40, D76, D78): the views the server answers and sends in `whatsapp`, `whatsappSession` and
 * `importMessages` events, and the bodies functions/http/connections accepts. Shared by the handlers,
 * functions/core/connections and frontend/src/api/connections.ts.
 */
/** `whatsappapi`: the WhatsApp Cloud API (a phone number of a WhatsApp Business Account, decisions D40). */
export type ConnectionChannel = 'whatsapp' | 'facebook' | 'instagram' | 'whatsappapi';
export type ConnectionStatus = 'qrcode' | 'PAIRING' | 'DISCONNECTED' | 'TIMEOUT' | 'OPENING' | 'CONNECTED';

export const WEEKDAYS_EN = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
/** The days of ScheduleEntry's `weekdayEn`, as the schedules the API accepts name them. */
export type Weekday = (typeof WEEKDAYS_EN)[number];

/** A connection as the API and the `whatsapp` / `whatsappSession` events show it. */
export interface ConnectionView {
  id: number;
  companyId: number;
  name: string;
  number: string;
  channel: ConnectionChannel;
  status: ConnectionStatus;
  /** The company's default connection (exactly one per company). */
  isDefault: boolean;
  /** The external API's bearer: only connection managers receive it. */
  token?: string;
  qrcode: string;
  retries: number;
  queueIds: number[];
  queues: { id: number; name: string; color: string }[];
  schedules: ScheduleEntry[];
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  sendIdQueue: number | null;
  timeSendQueue: number;
  maxUseBotQueues: number;
  maxUseBotQueuesNPS: number;
  timeUseBotQueues: number;
  provider: 'beta' | 'stable';
  expiresTicket: number;
  expiresTicketNPS: number;
  expiresInactiveMessage: string;
  timeInactiveMessage: number;
  inactiveMessage: string;
  whenExpiresTicket: '0' | '1';
  timeCreateNewTicket: number;
  allowGroup: boolean;
  groupAsTicket: 'enabled' | 'disabled';
  /** The greeting attachment's address (`/media/...`), or null. */
  greetingMediaAttachment: string | null;
  importOldMessages: string | null;
  importRecentMessages: string | null;
  importOldMessagesGroups: boolean;
  closedTicketsPostImported: boolean;
  /** The import of old messages (D78): '' | preparing | running | renderButtonCloseTickets. */
  statusImportMessages: string;
  /** When the import shown began (ISO), or null. */
  importStartedAt?: string | null;
  collectiveVacationStart: string | null;
  collectiveVacationEnd: string | null;
  collectiveVacationMessage: string;
  integrationId: number | null;
  promptId: number | null;
  flowIdWelcome: number | null;
  flowIdNotPhrase: number | null;
  createdAt: string;
  updatedAt: string;
}

/** One row of the platform owner's overview (GET /whatsapp/all, decisions D22). */
export interface ConnectionSummary {
  id: number;
  companyId: number;
  company: { id: number; name: string };
  name: string;
  number: string;
  channel: ConnectionChannel;
  status: ConnectionStatus;
  isDefault: boolean;
  updatedAt: string;
}

export interface ConnectionSummaryPage {
  whatsapps: ConnectionSummary[];
  hasMore: boolean;
  nextCursor?: string;
}

/** The answer of the session actions: a message and the connection in its waiting status. */
export interface SessionAnswer {
  message: string;
  whatsapp: ConnectionView;
}

/** An import's progress as the screens get it (`importMessages-{companyId}` update, decisions D78). */
export interface ImportProgressView {
  whatsappId: number;
  this: number;
  all: number;
  state: 'preparing' | 'running';
  startedAt: string;
}

/** POST /closedimported/{id}: closes the pending tickets the last import created (at most 500 a call). */
export interface ClosedImportedAnswer {
  closed: number;
  hasMore: boolean;
}

/** A page (or Instagram account) the Facebook login found but did not connect. */
export interface SkippedMetaTarget {
  channel: Extract<ConnectionChannel, 'facebook' | 'instagram' | 'whatsappapi'>;
  externalId: string;
  name: string;
  /** 'connected-elsewhere': another company connected it. */
  reason: string;
}

/** What POST /facebook answers (decisions D40). */
export interface FacebookConnectResult {
  created: ConnectionView[];
  updated: ConnectionView[];
  skipped: SkippedMetaTarget[];
}

// ------------------------------------------------------------------------------------------ bodies

const name = z.string({ error: 'Required' }).trim().min(2, 'Too Short!').max(50, 'Too Long!');
const text = z.string().max(4096);
const time = z.union([z.literal(''), z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM')]);
const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, 'must be a date (YYYY-MM-DD)')
  .refine((s) => !Number.isNaN(Date.parse(s)), 'must be a valid date');
/** Empty, null or a date; empty means none (the reference form sends '' for an unset date). */
const optionalDate = z.union([z.literal('').transform(() => null), z.null(), date]);
/** Whole numbers; the reference form sends some as strings ('' meaning 0). */
const count = (max: number) =>
  z.preprocess(
    (v) => (v === '' || v === null ? 0 : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ error: 'must be a whole number' }).int('must be a whole number').min(0).max(max),
  );
const reference = z.preprocess(
  (v) => (v === '' || v === 0 || v === '0' ? null : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
  z.number().int().positive().nullable(),
);
const MINUTES_IN_A_YEAR = 525_600;

const schedule = z.object({
  weekday: z.string().trim().min(1).max(20),
  weekdayEn: z.enum(WEEKDAYS_EN),
  startTimeA: time,
  endTimeA: time,
  startTimeB: time,
  endTimeB: time,
});

/** The fields an admin edits (and `channel`, on create only). */
const connectionFields = {
  name,
  channel: z.enum(['whatsapp', 'facebook', 'instagram'], { error: 'must be whatsapp, facebook or instagram' }),
  isDefault: z.boolean(),
  queueIds: z
    .array(z.number().int().positive())
    .max(100)
    .refine((ids) => new Set(ids).size === ids.length, 'must not repeat a queue'),
  schedules: z
    .array(schedule)
    .max(7)
    .refine((s) => new Set(s.map((d) => d.weekdayEn)).size === s.length, 'one entry per weekday'),
  greetingMessage: text,
  complationMessage: text,
  outOfHoursMessage: text,
  ratingMessage: text,
  sendIdQueue: reference,
  timeSendQueue: count(MINUTES_IN_A_YEAR),
  maxUseBotQueues: count(100),
  maxUseBotQueuesNPS: count(100),
  timeUseBotQueues: count(MINUTES_IN_A_YEAR),
  provider: z.enum(['beta', 'stable']),
  expiresTicket: count(MINUTES_IN_A_YEAR),
  expiresTicketNPS: count(MINUTES_IN_A_YEAR),
  expiresInactiveMessage: text,
  timeInactiveMessage: count(MINUTES_IN_A_YEAR),
  inactiveMessage: text,
  whenExpiresTicket: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.enum(['0', '1'])),
  timeCreateNewTicket: count(MINUTES_IN_A_YEAR),
  allowGroup: z.boolean(),
  groupAsTicket: z.enum(['enabled', 'disabled']),
  importOldMessages: optionalDate,
  importRecentMessages: optionalDate,
  importOldMessagesGroups: z.boolean(),
  closedTicketsPostImported: z.boolean(),
  collectiveVacationStart: optionalDate,
  collectiveVacationEnd: optionalDate,
  collectiveVacationMessage: text,
  integrationId: reference,
  promptId: reference,
  flowIdWelcome: reference,
  flowIdNotPhrase: reference,
};

/** POST /whatsapp (managers): the name, and any settings. */
export const createConnectionBody = z.object(connectionFields).partial().required({ name: true });
export type CreateConnectionBody = z.input<typeof createConnectionBody>;
/** PUT /whatsapp/{id}: only the fields sent change, and only their rules are checked (D22). */
export const updateConnectionBody = z.object(connectionFields).partial();

/**
 * The settings an admin edits, as the view shows them: the browser sends them back in the same form (the
 * schema also takes the reference form's text numbers, hence the view's types rather than the schema's).
 */
export type ConnectionSettings = Pick<ConnectionView, Exclude<keyof typeof connectionFields, 'channel'>>;

/** POST /facebook: the login's short-lived user token; `me` when the login answered no user id (D40, D81). */
export const connectFacebookBody = z.object({
  facebookUserId: z
    .union([z.string(), z.number()])
    .transform(String)
    .pipe(z.string().regex(/^(\d{1,40}|me)$/, 'must be a Facebook user id or me')),
  facebookUserToken: z.string({ error: 'Required' }).min(10, 'Too Short!').max(4096, 'Too Long!'),
  addInstagram: z.boolean().default(false),
});
export type ConnectFacebookBody = z.input<typeof connectFacebookBody>;

/** POST /whatsapp/cloud-api (D76): the ids and the permanent token from Meta's WhatsApp Manager. */
export const connectCloudApiBody = z.object({
  name: name.optional(),
  phoneNumberId: z.string({ error: 'Required' }).regex(/^\d{5,30}$/, 'must be the phone number id (digits)'),
  /** A permanent (system user) access token: sent once, stored encrypted, never answered. */
  accessToken: z
    .string({ error: 'Required' })
    .trim()
    .min(20, 'Too Short!')
    .max(4096, 'Too Long!')
    .regex(/^[\w.|-]+$/, 'must be an access token'),
  businessAccountId: z
    .string()
    .regex(/^\d{5,30}$/, 'must be the WhatsApp Business Account id (digits)')
    .optional(),
});
export type ConnectCloudApiBody = z.input<typeof connectCloudApiBody>;
