import { randomUUID } from 'node:crypto';
import { getIntegration, getPrompt } from '../../data/integration-repository';
import type { ConnectionSummaryPage, ConnectionView } from '../../contracts/connections';
import { config } from '../../shared/config';
import type { PlanFlag } from '../../shared/auth-context';
import type { AuthContext } from '../../shared/auth-context';
import { BadRequest, Forbidden, NotFound, type FieldError } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import type { SameKeys } from '../../shared/same-keys';
import { detectAttachmentType, safeFileName } from '../media/attachments';
import { fetchPage, type PagingInput } from '../paging';
import { getCompanySettingOne } from '../settings/company-settings';
import { getCompany } from '../../data/company-repository';
import {
  CONNECTION_DEFAULTS,
  createConnection,
  deleteConnection,
  getCompanyNames,
  getConnection,
  getConnectionCompanyId,
  listAllConnections,
  listConnections,
  setGreetingMedia,
  setSessionState,
  updateConnection,
  type Connection,
  type ConnectionChannel,
  type ConnectionChanges,
  type ConnectionStatus,
  type SessionCommand,
} from '../../data/connection-repository';
import { deleteMediaObject, mediaUrl, putMediaObject } from '../../data/media-store';
import { deleteMetaLink } from '../../data/meta-repository';
import { getPlan } from '../../data/plan-repository';
import { sendQueueMessage } from '../../data/queue-sender';
import { listQueues } from '../../data/queue-repository';
import { listUserIdsWithFlag } from '../../data/user-permission-repository';
import { adminsAnd, publish } from '../notifier';
import { connectionRuleErrors } from './connection-rules';

/**
 * Connections (core spec §2 Connections, §3, §4 Connection, §5, §7 Connections; docs/data-model.md §2.9).
 * Everyone in a company reads its connections (ticket filters and the new-ticket dialog pick one); only
 * "connection managers" change them: admins, super users and plain users with `allowConnections` enabled
 * (spec §6 treats those as admins for the connections page). The WhatsApp sessions themselves run in the
 * worker (next item): this service records what was asked, sets the status shown while waiting, and sends
 * a command on the `worker-control` queue (decisions D24).
 */
export const canManageConnections = (auth: AuthContext): boolean =>
  auth.profile === 'admin' || auth.super || auth.userFlags.allowConnections === true;

export const requireManager = (auth: AuthContext): void => {
  if (!canManageConnections(auth)) throw new Forbidden('ERR_NO_PERMISSION', 'Connections are managed by admins');
};

const CHANNEL_FLAGS: Record<ConnectionChannel, PlanFlag> = {
  whatsapp: 'useWhatsapp',
  facebook: 'useFacebook',
  instagram: 'useInstagram',
  whatsappapi: 'useWhatsapp',
};

export const requireChannelInPlan = (auth: AuthContext, channel: ConnectionChannel): void => {
  if (auth.planFlags[CHANNEL_FLAGS[channel]] === false) {
    throw new Forbidden('ERR_NO_PERMISSION', `The plan does not include ${channel} connections`);
  }
};

/** How many connections the company's plan allows (undefined: no plan found, no limit is enforced). */
export const planConnectionLimit = async (companyId: number): Promise<number | undefined> => {
  const company = await getCompany(companyId);
  const plan = company ? await getPlan(company.planId) : null;
  return plan?.connections;
};

/** Fields that never leave the server: the optimistic-lock version and the worker bookkeeping. */
type Internal = 'version' | 'sessionCommand' | 'sessionCommandAt';

/** The view is the stored connection without those, its token only for managers, plus its queues. */
const _sameKeys: SameKeys<Omit<Connection, Internal> & Pick<ConnectionView, 'queues'>, ConnectionView> = true;

const viewsOf = async (
  companyId: number,
  connections: Connection[],
  options: { withToken: boolean },
): Promise<ConnectionView[]> => {
  const queues = new Map((await listQueues(companyId)).map((q) => [q.id, { id: q.id, name: q.name, color: q.color }]));
  return connections.map((stored) => {
    const { version: _v, sessionCommand: _c, sessionCommandAt: _a, token, ...c } = stored;
    return {
      ...c,
      ...(options.withToken ? { token } : {}),
      greetingMediaAttachment: c.greetingMediaAttachment ? mediaUrl(c.greetingMediaAttachment) : null,
      queues: (c.queueIds ?? []).flatMap((id) => queues.get(id) ?? []),
    };
  });
};

