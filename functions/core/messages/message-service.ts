import { randomUUID } from 'node:crypto';
import { getContact, type Contact } from '../../data/contact-repository';
import {
  getMediaObject,
  headMediaObject,
  presignedUploadUrl,
  putMediaObject,
  deleteMediaObject,
  readMediaStart,
} from '../../data/media-store';
import {
  claimProviderRef,
  countMessageOfDay,
  deleteOwnMessage,
  editOwnMessage,
  getMessage,
  listContactHistoryPage,
  listTicketMessagesPage,
  markTicketRead,
  messageSortKey,
  messageWireId,
  refreshLastMessage,
  setTranscription,
  storeMessage,
  sumMessageDays,
  type QuotedSnapshot,
  type StoredMessage,
} from '../../data/message-repository';
import { getCompanySettingsItem } from '../../data/settings-repository';
import { downloadLimitBytes, readPlatformSecret } from '../settings/global-settings';
import { createTicket, getOpenTicketId, getTicket, OtherOpenTicket, type Ticket } from '../../data/ticket-repository';
import { seededUlid, ulidTime } from '../../data/ulids';
import { getUser } from '../../data/user-repository';
import type { AuthContext } from '../../shared/auth-context';
import { BadRequest, Conflict, Forbidden, NotFound, ValidationError } from '../../shared/errors';
import { ReadScope } from '../../data/read-scope';
import { errorFields, logger } from '../../shared/logger';
import { lastMessagePreview } from '../pipeline/message-content';
import { detectAttachmentType, safeFileName } from '../media/attachments';
import { fetchPage } from '../paging';
import { findVisibleTicket, findVisibleTicketByUuid, ticketNotFound, ticketViewerOf } from '../tickets/ticket-access';
import { publishForTicket, ticketViewOf, type TicketEvent } from '../tickets/ticket-events';
import {
  MAX_UPLOAD_BYTES,
  type MessagePage,
  type MessageUpload,
  type MessageView,
  type TranscriptionAnswer,
} from '../../contracts/messages';
import type { TicketView } from '../../contracts/tickets';
import { toContactView, toMessageView } from '../tickets/ticket-views';
import { canSeeTicket } from '../tickets/visibility';
import type { InteractiveContent } from './interactive';
import { enqueueOutbound, whatsappMessageId } from '../pipeline/outbound-queue';
import { failSend } from './outbound-sender';
import { assertReplyWindowOpen } from '../pipeline/reply-window';
import { transcribeAudio } from './transcription';
import { companyTimeZone } from '../settings/company-settings';

/**
 * The messages API (core spec §7 Messages, rules §4/§5; issue 5 item 3; decisions D50–D54). An attendant's
 * message is written like every outbound message (D34): stored with ack 0 together with its ticket's new
 * state, pinned to its WhatsApp id before the send, then put on the outbound queue — except a private note,
 * which is stored and shown to the attendants and never queued, so no channel can send it. Every change
 * publishes `company-{id}-appMessage` (and the ticket's update) only to the users who may see the ticket.
 */
export const MESSAGES_PAGE_SIZE = 20;
export const EDIT_WINDOW_MS = 15 * 60 * 1000;
/** Multipart through the API (Lambda's 6 MB payload, base64): small files only. */
export const MAX_MULTIPART_BYTES = 4 * 1024 * 1024;
/** OpenAI's limit for one transcription. */
export const MAX_TRANSCRIPTION_BYTES = 25 * 1024 * 1024;
const UPLOAD_URL_SECONDS = 900;

const MESSAGE_ID = /^(\d{1,12})-([0-9A-HJKMNP-TV-Z]{26})$/;

export const parseMessageId = (id: string): { ticketId: number; ulid: string } | null => {
  const m = MESSAGE_ID.exec(id);
  return m ? { ticketId: Number(m[1]), ulid: m[2]! } : null;
};

const messageNotFound = () => new NotFound('ERR_NO_MESSAGE_FOUND', 'Message not found');
const noPermission = (message = 'No permission') => new Forbidden('ERR_NO_PERMISSION', message);

// ------------------------------------------------------------------------------------------ events

