import type {
  ClosedImportedAnswer,
  ConnectCloudApiBody,
  ConnectFacebookBody,
  ConnectionChannel,
  ConnectionSettings,
  ConnectionStatus,
  ConnectionSummary,
  ConnectionSummaryPage,
  ConnectionView,
  FacebookConnectResult,
  ImportProgressView,
  SessionAnswer,
  SkippedMetaTarget,
  Weekday,
} from '@contracts/connections';
import type { ScheduleEntry } from '@contracts/queues';
import { api } from './transport';

/**
 * Connections (core spec §3 Connection, §4, §7 Connections; decisions D22–D25): the typed client of
 * functions/http/connections. Everyone in the company reads; connection managers (admins, super users and
 * plain users with allowConnections) change. The spec's `session=0` query is sent as the reference client
 * does; the server ignores it. `whatsappapi` is a WhatsApp Cloud API number (D76): like facebook and
 * instagram it has no session to start or stop. The wire shapes are the server's contract
 * (functions/contracts/connections.ts).
 */
export type {
  ConnectionChannel,
  ConnectionSettings,
  ConnectionStatus,
  ConnectionSummary,
  ConnectionSummaryPage,
  FacebookConnectResult,
  ScheduleEntry,
  SessionAnswer,
  SkippedMetaTarget,
  Weekday,
};
/** A connection as the API shows it (the token only for connection managers). */
export type Connection = ConnectionView;
/** What the `importMessages-{companyId}` update carries (D78). */
export type ImportProgress = ImportProgressView;

/** Statuses that need attention (core spec §4): the menu's exclamation badge. */
export const ATTENTION_STATUSES: readonly string[] = ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'];

export const needsAttention = (status: string): boolean => ATTENTION_STATUSES.includes(status);

/**
 * What a create sends: the name, the channel and any settings; an update sends only what changed. The
 * settings go back as the view shows them. The create body takes whatsapp, facebook or instagram: a Cloud
 * API number (`whatsappapi`) is created by connectCloudApiNumber.
 */
export type ConnectionInput = Partial<ConnectionSettings> & Partial<Pick<ConnectionView, 'channel'>>;

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
export type CloudApiInput = ConnectCloudApiBody;

/**
 * POST /whatsapp/cloud-api: a WhatsApp Cloud API number becomes a CONNECTED `whatsappapi` connection (201).
 * 400 field errors, 400 ERR_META_GRAPH (Meta refused the token or id), 409 ERR_META_ALREADY_CONNECTED,
 * 403 ERR_PLAN_LIMIT_CONNECTIONS / ERR_NO_PERMISSION, 503 ERR_META_NOT_CONFIGURED.
 */
export const connectCloudApiNumber = (input: CloudApiInput): Promise<Connection> =>
  api().post<Connection>('/whatsapp/cloud-api', input);

/** What POST /facebook takes: the login's short-lived user token; `me` when the login answered no user id. */
export type FacebookLoginInput = ConnectFacebookBody;

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

/** POST /closedimported/{id}: closes the pending tickets the last import created (at most 500 a call). */
export const closeImportedTickets = (id: number): Promise<ClosedImportedAnswer> =>
  api().post<ClosedImportedAnswer>(`/closedimported/${encodeURIComponent(String(id))}`);
