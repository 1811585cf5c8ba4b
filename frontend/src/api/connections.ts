import { api } from './transport';

/**
 * Connections (core spec §3 Connection, §4, §7 Connections; decisions D22–D25): the typed client of
 * functions/http/connections. Everyone in the company reads; connection managers (admins, super users and
 * plain users with allowConnections) change. The spec's `session=0` query is sent as the reference client
 * does; the server ignores it. `whatsappapi` is a WhatsApp Cloud API number (D76): like facebook and
 * instagram it has no session to start or stop.
 */
export type ConnectionChannel = 'whatsapp' | 'facebook' | 'instagram' | 'whatsappapi';

/** Core spec §4; 'connecting' is also seen in the field and shown like OPENING. */
export type ConnectionStatus = 'qrcode' | 'PAIRING' | 'DISCONNECTED' | 'TIMEOUT' | 'OPENING' | 'CONNECTED';

/** Statuses that need attention (core spec §4): the menu's exclamation badge. */
export const ATTENTION_STATUSES: readonly string[] = ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'];

export const needsAttention = (status: string): boolean => ATTENTION_STATUSES.includes(status);

export type Weekday = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';

/** One day of the connection's service hours: two shifts, A and B, HH:MM ('' for none). */
export interface ScheduleEntry {
  weekday: string;
  weekdayEn: Weekday;
  startTimeA: string;
  endTimeA: string;
  startTimeB: string;
  endTimeB: string;
}

/** The fields an admin edits (functions/http/connections/index.ts `connectionFields`). */
export interface ConnectionSettings {
  name: string;
  isDefault: boolean;
  queueIds: number[];
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
  importOldMessages: string | null;
  importRecentMessages: string | null;
  importOldMessagesGroups: boolean;
  closedTicketsPostImported: boolean;
  collectiveVacationStart: string | null;
  collectiveVacationEnd: string | null;
  collectiveVacationMessage: string;
  integrationId: number | null;
  promptId: number | null;
  flowIdWelcome: number | null;
  flowIdNotPhrase: number | null;
}

/** A connection as the API shows it (functions/core/connections/connection-service.ts `ConnectionView`). */
export interface Connection extends ConnectionSettings {
  id: number;
  companyId: number;
  number: string;
  channel: ConnectionChannel;
  status: ConnectionStatus;
  /** The external API's bearer: only connection managers receive it. */
  token?: string;
  qrcode: string;
  retries: number;
  queues: { id: number; name: string; color: string }[];
  /** The greeting attachment's address (`/media/...`), or null. */
  greetingMediaAttachment: string | null;
  /** The import of old messages (D78): '' | preparing | running | renderButtonCloseTickets. */
  statusImportMessages: string;
  /** When the import shown began (ISO), or null. */
  importStartedAt?: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What a create sends: the name, the channel and any settings; an update sends only what changed. */
export type ConnectionInput = Partial<ConnectionSettings> & { channel?: ConnectionChannel };

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
  whatsapp: Connection;
}

/** The greeting attachment route takes files up to 2.5 MB (decisions D25). */
export const GREETING_MEDIA_MAX_BYTES = 2.5 * 1024 * 1024;

interface CallOptions {
  signal?: AbortSignal;
}

const SESSION = { session: 0 };
const connectionPath = (id: number) => `/whatsapp/${encodeURIComponent(String(id))}`;
const sessionPath = (id: number) => `/whatsappsession/${encodeURIComponent(String(id))}`;

/** GET /whatsapp: the company's connections (the token only for managers). */
export const listConnections = (options: CallOptions = {}): Promise<Connection[]> =>
  api().get<Connection[]>('/whatsapp', { ...options, query: SESSION });

/** GET /whatsapp/{id}?session=0 */
export const getConnection = (id: number, options: CallOptions = {}): Promise<Connection> =>
  api().get<Connection>(connectionPath(id), { ...options, query: SESSION });

/** POST /whatsapp (managers; the channel needs its plan flag and a free seat, ERR_PLAN_LIMIT_CONNECTIONS). */
export const createConnection = (input: ConnectionInput & { name: string }): Promise<Connection> =>
  api().post<Connection>('/whatsapp', input);

/** PUT /whatsapp/{id}: only the fields sent change, and only their rules are checked (D22). */
export const updateConnection = (id: number, input: ConnectionInput): Promise<Connection> =>
  api().put<Connection>(connectionPath(id), input);

/** DELETE /whatsapp/{id}: the default only as the company's last connection (ERR_NO_OTHER_WHATSAPP, D23). */
export const deleteConnection = async (id: number): Promise<void> => {
  await api().delete<unknown>(connectionPath(id));
};

/** POST /whatsappsession/{id}: try again (start the session). */
export const startSession = (id: number): Promise<SessionAnswer> => api().post<SessionAnswer>(sessionPath(id));

/** PUT /whatsappsession/{id}: forget the pairing and show a new QR code. */
export const renewQrCode = (id: number): Promise<SessionAnswer> => api().put<SessionAnswer>(sessionPath(id));

/** DELETE /whatsappsession/{id}: disconnect. */
export const disconnectSession = (id: number): Promise<SessionAnswer> => api().delete<SessionAnswer>(sessionPath(id));