const viewOf = async (connection: Connection, options: { withToken: boolean }): Promise<ConnectionView> =>
  (await viewsOf(connection.companyId, [connection], options))[0]!;

const notFound = () => new NotFound('ERR_NO_WAPP_FOUND', 'Connection not found');

/** Another company's connection id answers exactly like a missing one. */
export const findInCompany = async (companyId: number, id: number): Promise<Connection> => {
  const connection = await getConnection(companyId, id);
  if (!connection) throw notFound();
  return connection;
};

/**
 * Tells the company's connection managers (admins, super users, `allowConnections` users) that
 * connections changed: `company-{id}-whatsapp` update (and `company-{id}-whatsappSession` update for
 * session changes). A failure to publish is logged; the change stands and screens refetch on reconnect.
 */
const announce = async (
  companyId: number,
  changed: Connection[],
  options: { session?: boolean; deletedId?: number } = {},
): Promise<void> => {
  try {
    const audience = adminsAnd(await listUserIdsWithFlag(companyId, 'allowConnections'));
    const views = await viewsOf(companyId, changed, { withToken: true });
    for (const view of views) {
      if (options.session) {
        await publish(companyId, { channel: 'whatsappSession', action: 'update', session: view }, audience);
      }
      await publish(companyId, { channel: 'whatsapp', action: 'update', whatsapp: view }, audience);
    }
    if (options.deletedId !== undefined) {
      await publish(companyId, { channel: 'whatsapp', action: 'delete', whatsappId: options.deletedId }, audience);
    }
  } catch (err) {
    logger.warn('connection event not sent', { companyId, ...errorFields(err) });
  }
};

/** The previous default, whose `isDefault` just turned false, re-read so the event shows it as it is now. */
const withPreviousDefault = async (companyId: number, previousDefaultId: number | null): Promise<Connection[]> => {
  if (previousDefaultId === null) return [];
  const previous = await getConnection(companyId, previousDefaultId);
  return previous ? [previous] : [];
};

// ---------------------------------------------------------------------------------------------------------
// Session commands (worker-control)

/** The message the WhatsApp workers consume from `worker-control` (decisions D24). */
export interface SessionCommandMessage {
  companyId: number;
  whatsappId: number;
  command: SessionCommand;
  /** Equals the connection's `sessionCommandAt` while this is the latest command asked for. */
  requestedAt: string;
}

/**
 * What the connection shows while the worker carries a command out (spec §4 statuses). A scan changes
 * nothing until the session answers (PAIRING, then CONNECTED).
 */
const WAITING: Record<SessionCommand, { status?: ConnectionStatus; qrcode?: string; retries?: number }> = {
  start: { status: 'OPENING', qrcode: '', retries: 0 },
  'new-qr': { status: 'OPENING', qrcode: '', retries: 0 },
  restart: { status: 'OPENING' },
  disconnect: { status: 'DISCONNECTED', qrcode: '' },
  scan: {},
};

const sendCommand = (message: SessionCommandMessage) => sendQueueMessage('worker-control', message);

/**
 * Records the command and the waiting status on the connection, announces it, then sends the command —
 * in that order, so the worker's answer (a QR code, CONNECTED) can never reach the browsers before the
 * waiting status it replaces. If the queue cannot take the command, the connection shows DISCONNECTED (so
 * the screen offers "try again") and the caller gets the 503.
 */
const runSessionCommand = async (connection: Connection, command: SessionCommand): Promise<Connection> => {
  if (connection.channel !== 'whatsapp') {
    throw new BadRequest('ERR_VALIDATION', 'Sessions exist only for WhatsApp connections', [
      { field: 'params.id', reason: `is a ${connection.channel} connection` },
    ]);
  }
  const { companyId, id } = connection;
  const at = new Date().toISOString();
  const waiting = await setSessionState(companyId, id, { ...WAITING[command], command, at });
  if (WAITING[command].status !== undefined) await announce(companyId, [waiting], { session: true });
  try {
    await sendCommand({ companyId, whatsappId: id, command, requestedAt: at });
  } catch (err) {
    if (command !== 'disconnect' && command !== 'scan') {
      const failed = await setSessionState(companyId, id, { status: 'DISCONNECTED', at: new Date().toISOString() });
      await announce(companyId, [failed], { session: true });
    }
    throw err;
  }
  return waiting;
};

/**
 * The WhatsApp worker's announcement of a session change it wrote (status, QR code, number): the same
 * events, audience and view as the API's own changes (decisions D24).
 */
