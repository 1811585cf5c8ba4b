import { randomUUID } from 'node:crypto';
import type { Contact } from '../../data/contact-repository';
import {
  claimProviderRef,
  getMessage,
  messageWireId,
  storeMessage,
  type StoredMessage,
} from '../../data/message-repository';
import { getTicket, type Ticket } from '../../data/ticket-repository';
import { newUlid, ulidTime } from '../../data/ulids';
import type { ReadScope } from '../../data/read-scope';
import { lastMessagePreview } from '../pipeline/message-content';
import { logger } from '../../shared/logger';
import { enqueueOutbound, whatsappMessageId } from '../pipeline/outbound-queue';
import { isReplyWindowOpen } from '../pipeline/reply-window';
import { publishForTicket, ticketViewOf } from './ticket-events';
import { toContactView, toMessageView } from './ticket-views';

/**
 * Texts a ticket transition posts as the attendant (core §4): the greeting on accept, the farewell on
 * resolve, the transfer notice. Stored like any outbound message (fromMe, ack 0, the attendant as author),
 * then queued for the channel (decisions D34, D41). On Meta channels a closed 24-hour window skips the
 * text (the transition still happens) rather than failing the attendant's action.
 */
export const postAgentText = (
  scope: ReadScope,
  ticket: Ticket,
  contact: Contact,
  body: string,
  userId: number | null,
): Promise<StoredMessage | null> => postText(scope, ticket, contact, body, { userId });

/**
 * A text the bot sends by itself (the ticket timers, decisions D96): like `postAgentText` with no author and
 * `automatic: chatBot`, but its provider id comes from `key`, so the same key sends once however often the
 * caller runs (a redelivery, two ticks): a second call finds it stored and only re-queues it while it is
 * still unsent (ack 0; the sender drops what went out).
 */
export const postBotText = (
  scope: ReadScope,
  ticket: Ticket,
  contact: Contact,
  body: string,
  key: string,
): Promise<StoredMessage | null> => postText(scope, ticket, contact, body, { userId: null, key });

/** An attachment already in the media store (a scheduled message's file, decisions D118). */
export interface StoredAttachment {
  key: string;
  mimetype: string;
  filename: string;
  size: number;
  /** Audio: a voice note recorded on the spot (a flow's audio card with `record`, decisions D139). */
  voice?: boolean;
}

const mediaTypeOf = (mimetype: string): string =>
  mimetype.startsWith('image/')
    ? 'image'
    : mimetype.startsWith('video/')
      ? 'video'
      : mimetype.startsWith('audio/')
        ? 'audio'
        : 'document';

/**
 * `postBotText` with an optional attachment (the text becomes its caption): a scheduled message
 * (decisions D118), sent once per `key` the same way.
 */
export const postBotMessage = (
  scope: ReadScope,
  ticket: Ticket,
  contact: Contact,
  body: string,
  key: string,
  media?: StoredAttachment,
): Promise<StoredMessage | null> =>
  postText(scope, ticket, contact, body, { userId: null, key, ...(media ? { media } : {}) });

const postText = async (
  scope: ReadScope,
  ticket: Ticket,
  contact: Contact,
  body: string,
  options: { userId: number | null; key?: string; media?: StoredAttachment },
): Promise<StoredMessage | null> => {
  const { userId, key, media } = options;
  const text = body.trim();
  if ((!text && !media) || !ticket.chatId) return null;
  if (!isReplyWindowOpen(ticket)) {
    logger.info('agent text skipped: reply window closed', { companyId: ticket.companyId, ticketId: ticket.id });
    return null;
  }
  const { companyId, whatsappId } = ticket;
  const providerId = whatsappMessageId(
    `${companyId}:${whatsappId}:${ticket.id}:${key === undefined ? `agent:${randomUUID()}` : `bot:${key}`}`,
  );
  const { ref } = await claimProviderRef(companyId, whatsappId, providerId, {
    ticketId: ticket.id,
    ulid: newUlid(Date.now()),
    contactId: ticket.contactId,
  });
  if (ref.ticketId !== ticket.id) return null;
  const message: StoredMessage = {
    ulid: ref.ulid,
    companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId,
    body: text,
    mediaType: 'chat',
    ...(media
      ? {
          mediaType: mediaTypeOf(media.mimetype),
          mediaKey: media.key,
          mimetype: media.mimetype,
          filename: media.filename,
          size: media.size,
          ...(media.voice ? { dataJson: JSON.stringify({ voice: true }) } : {}),
        }
      : {}),
    fromMe: true,
    isPrivate: false,
    isDeleted: false,
    isEdited: false,
    isForwarded: false,
    queueId: ticket.queueId,
    ack: 0,
    // A keyed text keeps the time it was first claimed with (a retry stores the same message).
    createdAt: new Date(key === undefined ? Date.now() : ulidTime(ref.ulid)).toISOString(),
    providerId,
    userId,
    ...(key === undefined ? {} : { automatic: 'chatBot' as const }),
  };
  const outcome = await storeMessage(message, {
    lastMessage: lastMessagePreview(message),
    updatedAt: message.createdAt,
    unread: key === undefined ? 'reset' : 'keep',
  });
  if (outcome === 'ticket-gone') return null;
  if (outcome === 'duplicate') {
    // Only a keyed text can meet itself: stored by an earlier run; queue it again only while unsent.
    const stored = key === undefined ? null : await getMessage(companyId, ticket.id, ref.ulid);
    if (!stored || stored.ack !== 0) return null;
  } else {
    const current = (await getTicket(companyId, ticket.id)) ?? ticket;
    const view = await ticketViewOf(scope, current, contact);
    await publishForTicket(scope, current, [
      {
        channel: 'appMessage',
        action: 'create',
        message: toMessageView(message, current),
        ticket: view,
        contact: toContactView(contact),
      },
    ]);
  }
  await enqueueOutbound({
    kind: 'send',
    companyId,
    whatsappId,
    channel: ticket.channel,
    ticketId: ticket.id,
    messageId: messageWireId(ticket.id, ref.ulid),
    chatId: ticket.chatId,
    ...(ticket.channel === 'whatsapp' ? { providerMessageId: providerId } : {}),
    requestedAt: new Date().toISOString(),
  });
  return message;
};

/**
 * A private note in the ticket (the transfer dialog's message, core §7 `msgTransfer`): stored as the
 * attendant's message with `isPrivate`, shown to the team, never queued for the channel.
 */
export const postPrivateNote = async (
  scope: ReadScope,
  ticket: Ticket,
  contact: Contact,
  body: string,
  userId: number,
): Promise<StoredMessage | null> => {
  const text = body.trim();
  if (!text) return null;
  const message: StoredMessage = {
    ulid: newUlid(Date.now()),
    companyId: ticket.companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    body: text,
    mediaType: 'chat',
    fromMe: true,
    isPrivate: true,
    isDeleted: false,
    isEdited: false,
    isForwarded: false,
    queueId: ticket.queueId,
    ack: 0,
    createdAt: new Date().toISOString(),
    userId,
  };
  const outcome = await storeMessage(message, {
    lastMessage: lastMessagePreview(message),
    updatedAt: message.createdAt,
    unread: 'keep',
  });
  if (outcome !== 'stored') return null;
  const current = (await getTicket(ticket.companyId, ticket.id)) ?? ticket;
  await publishForTicket(scope, current, [
    {
      channel: 'appMessage',
      action: 'create',
      message: toMessageView(message, current),
      ticket: await ticketViewOf(scope, current, contact),
      contact: toContactView(contact),
    },
  ]);
  return message;
};
