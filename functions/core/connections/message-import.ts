import type { ClosedImportedAnswer, ImportProgressView } from '../../contracts/connections';
import type { Connection } from '../../data/connection-repository';
import { getContact } from '../../data/contact-repository';
import {
  beginImport,
  claimImportFinish,
  forgetImportedTicket,
  getImport,
  listImportedTickets,
  moveImport,
  setImportStatus,
  type ImportProgress,
} from '../../data/message-import-repository';
import { closeTicket, getTicket, TicketChanged } from '../../data/ticket-repository';
import { listUserIdsWithFlag } from '../../data/user-permission-repository';
import { adminsAnd, publish } from '../notifier';
import type { AuthContext } from '../../shared/auth-context';
import type { InboundEventInput, InboundMessage } from '../pipeline/inbound-event';
import { ReadScope } from '../../data/read-scope';
import { DEFAULT_TIME_ZONE } from '../settings/company-settings';
import { errorFields, logger } from '../../shared/logger';
import { publishTicketChange } from '../tickets/ticket-events';
import { announceSessionChange, findInCompany, requireManager } from './connection-service';

/**
 * The import of a WhatsApp connection's old messages (core spec §2 Connections, §4 "Import of old
 * messages shows preparing, then progress, then an optional button to close imported tickets"; decisions
 * D78). WhatsApp hands a newly paired device the phone's history; with `importOldMessages` set:
 * 1. the pairing begins the import: the connection shows `preparing` (`beginMessageImport`);
 * 2. each history batch the phone sends is cut to the connection's window (from `importOldMessages` to
 *    `importRecentMessages` or today, in the company's time zone; groups only with
 *    `importOldMessagesGroups`) and goes through the inbound pipeline marked `imported`, counted in `all`;
 *    the connection shows `running` (`importHistoryBatch`, in the worker);
 * 3. the inbound job stores each one (no automatic replies, no unread counts, the message's own time)
 *    and counts it `done`; progress goes to `importMessages-{companyId}` (`countImportedMessage`);
 * 4. when the phone said it sent everything and every message was handled, the import finishes once:
 *    the imported tickets are closed at once when `closedTicketsPostImported`, else the connection shows
 *    `renderButtonCloseTickets` until an admin closes them (`POST /closedimported/{id}`).
 */

/** Progress events go out every this many handled messages (and on the last one). */
const PROGRESS_EVERY = 20;

const managers = async (companyId: number) => adminsAnd(await listUserIdsWithFlag(companyId, 'allowConnections'));

const announceImport = async (
  companyId: number,
  event: { action: 'update'; status: ImportProgressView } | { action: 'refresh'; whatsappId: number },
): Promise<void> => {
  try {
    await publish(companyId, { channel: 'importMessages', ...event }, await managers(companyId));
  } catch (err) {
    logger.warn('import event not sent', { companyId, ...errorFields(err) });
  }
};

const progressView = (whatsappId: number, p: ImportProgress): ImportProgressView => ({
  whatsappId,
  this: Math.min(p.done, p.all),
  all: p.all,
  state: p.all > 0 || p.complete ? 'running' : 'preparing',
  startedAt: p.startedAt,
});

/** Whether a pairing of this connection imports old messages. */
export const importsOldMessages = (connection: Connection): boolean =>
  connection.channel === 'whatsapp' &&
  typeof connection.importOldMessages === 'string' &&
  connection.importOldMessages !== '';

/** The first step: the device paired with import on. The connection shows `preparing`. */
export const beginMessageImport = async (connection: Connection, now = new Date()): Promise<void> => {
  const startedAt = now.toISOString();
  await beginImport(connection.companyId, connection.id, startedAt);
  await announceConnection(connection.companyId, connection.id);
  await announceImport(connection.companyId, {
    action: 'update',
    status: { whatsappId: connection.id, this: 0, all: 0, state: 'preparing', startedAt },
  });
};