export const announceSessionChange = (connection: Connection): Promise<void> =>
  announce(connection.companyId, [connection], { session: true });

// ---------------------------------------------------------------------------------------------------------
// Reading

export const listCompanyConnections = async (
  auth: AuthContext,
  filter: { channel?: ConnectionChannel | undefined } = {},
): Promise<ConnectionView[]> =>
  viewsOf(auth.companyId, await listConnections(auth.companyId, filter), { withToken: canManageConnections(auth) });

export const showConnection = async (auth: AuthContext, id: number): Promise<ConnectionView> =>
  viewOf(await findInCompany(auth.companyId, id), { withToken: canManageConnections(auth) });

/** Super: any company's connection by its platform-unique id (never its token: it is that tenant's secret). */
export const showAnyConnection = async (auth: AuthContext, id: number): Promise<ConnectionView> => {
  if (!auth.super) throw new Forbidden();
  const companyId = await getConnectionCompanyId(id);
  if (companyId === null) throw notFound();
  return viewOf(await findInCompany(companyId, id), { withToken: false });
};

export const ALL_CONNECTIONS_PAGE_SIZE = 100;

/**
 * Super: every company's connections, by company then id, one page of 100 per call (gsi2 `WHATSAPPS`,
 * O(page)). The overview's per-company counts (connected, disconnected, total) are sums over the pages;
 * a summary per connection keeps the page small and carries no tenant configuration or token.
 */
export const listEveryConnection = async (auth: AuthContext, paging: PagingInput): Promise<ConnectionSummaryPage> => {
  if (!auth.super) throw new Forbidden();
  const page = await fetchPage(paging, ALL_CONNECTIONS_PAGE_SIZE, (cursor) =>
    listAllConnections({ limit: ALL_CONNECTIONS_PAGE_SIZE, cursor }),
  );
  const names = await getCompanyNames(page.items.map((c) => c.companyId));
  return {
    whatsapps: page.items.map((c) => ({
      id: c.id,
      companyId: c.companyId,
      company: { id: c.companyId, name: names.get(c.companyId) ?? '' },
      name: c.name,
      number: c.number,
      channel: c.channel,
      status: c.status,
      isDefault: c.isDefault,
      updatedAt: c.updatedAt,
    })),
    hasMore: page.hasMore,
    ...(page.nextCursor ? ({ nextCursor: page.nextCursor } satisfies Partial<ConnectionSummaryPage>) : {}),
  };
};

// ---------------------------------------------------------------------------------------------------------
// Create, update, delete

/** What an admin sends (the wire's editable fields); `channel` only on create, `isDefault` moves the default. */
export type ConnectionInput = Omit<
  ConnectionChanges,
  'status' | 'qrcode' | 'retries' | 'number' | 'statusImportMessages' | 'importStartedAt'
> & {
  channel?: ConnectionChannel;
  isDefault?: boolean;
};

type RuleState = Parameters<typeof connectionRuleErrors>[0] & {
  sendIdQueue: number | null;
  queueIds: number[];
  integrationId?: number | null;
  promptId?: number | null;
};

/**
 * Every cross-field rule and unknown queue at once, so one 400 names each field; nothing is written.
 * `touched`: the fields an update sends (only their rules and queue references are checked).
 */
const checkRules = async (auth: AuthContext, state: RuleState, touched?: ReadonlySet<string>): Promise<void> => {
  const npsInUse = (await getCompanySettingOne(auth, 'userRating')).userRating === 'enabled';
  const errors: FieldError[] = connectionRuleErrors(state, { npsInUse, ...(touched ? { touched } : {}) });
  const queuesTouched = !touched || touched.has('queueIds') || touched.has('sendIdQueue');
  const referenced = [...state.queueIds, ...(state.sendIdQueue === null ? [] : [state.sendIdQueue])];
  if (queuesTouched && referenced.length > 0) {
    const known = new Set((await listQueues(auth.companyId)).map((q) => q.id));
    const unknown = state.queueIds.filter((q) => !known.has(q));
    if (unknown.length > 0) errors.push({ field: 'body.queueIds', reason: `no queue ${unknown.join(', ')}` });
    if (state.sendIdQueue !== null && !known.has(state.sendIdQueue)) {
      errors.push({ field: 'body.sendIdQueue', reason: `no queue ${state.sendIdQueue}` });
    }
  }
  // The integration and the AI prompt the connection answers with must be the company's (decisions D162).
  if ((!touched || touched.has('integrationId')) && typeof state.integrationId === 'number') {
    if (!(await getIntegration(auth.companyId, state.integrationId))) {
      errors.push({ field: 'body.integrationId', reason: 'no such integration' });
    }
  }
  if ((!touched || touched.has('promptId')) && typeof state.promptId === 'number') {
    if (!(await getPrompt(auth.companyId, state.promptId)))
      errors.push({ field: 'body.promptId', reason: 'no such prompt' });
  }
  if (errors.length === 0) return;
  const onlyGreeting = errors.every((e) => e.field === 'body.greetingMessage');
  throw new BadRequest(
    onlyGreeting ? 'ERR_WAPP_GREETING_REQUIRED' : 'ERR_VALIDATION',
    onlyGreeting ? 'A greeting message is required with more than one queue' : 'Invalid connection',
    errors,
  );
};