/** The QR codes the local simulator driver shows (functions/channels/whatsapp/simulator-driver.ts). */
export const SIMULATOR_QR_PREFIX = 'zapdesk-sim:';

export const isSimulatorQrCode = (qrcode: string | null | undefined): boolean =>
  typeof qrcode === 'string' && qrcode.startsWith(SIMULATOR_QR_PREFIX);

/**
 * POST /simulator/{whatsappId}/scan: the phone simulator "reads" the QR code a simulated session shows
 * (DESIGN §6; only where the workers run the simulator driver, else 404). The session then answers
 * PAIRING and CONNECTED through the usual events.
 */
export const scanSimulatorQrCode = (id: number): Promise<SessionAnswer> =>
  api().post<SessionAnswer>(`/simulator/${encodeURIComponent(String(id))}/scan`);

/** POST /whatsapp/{id}/media-upload, multipart `file`: the greeting attachment; answers the connection. */
export const uploadGreetingMedia = (id: number, file: File): Promise<Connection> => {
  const form = new FormData();
  form.append('file', file, file.name);
  return api().post<Connection>(`${connectionPath(id)}/media-upload`, form);
};

/** DELETE /whatsapp/{id}/media-upload: removes the greeting attachment. */
export const deleteGreetingMedia = (id: number): Promise<Connection> =>
  api().delete<Connection>(`${connectionPath(id)}/media-upload`);

/** What POST /whatsapp/cloud-api takes (decisions D76): the ids and the token from Meta's WhatsApp Manager. */
export interface CloudApiInput {
  name?: string;
  phoneNumberId: string;
  /** A permanent (system user) access token: sent once, stored encrypted, never answered. */
  accessToken: string;
  businessAccountId?: string;
}

/**
 * POST /whatsapp/cloud-api: a WhatsApp Cloud API number becomes a CONNECTED `whatsappapi` connection (201).
 * 400 field errors, 400 ERR_META_GRAPH (Meta refused the token or id), 409 ERR_META_ALREADY_CONNECTED,
 * 403 ERR_PLAN_LIMIT_CONNECTIONS / ERR_NO_PERMISSION, 503 ERR_META_NOT_CONFIGURED.
 */
export const connectCloudApiNumber = (input: CloudApiInput): Promise<Connection> =>
  api().post<Connection>('/whatsapp/cloud-api', input);

/** What POST /facebook takes: the login's short-lived user token; `me` when the login answered no user id. */
export interface FacebookLoginInput {
  facebookUserId: string;
  facebookUserToken: string;
  addInstagram: boolean;
}

/** A page (or Instagram account) the login found but did not connect; reasons in functions/channels/meta. */
export interface SkippedMetaTarget {
  channel: ConnectionChannel;
  externalId: string;
  name: string;
  /** 'connected-elsewhere': another company connected it. */
  reason: string;
}

export interface FacebookConnectResult {
  created: Connection[];
  updated: Connection[];
  skipped: SkippedMetaTarget[];
}

/**
 * POST /facebook (decisions D40): every page the user manages becomes a `facebook` connection (and each
 * linked Instagram business account an `instagram` one with `addInstagram`); pages already connected here
 * get the new token.
 */
export const connectFacebookPages = (input: FacebookLoginInput): Promise<FacebookConnectResult> =>
  api().post<FacebookConnectResult>('/facebook', input);

/** GET /whatsapp/all (super): one page of 100 summaries of every company's connections. */
export const listAllConnections = (
  cursor: string | undefined,
  options: CallOptions = {},
): Promise<ConnectionSummaryPage> =>
  api().get<ConnectionSummaryPage>('/whatsapp/all', { ...options, query: { ...SESSION, cursor } });

export type ScheduleType = 'disabled' | 'queue' | 'company' | 'connection';

/**
 * The company settings the connection dialog depends on (GET /companySettingOne?column=...): the schedule
 * type (the schedules tab shows only for 'connection') and ticket rating (then NPS fields are required).
 */
export const getCompanySettingOne = async <T extends string>(
  column: 'scheduleType' | 'userRating',
  options: CallOptions = {},
): Promise<T | undefined> => {
  const answer = await api().get<Record<string, unknown>>('/companySettingOne', { ...options, query: { column } });
  const value = answer[column];
  return typeof value === 'string' ? (value as T) : undefined;
};

/** Realtime channels of the connections (core spec §7). */
export const connectionChannel = (companyId: number) => `company-${companyId}-whatsapp`;
/** The import of old messages' progress (D78). */
export const importChannel = (companyId: number) => `importMessages-${companyId}`;

export interface ImportProgress {
  whatsappId: number;
  this: number;
  all: number;
  state: 'preparing' | 'running';
  startedAt: string;
}

/** POST /closedimported/{id}: closes the pending tickets the last import created (at most 500 a call). */
export const closeImportedTickets = (id: number): Promise<{ closed: number; hasMore: boolean }> =>
  api().post<{ closed: number; hasMore: boolean }>(`/closedimported/${encodeURIComponent(String(id))}`);
export const sessionChannel = (companyId: number) => `company-${companyId}-whatsappSession`;
