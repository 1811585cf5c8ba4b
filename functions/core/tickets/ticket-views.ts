import type { Contact } from '../../data/contact-repository';
import { mediaUrl } from '../../data/media-store';
import { messageSortKey, messageWireId, type StoredMessage } from '../../data/message-repository';
import type { Ticket } from '../../data/ticket-repository';
import { replyWindowEndsAt } from '../pipeline/reply-window';

/**
 * Tickets, contacts and messages as the wire shows them (core spec §3 field names), built in one place for
 * the real-time events and, later, the tickets and messages APIs. Internal fields (keys, versions, provider
 * ids, identities) never leave the server.
 */
export interface ContactView {
  id: number;
  name: string;
  number: string;
  email: string;
  extraInfo: Contact['extraInfo'];
  disableBot: boolean;
  lgpdAcceptedAt: string | null;
  active: boolean;
  acceptAudioMessage: boolean;
  isGroup: boolean;
  channel: Contact['channel'];
  urlPicture: string;
  whatsappId: number | null;
  tags: { id: number }[];
  createdAt: string;
  updatedAt: string;
}

export const toContactView = (c: Contact): ContactView => ({
  id: c.id,
  name: c.name,
  number: c.number,
  email: c.email,
  extraInfo: c.extraInfo,
  disableBot: c.disableBot,
  lgpdAcceptedAt: c.lgpdAcceptedAt,
  active: c.active,
  acceptAudioMessage: c.acceptAudioMessage,
  isGroup: c.isGroup,
  channel: c.channel,
  urlPicture: c.urlPicture,
  whatsappId: c.whatsappId,
  tags: (c.tagIds ?? []).map((id) => ({ id })),
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

export interface TicketRefs {
  queue: { id: number; name: string; color: string } | null;
  whatsapp: { id: number; name: string; groupAsTicket: string } | null;
  user: { id: number; name: string } | null;
}

export type TicketView = Omit<
  Ticket,
  'companyId' | 'version' | 'lastMsgSk' | 'readUpTo' | 'firstProviderId' | 'chatId' | 'tagIds' | 'lastInboundAt'
> &
  TicketRefs & {
    contact: ContactView;
    tags: { id: number }[];
    /**
     * Facebook, Instagram and Cloud API tickets: when Meta's 24-hour reply window closes (ISO), so the
     * composer can warn (core §8; decisions D40). Null for WhatsApp, and before the contact wrote.
     */
    replyWindowEndsAt: string | null;
  };

export const toTicketView = (t: Ticket, contact: Contact, refs: TicketRefs): TicketView => {
  const {
    companyId: _c,
    version: _v,
    lastMsgSk: _l,
    readUpTo: _r,
    firstProviderId: _f,
    chatId: _h,
    lastInboundAt: _i,
    tagIds,
    ...rest
  } = t;
  return {
    ...rest,
    ...refs,
    contact: toContactView(contact),
    tags: (tagIds ?? []).map((id) => ({ id })),
    replyWindowEndsAt: replyWindowEndsAt(t),
  };
};

export interface MessageView {
  id: string;
  ticketId: number;
  contactId: number;
  body: string;
  fromMe: boolean;
  isPrivate: boolean;
  isDeleted: boolean;
  isEdited: boolean;
  isForwarded: boolean;
  mediaUrl: string | null;
  mediaType: string;
  mimetype?: string;
  filename?: string;
  quotedMsgId: string | null;
  quotedMsg: {
    id: string;
    body: string;
    mediaType: string;
    mediaUrl: string | null;
    fromMe: boolean;
    contact: { name: string } | null;
  } | null;
  queueId: number | null;
  ack: number;
  read: boolean;
  createdAt: string;
  vCard: string | null;
  dataJson: string | null;
  participant: StoredMessage['participant'] | null;
  userId: number | null;
  /** The send failed after retries (decisions D41): `ERR_SENDING_WAPP_MSG`. */
  sendError?: string;
}

export const toMessageView = (m: StoredMessage, ticket: Pick<Ticket, 'readUpTo'> | null = null): MessageView => ({
  id: messageWireId(m.ticketId, m.ulid),
  ticketId: m.ticketId,
  contactId: m.contactId,
  body: m.body,
  fromMe: m.fromMe,
  isPrivate: m.isPrivate,
  isDeleted: m.isDeleted,
  isEdited: m.isEdited,
  isForwarded: m.isForwarded,
  mediaUrl: m.mediaKey ? mediaUrl(m.mediaKey) : null,
  mediaType: m.mediaType,
  ...(m.mimetype ? { mimetype: m.mimetype } : {}),
  ...(m.filename ? { filename: m.filename } : {}),
  quotedMsgId: m.quotedMsgId ?? null,
  quotedMsg: m.quotedMsg
    ? {
        id: m.quotedMsg.id,
        body: m.quotedMsg.body,
        mediaType: m.quotedMsg.mediaType,
        mediaUrl: m.quotedMsg.mediaKey ? mediaUrl(m.quotedMsg.mediaKey) : null,
        fromMe: m.quotedMsg.fromMe,
        contact: m.quotedMsg.contactName ? { name: m.quotedMsg.contactName } : null,
      }
    : null,
  queueId: m.queueId,
  ack: m.ack,
  read: m.fromMe || (ticket?.readUpTo !== undefined && messageSortKey(m.ulid) <= ticket.readUpTo),
  createdAt: m.createdAt,
  vCard: m.vCard ?? null,
  dataJson: m.dataJson ?? null,
  participant: m.participant ?? null,
  userId: m.userId ?? null,
  ...(m.sendError ? { sendError: m.sendError } : {}),
});