const defined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/**
 * Creates a connection (POST /whatsapp). A WhatsApp connection starts its session at once, like the
 * reference product: it is stored OPENING and a `start` command goes to the workers, which then publish
 * `qrcode` with the code to scan (decisions D22). Facebook and Instagram connections wait for their Meta
 * login (POST /facebook, a later item) as DISCONNECTED.
 */
export const createCompanyConnection = async (
  auth: AuthContext,
  input: ConnectionInput & { name: string },
): Promise<ConnectionView> => {
  requireManager(auth);
  const channel = input.channel ?? 'whatsapp';
  requireChannelInPlan(auth, channel);
  const { isDefault, channel: _channel, ...fields } = input;
  await checkRules(auth, { ...CONNECTION_DEFAULTS, queueIds: [], ...defined(fields) } as RuleState);

  const maxConnections = await planConnectionLimit(auth.companyId);
  const at = new Date().toISOString();
  const whatsapp = channel === 'whatsapp';
  const { connection, previousDefaultId } = await createConnection(
    auth.companyId,
    {
      ...defined(fields),
      name: fields.name,
      channel,
      status: whatsapp ? 'OPENING' : 'DISCONNECTED',
      ...(whatsapp ? { sessionCommand: 'start' as const, sessionCommandAt: at } : {}),
    },
    { ...(maxConnections === undefined ? {} : { maxConnections }), makeDefault: isDefault === true },
  );

  // Announced before the worker gets its command, so its QR code never reaches a browser first.
  await announce(auth.companyId, [connection, ...(await withPreviousDefault(auth.companyId, previousDefaultId))], {
    session: whatsapp,
  });
  let created = connection;
  if (whatsapp) {
    try {
      await sendCommand({ companyId: auth.companyId, whatsappId: connection.id, command: 'start', requestedAt: at });
    } catch (err) {
      // The connection exists; without a worker command it shows DISCONNECTED, whose "try again" resends it.
      logger.warn('start command not sent for a new connection', {
        companyId: auth.companyId,
        whatsappId: connection.id,
        ...errorFields(err),
      });
      created = await setSessionState(auth.companyId, connection.id, {
        status: 'DISCONNECTED',
        at: new Date().toISOString(),
      });
      await announce(auth.companyId, [created], { session: true });
    }
  }
  return viewOf(created, { withToken: true });
};

/**
 * Changes a connection (PUT /whatsapp/{id}); only the fields sent change. `isDefault: true` takes the
 * default from the current one in the same transaction; `isDefault: false` on the default is refused
 * (ERR_NO_OTHER_WHATSAPP: a company with connections always has one default, decisions D23). Enabling
 * or changing the old-message import of a CONNECTED WhatsApp connection drops its session so the phone
 * is paired again and history syncs (spec §4): status `qrcode`, command `new-qr`.
 */