const publishMessage = async (
  scope: ReadScope,
  ticketId: number,
  companyId: number,
  action: 'create' | 'update',
  message: StoredMessage,
  extra: TicketEvent[] = [],
): Promise<{ ticket: Ticket; ticketView: TicketView | null }> => {
  const ticket = (await getTicket(companyId, ticketId))!;
  const contact = await getContact(companyId, ticket.contactId);
  if (!contact) return { ticket, ticketView: null };
  const ticketView = await ticketViewOf(scope, ticket, contact);
  await publishForTicket(scope, ticket, [
    {
      channel: 'appMessage',
      action,
      message: toMessageView(message, ticket),
      ticket: ticketView,
      contact: toContactView(contact),
    },
    ...(action === 'create' ? [{ channel: 'ticket' as const, action: 'update' as const, ticket: ticketView }] : []),
    ...extra,
  ]);
  return { ticket, ticketView };
};

// ------------------------------------------------------------------------------------------- reads

const resolveTicket = async (auth: AuthContext, ref: string) => {
  const message = parseMessageId(ref);
  if (message) return { ...(await findVisibleTicket(auth, message.ticketId)), message };
  if (/^\d{1,12}$/.test(ref)) return { ...(await findVisibleTicket(auth, Number(ref))), message: null };
  if (/^[0-9a-f-]{36}$/i.test(ref))
    return { ...(await findVisibleTicketByUuid(auth, ref.toLowerCase())), message: null };
  throw ticketNotFound();
};

/**
 * GET /messages/{ticketUuid}: newest first, 20 a page (pageNumber from 1, or the cursor of the previous
 * answer). With allHistoric the contact's whole history across tickets, filtered by `selectedQueues`.
 * Page 1 opened by the ticket's attendant (or an admin) marks the ticket read. The path also takes the
 * ticket's number, and a message id (that message alone: quoted-message previews; decisions D50).
 */
export const listMessages = async (
  auth: AuthContext,
  ref: string,
  query: { pageNumber: number; cursor?: string | undefined; selectedQueues?: number[] | undefined },
): Promise<MessagePage> => {
  const scope = new ReadScope();
  const found = await resolveTicket(auth, ref);
  let { ticket } = found;
  const contact = await getContact(auth.companyId, ticket.contactId);
  if (found.message) {
    const one = await getMessage(auth.companyId, found.message.ticketId, found.message.ulid);
    if (!one) throw messageNotFound();
    return {
      messages: [toMessageView(one, ticket)],
      hasMore: false,
      ticket: contact ? await ticketViewOf(scope, ticket, contact) : null,
    };
  }
  const user = await getUser(auth.companyId, auth.userId);
  const allHistoric = user?.allHistoric === 'enabled';
  const page = await fetchPage(query, MESSAGES_PAGE_SIZE, (cursor) =>
    allHistoric
      ? listContactHistoryPage(auth.companyId, ticket.contactId, {
          limit: MESSAGES_PAGE_SIZE,
          cursor,
          queueIds: query.selectedQueues,
          ticketId: ticket.id,
        })
      : listTicketMessagesPage(auth.companyId, ticket.id, { limit: MESSAGES_PAGE_SIZE, cursor }),
  );

  // Opening the conversation reads it (data-model §2.14): its attendant, or an admin, on the first page.
  const firstPage = query.pageNumber === 1 && !query.cursor;
  const reader = ticket.userId === auth.userId || auth.profile === 'admin' || auth.super;
  const unread = ticket.unreadMessages > 0 || (ticket.lastMsgSk !== undefined && ticket.readUpTo !== ticket.lastMsgSk);
  if (firstPage && reader && unread && (await markTicketRead(auth.companyId, ticket.id))) {
    ticket = (await getTicket(auth.companyId, ticket.id)) ?? ticket;
    const view = contact ? await ticketViewOf(scope, ticket, contact) : null;
    await publishForTicket(scope, ticket, [
      { channel: 'ticket', action: 'updateUnread', ticketId: ticket.id },
      ...(view ? [{ channel: 'ticket' as const, action: 'update' as const, ticket: view }] : []),
    ]);
  }
  return {
    messages: page.items.map((m) => toMessageView(m, m.ticketId === ticket.id ? ticket : null)),
    hasMore: page.hasMore,
    ...(page.nextCursor ? ({ nextCursor: page.nextCursor } satisfies Partial<MessagePage>) : {}),
    ticket: contact ? await ticketViewOf(scope, ticket, contact) : null,
  };
};

// ------------------------------------------------------------------------------------------- sends

export interface OutgoingMedia {
  key: string;
  mimetype: string;
  filename: string;
  size: number;
}

export interface Outgoing {
  body: string;
  isPrivate: boolean;
  quotedMsgId?: string | undefined;
  media?: OutgoingMedia | undefined;
  vCard?: string | undefined;
  interactive?: InteractiveContent | undefined;
  isForwarded?: boolean;
}

