import type { ContactView } from '../../contracts/contacts';
import type { MessageView } from '../../contracts/messages';
import type { TicketView } from '../../contracts/tickets';
import type { SameKeys } from '../../shared/same-keys';
import type { Contact } from '../../data/contact-repository';
import { mediaUrl } from '../../data/media-store';
import { messageSortKey, messageWireId, type StoredMessage } from '../../data/message-repository';
import type { Ticket } from '../../data/ticket-repository';
import { replyWindowEndsAt } from '../pipeline/reply-window';

/**
 * Tickets, contacts and messages as the wire shows them (core spec §3 field names; the types are the wire
 * contracts in functions/contracts/), built in one place for the real-time events and the tickets,
 * contacts and messages APIs. Internal fields (keys, versions, provider ids, identities) never leave the
 * server.
 */
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

export type TicketRefs = Pick<TicketView, 'queue' | 'whatsapp' | 'user'>;

/** The stored ticket's fields that never leave the server. */
type InternalTicketField =
  | 'companyId'
  | 'version'
  | 'lastMsgSk'
  | 'readUpTo'
  | 'firstProviderId'
  | 'chatId'
  | 'tagIds'
  | 'lastInboundAt'
  | 'botStage'
  | 'botPath'
  | 'botTrigger';

const _sameKeys: SameKeys<
  Omit<Ticket, InternalTicketField> & TicketRefs & Pick<TicketView, 'contact' | 'tags' | 'replyWindowEndsAt'>,
  TicketView
> = true;

export const toTicketView = (t: Ticket, contact: Contact, refs: TicketRefs): TicketView => {
  const {
    companyId: _c,
    version: _v,
    lastMsgSk: _l,
    readUpTo: _r,
    firstProviderId: _f,
    chatId: _h,
    lastInboundAt: _i,
    botStage: _bs,
    botPath: _bp,
    botTrigger: _bt,
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

/**
 * A message's view. Its optional fields go out only when set; `satisfies` ties their names to the contract,
 * which a spread alone would not.
 */
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
  ...(m.mimetype ? ({ mimetype: m.mimetype } satisfies Partial<MessageView>) : {}),
  ...(m.filename ? ({ filename: m.filename } satisfies Partial<MessageView>) : {}),
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
  ...(m.sendError ? ({ sendError: m.sendError } satisfies Partial<MessageView>) : {}),
  ...(m.automatic ? ({ automatic: m.automatic } satisfies Partial<MessageView>) : {}),
});