export const updateCompanyConnection = async (
  auth: AuthContext,
  id: number,
  input: ConnectionInput,
): Promise<ConnectionView> => {
  requireManager(auth);
  const current = await findInCompany(auth.companyId, id);
  const { isDefault, channel, ...fields } = input;
  if (channel !== undefined && channel !== current.channel) {
    throw new BadRequest('ERR_VALIDATION', 'The channel of a connection cannot change', [
      { field: 'body.channel', reason: `cannot change from ${current.channel}` },
    ]);
  }
  if (isDefault === false && current.isDefault) {
    throw new BadRequest('ERR_NO_OTHER_WHATSAPP', 'Make another connection the default instead', [
      { field: 'body.isDefault', reason: 'a company with connections needs one default connection' },
    ]);
  }
  const changes = defined(fields) as ConnectionChanges;
  await checkRules(auth, { ...current, ...changes } as RuleState, new Set(Object.keys(changes)));

  const at = new Date().toISOString();
  const dropsSession =
    current.channel === 'whatsapp' &&
    current.status === 'CONNECTED' &&
    typeof changes.importOldMessages === 'string' &&
    changes.importOldMessages !== current.importOldMessages;
  const { connection, previousDefaultId } = await updateConnection(
    current,
    {
      ...changes,
      ...(dropsSession
        ? { status: 'qrcode' as const, qrcode: '', retries: 0, sessionCommand: 'new-qr' as const, sessionCommandAt: at }
        : {}),
    },
    { makeDefault: isDefault === true },
  );
  await announce(auth.companyId, [connection, ...(await withPreviousDefault(auth.companyId, previousDefaultId))], {
    session: dropsSession,
  });
  if (dropsSession) {
    await sendCommand({ companyId: auth.companyId, whatsappId: id, command: 'new-qr', requestedAt: at });
  }
  return viewOf(connection, { withToken: true });
};

/**
 * Deletes a connection (DELETE /whatsapp/{id}): the default only as the company's last connection
 * (decisions D23). A WhatsApp connection's session is ended by a `disconnect` command (the worker logs out,
 * releases the lease and purges the auth state); its greeting attachment is removed.
 */
export const deleteCompanyConnection = async (auth: AuthContext, id: number): Promise<void> => {
  requireManager(auth);
  const removed = await deleteConnection(auth.companyId, id);
  if (removed.channel === 'whatsapp') {
    try {
      await sendCommand({
        companyId: auth.companyId,
        whatsappId: id,
        command: 'disconnect',
        requestedAt: new Date().toISOString(),
      });
    } catch (err) {
      // The worker also drops sessions whose connection item is gone (its lease sweep, D24).
      logger.warn('disconnect command not sent for a deleted connection', {
        companyId: auth.companyId,
        whatsappId: id,
        ...errorFields(err),
      });
    }
  }
  if (removed.channel !== 'whatsapp') {
    // Its Meta routing pointer and encrypted token (decisions D40): webhooks for the page stop finding it.
    await deleteMetaLink(auth.companyId, id).catch((err: unknown) =>
      logger.warn('meta link not removed for a deleted connection', {
        companyId: auth.companyId,
        whatsappId: id,
        ...errorFields(err),
      }),
    );
  }
  if (removed.greetingMediaAttachment) await removeMedia(auth.companyId, id, removed.greetingMediaAttachment);
  await announce(auth.companyId, [], { deletedId: id });
};

// ---------------------------------------------------------------------------------------------------------
// Session actions

/** POST /whatsappsession/{id}: try again (start the session with the stored auth state, or a new QR). */
export const startConnectionSession = async (auth: AuthContext, id: number): Promise<ConnectionView> => {
  requireManager(auth);
  requireChannelInPlan(auth, 'whatsapp');
  return viewOf(await runSessionCommand(await findInCompany(auth.companyId, id), 'start'), { withToken: true });
};

/** PUT /whatsappsession/{id}: forget the pairing and show a new QR code. */
export const renewConnectionQrCode = async (auth: AuthContext, id: number): Promise<ConnectionView> => {
  requireManager(auth);
  requireChannelInPlan(auth, 'whatsapp');
  return viewOf(await runSessionCommand(await findInCompany(auth.companyId, id), 'new-qr'), { withToken: true });
};

/** DELETE /whatsappsession/{id}: disconnect (log the phone out). */
export const disconnectConnectionSession = async (auth: AuthContext, id: number): Promise<ConnectionView> => {
  requireManager(auth);
  return viewOf(await runSessionCommand(await findInCompany(auth.companyId, id), 'disconnect'), { withToken: true });
};

/** DELETE /whatsappsession/admin/{id}: the platform owner disconnects any company's connection. */
export const disconnectAnyConnectionSession = async (auth: AuthContext, id: number): Promise<ConnectionView> => {
  if (!auth.super) throw new Forbidden();
  const companyId = await getConnectionCompanyId(id);
  if (companyId === null) throw notFound();
  return viewOf(await runSessionCommand(await findInCompany(companyId, id), 'disconnect'), { withToken: false });
};