/** YYYY-MM-DD of an instant in a time zone. */
const localDay = (at: Date, timeZone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

/**
 * Whether a history message falls in the connection's import window: its day (in the company's time
 * zone) from `importOldMessages` to `importRecentMessages` (or today), both included; group chats only
 * with `importOldMessagesGroups`.
 */
export const inImportWindow = (
  connection: Pick<Connection, 'importOldMessages' | 'importRecentMessages' | 'importOldMessagesGroups'>,
  message: { timestamp: string; chat: { isGroup?: boolean } },
  timeZone: string = DEFAULT_TIME_ZONE,
): boolean => {
  if (!connection.importOldMessages) return false;
  if (message.chat.isGroup && !connection.importOldMessagesGroups) return false;
  const day = localDay(new Date(message.timestamp), timeZone);
  const from = connection.importOldMessages.slice(0, 10);
  const to = connection.importRecentMessages ? connection.importRecentMessages.slice(0, 10) : '9999-12-31';
  return day >= from && day <= to;
};

export type HistoryMessage = Extract<InboundEventInput, { kind: 'message' }>;

/**
 * A history batch from the phone (worker side): the messages in the window are handed to the pipeline
 * (`enqueue`) marked `imported`, with their own time; `complete` when the phone said it was the last.
 * Does nothing when no import of this connection runs (a pairing without import, or one that finished).
 */
export const importHistoryBatch = async (
  connection: Connection,
  batch: { messages: readonly HistoryMessage[]; complete: boolean },
  enqueue: (event: HistoryMessage) => Promise<unknown>,
  timeZone: string = DEFAULT_TIME_ZONE,
): Promise<void> => {
  const { companyId, id: whatsappId } = connection;
  const current = await getImport(companyId, whatsappId);
  if (!current || current.finished || !importsOldMessages(connection)) return;
  const chosen = batch.messages.filter((m) => inImportWindow(connection, m, timeZone));
  let progress: ImportProgress | null = current;
  if (chosen.length > 0) {
    // Counted before they are handed over, so `done` can never pass `all` for good.
    progress = await moveImport(companyId, whatsappId, current.startedAt, { all: chosen.length });
    if (!progress) return;
    if (await setImportStatus(companyId, whatsappId, 'running', { from: ['preparing'] })) {
      await announceConnection(companyId, whatsappId);
    }
    for (const message of chosen) {
      await enqueue({ ...message, imported: true, receivedAt: message.timestamp });
    }
  }
  if (batch.complete) {
    progress = await moveImport(companyId, whatsappId, current.startedAt, { complete: true });
    if (progress) await finishImportIfDone(companyId, whatsappId, progress.startedAt);
  } else if (progress) {
    await announceImport(companyId, { action: 'update', status: progressView(whatsappId, progress) });
  }
};

/**
 * The inbound job handled an imported message (whatever became of it: stored, a duplicate, dropped):
 * counts it, tells the screens every PROGRESS_EVERY messages, and finishes the import after the last.
 */
export const countImportedMessage = async (event: Pick<InboundMessage, 'companyId' | 'whatsappId'>): Promise<void> => {
  const { companyId, whatsappId } = event;
  const current = await getImport(companyId, whatsappId);
  if (!current || current.finished) return;
  const progress = await moveImport(companyId, whatsappId, current.startedAt, { done: 1 });
  if (!progress) return;
  if (progress.complete && progress.done >= progress.all) {
    await finishImportIfDone(companyId, whatsappId, progress.startedAt);
    return;
  }
  if (progress.done % PROGRESS_EVERY === 0 || progress.done >= progress.all) {
    await announceImport(companyId, { action: 'update', status: progressView(whatsappId, progress) });
  }
};

/**
 * Finishes the import once everything is in: closes the imported tickets when the connection says so
 * (`closedTicketsPostImported`), else shows the button that closes them; then tells the screens to refresh.
 */
export const finishImportIfDone = async (companyId: number, whatsappId: number, startedAt: string): Promise<void> => {
  if (!(await claimImportFinish(companyId, whatsappId, startedAt))) return;
  const connection = await findInCompany(companyId, whatsappId).catch(() => null);
  if (!connection) return;
  if (connection.closedTicketsPostImported) {
    let more = true;
    while (more) more = (await closeImported(companyId, whatsappId, null)).hasMore;
    await setImportStatus(companyId, whatsappId, '');
  } else {
    await setImportStatus(companyId, whatsappId, 'renderButtonCloseTickets');
  }
  await announceConnection(companyId, whatsappId);
  await announceImport(companyId, { action: 'refresh', whatsappId });
  logger.info('old messages imported', { companyId, whatsappId });
};

/** Imported tickets one call closes at most; the answer says when more are left. */
export const CLOSE_IMPORTED_LIMIT = 500;

/**
 * Closes the still-pending tickets the import created (an attendant who took one meanwhile keeps it),
 * oldest first, each with its own conditional transition and the usual events; forgets each one handled.
 */
const closeImported = async (
  companyId: number,
  whatsappId: number,
  userId: number | null,
): Promise<{ closed: number; hasMore: boolean }> => {
  const scope = new ReadScope();
  let closed = 0;
  let handled = 0;
  for (;;) {
    const page = await listImportedTickets(companyId, whatsappId, { limit: 50 });
    if (page.ticketIds.length === 0) return { closed, hasMore: false };
    for (const ticketId of page.ticketIds) {
      if (handled >= CLOSE_IMPORTED_LIMIT) return { closed, hasMore: true };
      handled += 1;
      const ticket = await getTicket(companyId, ticketId);
      if (ticket && ticket.status === 'pending') {
        try {
          const done = await closeTicket(ticket, { userId });
          closed += 1;
          const contact = await getContact(companyId, ticket.contactId);
          if (contact) await publishTicketChange(scope, ticket, done, contact);
        } catch (err) {
          if (!(err instanceof TicketChanged)) throw err; // moved meanwhile: it is someone's now
        }
      }
      await forgetImportedTicket(companyId, whatsappId, ticketId);
    }
  }
};

/**
 * POST /closedimported/{id} (connection managers): closes the pending tickets the last import created
 * and clears the connection's "close imported tickets" button once none is left. Another company's
 * connection answers 404.
 */
export const closeImportedTickets = async (auth: AuthContext, whatsappId: number): Promise<ClosedImportedAnswer> => {
  requireManager(auth);
  const connection = await findInCompany(auth.companyId, whatsappId);
  const result = await closeImported(auth.companyId, connection.id, auth.userId);
  if (!result.hasMore) {
    await setImportStatus(auth.companyId, connection.id, '', { from: ['renderButtonCloseTickets'] });
    await announceConnection(auth.companyId, connection.id);
  }
  return result;
};

const announceConnection = async (companyId: number, whatsappId: number): Promise<void> => {
  const connection = await findInCompany(companyId, whatsappId).catch(() => null);
  if (connection) await announceSessionChange(connection);
};