const mediaTypeOf = (mimetype: string): string =>
  mimetype.startsWith('image/')
    ? 'image'
    : mimetype.startsWith('video/')
      ? 'video'
      : mimetype.startsWith('audio/')
        ? 'audio'
        : 'application';

/** The provider chat a ticket's sends go to: the ticket's own, else the contact's WhatsApp JID. */
const chatIdOf = (ticket: Ticket, contact: Contact): string | null => {
  if (ticket.chatId) return ticket.chatId;
  if (ticket.channel !== 'whatsapp') return null;
  const digits = contact.number.replace(/\D/g, '');
  if (!digits) return null;
  return `${digits}@${contact.isGroup ? 'g.us' : 's.whatsapp.net'}`;
};

const COMPOSER_STATUSES = new Set(['open', 'group']);

/** Core §4: the composer works only while the ticket is open (or a group). */
const assertComposerOpen = (ticket: Ticket): void => {
  if (!COMPOSER_STATUSES.has(ticket.status)) {
    throw new Forbidden('ERR_NO_PERMISSION', 'Messages can be sent only on open tickets', { status: ticket.status });
  }
};

const quotedSnapshotOf = async (
  companyId: number,
  ticket: Ticket,
  contact: Contact,
  quotedMsgId: string,
): Promise<QuotedSnapshot> => {
  const ref = parseMessageId(quotedMsgId);
  const quoted = ref ? await getMessage(companyId, ref.ticketId, ref.ulid) : null;
  if (!ref || !quoted || quoted.contactId !== ticket.contactId) {
    throw new ValidationError([{ field: 'body.quotedMsg', reason: 'not a message of this conversation' }]);
  }
  return {
    id: quotedMsgId,
    body: quoted.body.slice(0, 1_000),
    mediaType: quoted.mediaType,
    ...(quoted.mediaKey ? { mediaKey: quoted.mediaKey } : {}),
    fromMe: quoted.fromMe,
    ...(quoted.fromMe ? {} : { contactName: quoted.participant?.name ?? contact.name }),
  };
};