/** POST /whatsapp-restart: restart every WhatsApp session of the company. */
export const restartCompanyConnections = async (auth: AuthContext): Promise<{ restarted: number }> => {
  requireManager(auth);
  requireChannelInPlan(auth, 'whatsapp');
  const connections = await listConnections(auth.companyId, { channel: 'whatsapp' });
  for (const connection of connections) await runSessionCommand(connection, 'restart');
  return { restarted: connections.length };
};

/**
 * POST /simulator/{whatsappId}/scan: the phone simulator scans the QR code a connection shows (DESIGN §6).
 * Only where the workers run the simulator driver (WHATSAPP_DRIVER=simulator: locally, in tests, or a demo
 * deployment); elsewhere the route answers 404. The scan is a worker command like the others (decisions
 * D24, D36): recorded on the connection, then sent; the session answers PAIRING, then CONNECTED.
 */
export const scanSimulatorQrCode = async (auth: AuthContext, id: number): Promise<ConnectionView> => {
  requireManager(auth);
  requireChannelInPlan(auth, 'whatsapp');
  if (config().WHATSAPP_DRIVER !== 'simulator') {
    throw new NotFound('ERR_NOT_FOUND', 'The phone simulator is not enabled here');
  }
  const connection = await findInCompany(auth.companyId, id);
  if (connection.channel === 'whatsapp' && connection.status !== 'qrcode') {
    throw new BadRequest('ERR_VALIDATION', 'The connection shows no QR code to scan', [
      { field: 'params.whatsappId', reason: `status is ${connection.status}, not qrcode` },
    ]);
  }
  return viewOf(await runSessionCommand(connection, 'scan'), { withToken: true });
};

// ---------------------------------------------------------------------------------------------------------
// Greeting media

/**
 * Largest greeting attachment. Uploads pass through API Gateway and Lambda, whose request payload limit
 * (6 MB, base64 inflates binary bodies by a third) rules out WhatsApp's 16 MB: the route takes bodies up to
 * 3 MB, like the avatar route, and the file itself may be 2.5 MB (decisions D25).
 */
export const GREETING_MEDIA_MAX_BYTES = 2.5 * 1024 * 1024;

const removeMedia = async (companyId: number, whatsappId: number, key: string): Promise<void> => {
  await deleteMediaObject(key).catch((err: unknown) =>
    logger.warn('old greeting attachment not deleted', { companyId, whatsappId, ...errorFields(err) }),
  );
};

/** POST /whatsapp/{id}/media-upload: any file, typed by its bytes, stored under the connection's prefix. */
export const uploadGreetingMedia = async (
  auth: AuthContext,
  id: number,
  file: { bytes: Buffer; filename: string },
): Promise<ConnectionView> => {
  requireManager(auth);
  await findInCompany(auth.companyId, id);
  if (file.bytes.byteLength === 0) {
    throw new BadRequest('ERR_VALIDATION', 'The file is empty', [{ field: 'body.file', reason: 'is empty' }]);
  }
  if (file.bytes.byteLength > GREETING_MEDIA_MAX_BYTES) {
    throw new BadRequest('ERR_VALIDATION', 'The file is too large', [
      { field: 'body.file', reason: 'is larger than 2.5 MB' },
    ]);
  }
  const key = `c/${auth.companyId}/connections/${id}/${randomUUID()}/${safeFileName(file.filename)}`;
  await putMediaObject(key, file.bytes, detectAttachmentType(file.bytes).contentType);
  let result: Awaited<ReturnType<typeof setGreetingMedia>>;
  try {
    result = await setGreetingMedia(auth.companyId, id, key);
  } catch (err) {
    await deleteMediaObject(key).catch(() => undefined); // nothing points at it: leave no orphan
    throw err;
  }
  if (result.previousKey && result.previousKey !== key) await removeMedia(auth.companyId, id, result.previousKey);
  await announce(auth.companyId, [result.connection]);
  return viewOf(result.connection, { withToken: true });
};

/** DELETE /whatsapp/{id}/media-upload: removes the greeting attachment (nothing to remove is fine). */
export const deleteGreetingMedia = async (auth: AuthContext, id: number): Promise<ConnectionView> => {
  requireManager(auth);
  const current = await findInCompany(auth.companyId, id);
  if (!current.greetingMediaAttachment) return viewOf(current, { withToken: true });
  const result = await setGreetingMedia(auth.companyId, id, null);
  if (result.previousKey) await removeMedia(auth.companyId, id, result.previousKey);
  await announce(auth.companyId, [result.connection]);
  return viewOf(result.connection, { withToken: true });
};