/** yyyy-mm-dd in the company's time zone (data-model §1.2 `<day>`). */
const dayOf = (at: Date, timeZone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

/**
 * Writes one attendant message on a ticket the caller may write to, and queues its send (not for a private
 * note). `prepared` lets a media upload use the message's own ulid in its key before the store.
 */
const writeMessage = async (
  auth: AuthContext,
  scope: ReadScope,
  ticket: Ticket,
  contact: Contact,
  out: Outgoing,
  prepared?: { ulid: string; seed: string },
): Promise<{ message: StoredMessage; ticket: TicketView | null }> => {
  const { companyId } = auth;
  const send = !out.isPrivate;
  const chatId = chatIdOf(ticket, contact);
  if (send && !chatId) throw new BadRequest('ERR_SENDING_WAPP_MSG', 'This ticket has no chat to send to');
  const quoted = out.quotedMsgId ? await quotedSnapshotOf(companyId, ticket, contact, out.quotedMsgId) : undefined;
  const seed = prepared?.seed ?? randomUUID();
  const whatsapp = ticket.channel === 'whatsapp';
  const providerId = send && whatsapp ? whatsappMessageId(`${companyId}:${ticket.whatsappId}:${seed}`) : undefined;
  let ulid = prepared?.ulid ?? ulidAfter(ticket, seed);
  if (providerId) {
    // Pinned before the store and the send, so the provider's acks always find the message (D34).
    const claim = await claimProviderRef(companyId, ticket.whatsappId, providerId, {
      ticketId: ticket.id,
      ulid,
      contactId: ticket.contactId,
    });
    ulid = claim.ref.ulid;
  }
  const content = out.interactive
    ? { body: out.interactive.body, mediaType: out.interactive.mediaType, dataJson: out.interactive.dataJson }
    : out.media
      ? {
          body: out.body,
          mediaType: mediaTypeOf(out.media.mimetype),
          mediaKey: out.media.key,
          mimetype: out.media.mimetype,
          filename: out.media.filename,
          size: out.media.size,
        }
      : out.vCard
        ? { body: out.body, mediaType: 'contact', vCard: out.vCard }
        : { body: out.body, mediaType: 'chat' };
  const message: StoredMessage = {
    ulid,
    companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    ...content,
    fromMe: true,
    isPrivate: out.isPrivate,
    isDeleted: false,
    isEdited: false,
    isForwarded: out.isForwarded ?? false,
    ...(quoted ? { quotedMsgId: quoted.id, quotedMsg: quoted } : {}),
    queueId: ticket.queueId,
    ack: 0,
    createdAt: new Date(ulidTime(ulid)).toISOString(),
    ...(providerId ? { providerId } : {}),
    userId: auth.userId,
  };
  const outcome = await storeMessage(message, {
    lastMessage: lastMessagePreview(message),
    updatedAt: message.createdAt,
    unread: 'reset',
  });
  if (outcome === 'ticket-gone') throw ticketNotFound();
  if (outcome === 'duplicate') throw new Conflict('ERR_CREATING_MESSAGE', 'The message was already stored');
  if (send) {
    // Queued right after the store: nothing that may fail comes between a stored message and its send.
    const queued = {
      kind: 'send' as const,
      companyId,
      whatsappId: ticket.whatsappId,
      channel: ticket.channel,
      ticketId: ticket.id,
      messageId: messageWireId(ticket.id, ulid),
      chatId: chatId!,
      ...(providerId ? { providerMessageId: providerId } : {}),
      requestedAt: new Date().toISOString(),
    };
    try {
      await enqueueOutbound(queued);
    } catch (err) {
      // The message would wait at ack 0 for ever: it shows the send error instead (D41), and the caller a 5xx.
      await failSend(queued).catch(() => undefined);
      throw err;
    }
    try {
      await countMessageOfDay(
        companyId,
        dayOf(new Date(message.createdAt), await companyTimeZone(scope, companyId)),
        true,
      );
    } catch (err) {
      logger.warn('message count not added', { companyId, ...errorFields(err) });
    }
  }
  const published = await publishMessage(scope, ticket.id, companyId, 'create', message, [
    ...(ticket.unreadMessages > 0
      ? [{ channel: 'ticket' as const, action: 'updateUnread' as const, ticketId: ticket.id }]
      : []),
  ]);
  return { message, ticket: published.ticketView };
};

/**
 * One message written and queued on behalf of a caller outside the app (the external messages API,
 * decisions D123): the same store, send queue, counts and events as an attendant's message, authored by
 * `userId` when the integrator named one. `prepared` as in `writeMessage` (a media key under its ulid).
 */
export const writeIntegrationMessage = async (
  companyId: number,
  userId: number | null,
  ticket: Ticket,
  contact: Contact,
  out: Outgoing,
  prepared?: { ulid: string; seed: string },
): Promise<MessageView> => {
  const author: AuthContext = {
    companyId,
    userId: userId ?? 0,
    profile: 'admin',
    super: false,
    userFlags: {},
    planFlags: {},
  };
  const written = await writeMessage(author, new ReadScope(), ticket, contact, out, prepared);
  return toMessageView(written.message);
};

/** The ulid a media message of this ticket will take, for its key before the store (`prepared`). */
export const preparedUlid = (ticket: Ticket): { ulid: string; seed: string } => {
  const seed = randomUUID();
  return { ulid: ulidAfter(ticket, seed), seed };
};

/** A message time after the ticket's latest one (a conversation's order holds), as a seeded ULID. */
const ulidAfter = (ticket: Ticket, seed: string): string => {
  const previous = ticket.lastMsgSk ? ulidTime(ticket.lastMsgSk.slice('MSG#'.length)) : 0;
  return seededUlid(Math.max(Date.now(), previous + 1), `${ticket.whatsappId}:${seed}`);
};

const writableTicket = async (auth: AuthContext, ticketId: number, isPrivate: boolean) => {
  const { ticket } = await findVisibleTicket(auth, ticketId);
  assertComposerOpen(ticket);
  if (!isPrivate) assertReplyWindowOpen(ticket);
  const contact = await getContact(auth.companyId, ticket.contactId);
  if (!contact) throw ticketNotFound();
  return { ticket, contact };
};

export interface SendInput {
  body: string;
  isPrivate: boolean;
  quotedMsgId?: string | undefined;
  mediaKey?: string | undefined;
  vCard?: string | undefined;
}

export interface SendResult {
  message: MessageView;
  ticket: TicketView | null;
}

/** The platform's download limit (decisions D172): a larger file is refused, naming the limit. */
const assertWithinDownloadLimit = async (field: string, size: number): Promise<void> => {
  const limit = await downloadLimitBytes();
  if (size > limit) {
    throw new ValidationError([
      { field, reason: `the file is larger than the download limit of ${limit / (1024 * 1024)} MB` },
    ]);
  }
};

/** The key of an upload of this ticket, checked: under its prefix, present, within the size limit. */
const uploadedMedia = async (companyId: number, ticketId: number, key: string): Promise<OutgoingMedia> => {
  const prefix = `c/${companyId}/tickets/${ticketId}/`;
  if (!key.startsWith(prefix) || key.includes('..')) {
    throw new ValidationError([{ field: 'body.mediaKey', reason: 'not an upload of this ticket' }]);
  }
  const head = await headMediaObject(key);
  if (!head) throw new ValidationError([{ field: 'body.mediaKey', reason: 'no file was uploaded under this key' }]);
  if (head.size > MAX_UPLOAD_BYTES) {
    throw new ValidationError([
      { field: 'body.mediaKey', reason: `the file is larger than ${MAX_UPLOAD_BYTES} bytes` },
    ]);
  }
  await assertWithinDownloadLimit('body.mediaKey', head.size);
  const { contentType } = detectAttachmentType(await readMediaStart(key));
  return { key, mimetype: contentType, filename: key.split('/').pop()!, size: head.size };
};

/** POST /messages/{ticketId} (JSON): text, a private note, a contact card, a quoted reply, an uploaded file. */
export const sendMessage = async (auth: AuthContext, ticketId: number, input: SendInput): Promise<SendResult> => {
  const body = input.body.trim();
  if (!body && !input.mediaKey && !input.vCard) {
    throw new ValidationError([{ field: 'body.body', reason: 'Empty or whitespace text is not sent' }]);
  }
  const { ticket, contact } = await writableTicket(auth, ticketId, input.isPrivate);
  const media = input.mediaKey ? await uploadedMedia(auth.companyId, ticket.id, input.mediaKey) : undefined;
  const scope = new ReadScope();
  const written = await writeMessage(auth, scope, ticket, contact, {
    body,
    isPrivate: input.isPrivate,
    quotedMsgId: input.quotedMsgId,
    media,
    vCard: input.vCard,
  });
  return { message: toMessageView(written.message), ticket: written.ticket };
};

export interface MultipartFile {
  filename: string;
  bytes: Buffer;
}

/**
 * POST /messages/{ticketId} (multipart {medias, body, isPrivate}): small files through the API, one message
 * each, stored under the message's own key. `bodies[i]` is file i's caption (one body: the first file's).
 */
export const sendMedia = async (
  auth: AuthContext,
  ticketId: number,
  input: { files: MultipartFile[]; bodies: string[]; isPrivate: boolean; quotedMsgId?: string | undefined },
): Promise<SendResult[]> => {
  const { ticket, contact } = await writableTicket(auth, ticketId, input.isPrivate);
  const scope = new ReadScope();
  const results: SendResult[] = [];
  let current = ticket;
  for (const [i, file] of input.files.entries()) {
    const seed = randomUUID();
    const ulid = ulidAfter(current, seed);
    const key = `c/${auth.companyId}/tickets/${ticket.id}/${ulid}/${safeFileName(file.filename)}`;
    const { contentType } = detectAttachmentType(file.bytes);
    await putMediaObject(key, file.bytes, contentType);
    try {
      const written = await writeMessage(
        auth,
        scope,
        current,
        contact,
        {
          body: (input.bodies[i] ?? '').trim(),
          isPrivate: input.isPrivate,
          quotedMsgId: i === 0 ? input.quotedMsgId : undefined,
          media: { key, mimetype: contentType, filename: safeFileName(file.filename), size: file.bytes.length },
        },
        { ulid, seed },
      );
      results.push({ message: toMessageView(written.message), ticket: written.ticket });
    } catch (err) {
      // Nothing stored refers to the object: leave nothing behind.
      await deleteMediaObject(key).catch(() => undefined);
      throw err;
    }
    current = (await getTicket(auth.companyId, ticket.id)) ?? current;
  }
  return results;
};

/**
 * POST /messages/uploads/{ticketId} (ours; decisions D51): a presigned PUT for one file of up to 100 MB under
 * the ticket's prefix; the browser uploads straight to S3 and then sends `{mediaKey}`.
 */
export const createUpload = async (
  auth: AuthContext,
  ticketId: number,
  input: { filename: string; contentType: string; size: number },
): Promise<MessageUpload> => {
  if (input.size > MAX_UPLOAD_BYTES) {
    throw new ValidationError([{ field: 'body.size', reason: `at most ${MAX_UPLOAD_BYTES} bytes` }]);
  }
  await assertWithinDownloadLimit('body.size', input.size);
  const { ticket } = await findVisibleTicket(auth, ticketId);
  assertComposerOpen(ticket);
  const key = `c/${auth.companyId}/tickets/${ticket.id}/uploads/${randomUUID()}/${safeFileName(input.filename)}`;
  const uploadUrl = await presignedUploadUrl(key, input.contentType, input.size, UPLOAD_URL_SECONDS);
  return {
    key,
    uploadUrl,
    method: 'PUT',
    headers: { 'content-type': input.contentType },
    expiresIn: UPLOAD_URL_SECONDS,
  };
};

/** POST /messages/lista|copy|call|URL|PIX/{ticketId}: an interactive message (decisions D52). */
export const sendInteractive = async (
  auth: AuthContext,
  ticketId: number,
  content: InteractiveContent,
): Promise<SendResult> => {
  const { ticket, contact } = await writableTicket(auth, ticketId, false);
  const written = await writeMessage(auth, new ReadScope(), ticket, contact, {
    body: content.body,
    isPrivate: false,
    interactive: content,
  });
  return { message: toMessageView(written.message), ticket: written.ticket };
};

// ------------------------------------------------------------------------------------ edit, delete

/** The caller's own stored message on a ticket they see, or 404/403 as the spec's rules say. */
const ownMessage = async (auth: AuthContext, id: string) => {
  const ref = parseMessageId(id);
  if (!ref) throw messageNotFound();
  const { ticket } = await findVisibleTicket(auth, ref.ticketId);
  const message = await getMessage(auth.companyId, ref.ticketId, ref.ulid);
  if (!message) throw messageNotFound();
  if (!message.fromMe || message.userId !== auth.userId) throw noPermission('Only your own messages');
  if (message.isDeleted) throw noPermission('The message was deleted');
  return { ref, ticket, message };
};

/**
 * After an edit or delete is stored: a sent WhatsApp message's change goes to the customer through the
 * outbound pipeline (decisions D75). Private notes and Meta channels (the Graph API has neither) stay
 * local; whether the message went out at all is the holder's call (a pending send carries the new text).
 * A failed enqueue is logged: the change stands here, the customer keeps what they had.
 */
const queueChange = async (
  ticket: Ticket,
  message: StoredMessage,
  kind: 'edit' | 'delete',
  changedAt: string,
): Promise<void> => {
  if (ticket.channel !== 'whatsapp' || message.isPrivate || !message.fromMe || !message.providerId) return;
  try {
    const contact = await getContact(message.companyId, ticket.contactId);
    const chatId = contact ? chatIdOf(ticket, contact) : ticket.chatId;
    if (!chatId) return;
    await enqueueOutbound({
      kind,
      companyId: message.companyId,
      whatsappId: ticket.whatsappId,
      channel: 'whatsapp',
      ticketId: ticket.id,
      messageId: messageWireId(ticket.id, message.ulid),
      chatId,
      providerMessageId: message.providerId,
      changedAt,
      requestedAt: new Date().toISOString(),
    });
  } catch (err) {
    logger.error('message change not queued: the customer keeps the earlier message', {
      companyId: message.companyId,
      ticketId: ticket.id,
      kind,
      ...errorFields(err),
    });
  }
};

/** POST /messages/edit/{id}: own messages, within 15 minutes of sending (core §4). */
export const editMessage = async (auth: AuthContext, id: string, body: string): Promise<MessageView> => {
  const text = body.trim();
  if (!text) throw new ValidationError([{ field: 'body.body', reason: 'Empty or whitespace text is not sent' }]);
  const { ref, ticket, message } = await ownMessage(auth, id);
  const now = Date.now();
  if (Date.parse(message.createdAt) <= now - EDIT_WINDOW_MS) {
    throw noPermission('Messages can be edited within 15 minutes of sending');
  }
  const updated = await editOwnMessage(auth.companyId, ref, {
    userId: auth.userId,
    body: text,
    createdAfter: new Date(now - EDIT_WINDOW_MS).toISOString(),
    at: new Date(now).toISOString(),
  });
  if (!updated) throw noPermission('Messages can be edited within 15 minutes of sending');
  await queueChange(ticket, updated, 'edit', updated.editedAt ?? new Date(now).toISOString());
  if (ticket.lastMsgSk === messageSortKey(ref.ulid)) {
    await refreshLastMessage(auth.companyId, ref, lastMessagePreview(updated));
  }
  await publishMessage(new ReadScope(), ticket.id, auth.companyId, 'update', updated);
  return toMessageView(updated);
};

/**
 * DELETE /messages/{id}: own messages only (core §4). The message stays, marked deleted ("deleted" in the
 * conversation); with the LGPD pair on (enableLGPD and lgpdDeleteMessage) its content is erased too
 * (decisions D54).
 */
export const deleteMessage = async (auth: AuthContext, id: string): Promise<MessageView> => {
  const { ref, ticket } = await ownMessage(auth, id);
  const settings = await getCompanySettingsItem(auth.companyId);
  const erase = settings.enableLGPD === 'enabled' && settings.lgpdDeleteMessage === 'enabled';
  const at = new Date().toISOString();
  const updated = await deleteOwnMessage(auth.companyId, ref, auth.userId, at, erase);
  if (!updated) throw noPermission('Only your own messages');
  await queueChange(ticket, updated, 'delete', updated.deletedAt ?? at);
  if (erase && ticket.lastMsgSk === messageSortKey(ref.ulid)) {
    await refreshLastMessage(auth.companyId, ref, '');
  }
  await publishMessage(new ReadScope(), ticket.id, auth.companyId, 'update', updated);
  return toMessageView(updated);
};

// ------------------------------------------------------------------------------------------ forward

/**
 * POST /message/forward: one message to another contact, on the source ticket's connection, into the
 * contact's open ticket there (when the caller sees it) or a new open ticket of the caller's
 * (decisions D52). `signMessage` prefixes the attendant's name as the composer's signature does.
 */
export const forwardMessage = async (
  auth: AuthContext,
  input: { messageId: string; contactId: number; signMessage: boolean },
): Promise<SendResult> => {
  const ref = parseMessageId(input.messageId);
  if (!ref) throw new ValidationError([{ field: 'body.messageId', reason: 'not a message id' }]);
  const { ticket: source, viewer } = await findVisibleTicket(auth, ref.ticketId);
  const original = await getMessage(auth.companyId, ref.ticketId, ref.ulid);
  if (!original) throw messageNotFound();
  if (original.isDeleted) throw new ValidationError([{ field: 'body.messageId', reason: 'the message was deleted' }]);
  if (original.isPrivate) {
    throw new ValidationError([{ field: 'body.messageId', reason: 'a private note is never sent to a contact' }]);
  }
  const contact = await getContact(auth.companyId, input.contactId);
  if (!contact || contact.deletedAt || contact.mergedInto)
    throw new NotFound('ERR_NO_CONTACT_FOUND', 'Contact not found');
  if (!contact.active) throw new ValidationError([{ field: 'body.contactId', reason: 'the contact is blocked' }]);
  if (source.channel !== 'whatsapp' || contact.channel !== 'whatsapp') {
    throw new ValidationError([{ field: 'body.contactId', reason: 'forwarding works between WhatsApp chats' }]);
  }
  const target = await targetTicket(auth, source, contact, viewer);
  assertComposerOpen(target);
  const user = input.signMessage ? await getUser(auth.companyId, auth.userId) : null;
  const text = user && original.body.trim() ? `*${user.name}:*\n${original.body}` : original.body;
  const written = await writeMessage(auth, new ReadScope(), target, contact, {
    body: text,
    isPrivate: false,
    isForwarded: true,
    ...(original.mediaKey
      ? {
          media: {
            // Objects are immutable (a key is never rewritten), so the forward shares the original's.
            key: original.mediaKey,
            mimetype: original.mimetype ?? 'application/octet-stream',
            filename: original.filename ?? original.mediaKey.split('/').pop()!,
            size: original.size ?? 0,
          },
        }
      : {}),
    ...(original.vCard ? { vCard: original.vCard } : {}),
    ...(original.dataJson && !original.mediaKey
      ? {
          interactive: {
            body: text,
            mediaType: original.mediaType as InteractiveContent['mediaType'],
            dataJson: original.dataJson,
          },
        }
      : {}),
  });
  return { message: toMessageView(written.message), ticket: written.ticket };
};

const targetTicket = async (
  auth: AuthContext,
  source: Ticket,
  contact: Contact,
  viewer: Awaited<ReturnType<typeof ticketViewerOf>>,
): Promise<Ticket> => {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const openId = await getOpenTicketId(auth.companyId, contact.id, source.whatsappId);
    const open = openId === null ? null : await getTicket(auth.companyId, openId);
    if (open && open.status !== 'closed') {
      if (!canSeeTicket(viewer, open)) {
        throw new Conflict('ERR_OTHER_OPEN_TICKET', 'An open ticket already exists for the contact', {
          userId: open.userId,
          uuid: open.uuid,
          status: open.status,
        });
      }
      return open;
    }
    try {
      return await createTicket(auth.companyId, {
        status: contact.isGroup ? 'group' : 'open',
        queueId: source.queueId,
        userId: auth.userId,
        contactId: contact.id,
        whatsappId: source.whatsappId,
        channel: source.channel,
        isGroup: contact.isGroup,
        chatId: `${contact.number.replace(/\D/g, '')}@${contact.isGroup ? 'g.us' : 's.whatsapp.net'}`,
        origin: 'active',
        createdBy: auth.userId,
      });
    } catch (err) {
      if (!(err instanceof OtherOpenTicket)) throw err;
      // Someone opened one meanwhile: read it and use it.
    }
  }
  throw new Conflict('ERR_CREATING_TICKET', 'Could not open a ticket for the contact');
};

// -------------------------------------------------------------------------------------- transcription

/** The company's OpenAI key (a company setting never returned by the settings API), else the platform's. */
const openAiKeyOf = async (companyId: number): Promise<string | null> => {
  const own = (await getCompanySettingsItem(companyId)).openAiKey;
  if (typeof own === 'string' && own.trim()) return own.trim();
  const platform = await readPlatformSecret('openAiKey');
  return platform?.trim() ? platform.trim() : null;
};

/**
 * GET /messages/transcribeAudio/{file}: `file` is an audio message's id (its text is kept on the message)
 * or a media key of the caller's company (`c/<companyId>/…`, URL-encoded). Decisions D53.
 */
export const transcribe = async (auth: AuthContext, file: string): Promise<TranscriptionAnswer> => {
  const ref = parseMessageId(file);
  let key: string;
  let cacheOn: { ticketId: number; ulid: string } | null = null;
  if (ref) {
    await findVisibleTicket(auth, ref.ticketId);
    const message = await getMessage(auth.companyId, ref.ticketId, ref.ulid);
    if (!message || message.isDeleted) throw messageNotFound();
    if (message.transcribedText !== undefined) return { transcribedText: message.transcribedText };
    if (message.mediaType !== 'audio' || !message.mediaKey) {
      throw new ValidationError([{ field: 'params.file', reason: 'not an audio message' }]);
    }
    key = message.mediaKey;
    cacheOn = ref;
  } else {
    key = file.replace(/^\/?media\//, '');
    if (!key.startsWith(`c/${auth.companyId}/`) || key.includes('..')) {
      throw new NotFound('ERR_NO_MEDIA_FOUND', 'File not found');
    }
  }
  const head = await headMediaObject(key);
  if (!head) throw new NotFound('ERR_NO_MEDIA_FOUND', 'File not found');
  if (head.size > MAX_TRANSCRIPTION_BYTES) {
    throw new ValidationError([{ field: 'params.file', reason: `audio above ${MAX_TRANSCRIPTION_BYTES} bytes` }]);
  }
  const apiKey = await openAiKeyOf(auth.companyId);
  if (!apiKey) {
    throw new BadRequest('ERR_NO_OPENAI_KEY', 'No OpenAI key is configured for the company', [
      { field: 'settings.openAiKey', reason: 'set the company’s OpenAI key first' },
    ]);
  }
  const bytes = await getMediaObject(key);
  const text = await transcribeAudio(apiKey, {
    bytes,
    filename: key.split('/').pop() ?? 'audio.ogg',
    contentType: head.contentType,
  });
  if (cacheOn) await setTranscription(auth.companyId, cacheOn, text);
  return { transcribedText: text };
};

// --------------------------------------------------------------------------------------------- counts

/**
 * GET /messages-allMe: how many messages the company's attendants sent (fromMe) — or its contacts sent —
 * between two days (company time zone), from the day counters (decisions D54). Dashboard data: admins and
 * users with showDashboard.
 */
export const countMessages = async (
  auth: AuthContext,
  query: { fromMe: boolean; dateStart: string; dateEnd: string },
): Promise<{ count: { count: number }[] }> => {
  if (auth.profile !== 'admin' && !auth.super) {
    const user = await getUser(auth.companyId, auth.userId);
    if (user?.showDashboard !== 'enabled') throw noPermission();
  }
  if (query.dateEnd < query.dateStart) {
    throw new ValidationError([{ field: 'query.dateEnd', reason: 'must not be before dateStart' }]);
  }
  const total = await sumMessageDays(auth.companyId, query.dateStart, query.dateEnd, query.fromMe);
  return { count: [{ count: total }] };
};
