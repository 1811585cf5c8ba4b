import { createHash } from 'node:crypto';
import type { proto, WACallEvent, WAMessage, WAMessageKey, WAMessageUpdate } from '@whiskeysockets/baileys';
import { safeFileName } from '../../core/media/attachments';
import type { InboundContent, InboundEventInput, InboundIdentity } from '../inbound';

/**
 * Baileys' events as the inbound contract (decisions D31), pure except for the media seam: `messages.upsert`
 * messages, `messages.update` (acks, edits, deletes by the contact) and `call` events each become at most
 * one `InboundEventInput`; everything else (status broadcasts, newsletters, protocol and key-distribution
 * messages, stubs) maps to null.
 *
 * Identities: Baileys 6.17 gives a chat or a group participant as one JID — `<phone>@s.whatsapp.net` (a
 * phone, maybe with `:<device>`) or `<lid>@lid` — and has no `senderPn`/`participantPn` yet; later Baileys
 * versions add the other identity beside the key (`senderPn`, `participantPn`, `remoteJidAlt`,
 * `participantAlt`), which this mapping reads when present, so the inbound job can fold a LID and a phone
 * into one contact (data-model §2.12).
 */
export interface BaileysInboundContext {
  companyId: number;
  whatsappId: number;
  /** Downloads a message's media and stores it in the media bucket; answers the key (the seam tests fake). */
  storeMedia: (message: WAMessage, media: { key: string; mimetype: string }) => Promise<{ size?: number }>;
  /** The platform's download limit in bytes (decisions D172); larger media is not downloaded. */
  maxMediaBytes?: () => Promise<number>;
}

/** What a message whose media is above the download limit shows instead (decisions D172). */
export const tooLargeMediaText = (filename: string, limitBytes: number, caption?: string | null): string =>
  `📎 ${filename}\n(Arquivo não baixado: maior que o limite de download de ${limitBytes / (1024 * 1024)} MB.)` +
  (caption ? `\n${caption}` : '');

/** Keys as later Baileys versions carry them (absent in 6.17). */
type KeyWithAlternatives = WAMessageKey & {
  senderPn?: string | null;
  participantPn?: string | null;
  senderLid?: string | null;
  participantLid?: string | null;
  remoteJidAlt?: string | null;
  participantAlt?: string | null;
};

const userPart = (jid: string): string => jid.split('@')[0]!.split(':')[0]!;

/** One JID as identity fields: a phone (`@s.whatsapp.net`, `@c.us`) or a LID (`@lid`). */
const identityOf = (...jids: (string | null | undefined)[]): Omit<InboundIdentity, 'pushName'> | undefined => {
  const identity: { phone?: string; lid?: string } = {};
  for (const jid of jids) {
    if (!jid) continue;
    const digits = userPart(jid);
    if (!/^\d{5,32}$/.test(digits)) continue;
    if (jid.endsWith('@lid')) identity.lid ??= digits;
    else if (jid.endsWith('@s.whatsapp.net') || jid.endsWith('@c.us')) identity.phone ??= digits;
  }
  return identity.phone || identity.lid ? identity : undefined;
};

const isGroupJid = (jid: string): boolean => jid.endsWith('@g.us');

/** Chats we never turn into tickets: statuses, broadcast lists, channels. */
const isIgnoredChat = (jid: string): boolean =>
  jid === 'status@broadcast' || jid.endsWith('@broadcast') || jid.endsWith('@newsletter');

const toNumber = (value: number | Long | null | undefined): number | undefined => {
  if (value === null || value === undefined) return undefined;
  return typeof value === 'number' ? value : Number(value.toString());
};

/** Baileys' Long (protobufjs) without importing it. */
interface Long {
  toString: () => string;
}

const timestampOf = (value: number | Long | null | undefined): string => {
  const seconds = toNumber(value);
  return new Date(seconds ? seconds * 1000 : Date.now()).toISOString();
};

/** Unwraps ephemeral, view-once and document-with-caption envelopes (Baileys' normalizeMessageContent). */
const unwrap = (message: proto.IMessage | null | undefined): { content?: proto.IMessage; viewOnce: boolean } => {
  let content = message ?? undefined;
  let viewOnce = false;
  for (let i = 0; i < 5 && content; i += 1) {
    const inner =
      content.ephemeralMessage?.message ??
      content.viewOnceMessage?.message ??
      content.viewOnceMessageV2?.message ??
      content.viewOnceMessageV2Extension?.message ??
      content.documentWithCaptionMessage?.message ??
      content.editedMessage?.message;
    if (!inner) break;
    if (content.viewOnceMessage || content.viewOnceMessageV2 || content.viewOnceMessageV2Extension) viewOnce = true;
    content = inner;
  }
  return { content, viewOnce };
};

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'application/pdf': 'pdf',
};

/** Where an inbound media object goes (D31): deterministic, so a retried download overwrites. */
export const inboundMediaKey = (
  companyId: number,
  whatsappId: number,
  providerMessageId: string,
  name: string,
): string =>
  `c/${companyId}/inbound/${whatsappId}/${createHash('sha256').update(providerMessageId).digest('hex').slice(0, 32)}/${safeFileName(name)}`;

type MediaType = 'image' | 'video' | 'audio' | 'document' | 'sticker';

/** The text a message carries, for the kinds that are text. */
const textOf = (c: proto.IMessage): string | undefined =>
  // Decoded protobuf messages answer '' for absent strings (defaults on the prototype): `||`, not `??`.
  c.conversation ||
  c.extendedTextMessage?.text ||
  c.buttonsResponseMessage?.selectedDisplayText ||
  c.templateButtonReplyMessage?.selectedDisplayText ||
  c.listResponseMessage?.title ||
  (c.extendedTextMessage ? '' : undefined);

const contextOf = (c: proto.IMessage): proto.IContextInfo | undefined => {
  for (const part of Object.values(c)) {
    const info = (part as { contextInfo?: proto.IContextInfo } | null)?.contextInfo;
    if (info) return info;
  }
  return undefined;
};

const mediaOf = (
  c: proto.IMessage,
): { type: MediaType; media: proto.Message.IImageMessage & Record<string, unknown> } | undefined => {
  if (c.imageMessage) return { type: 'image', media: c.imageMessage as never };
  if (c.videoMessage) return { type: 'video', media: c.videoMessage as never };
  if (c.audioMessage) return { type: 'audio', media: c.audioMessage as never };
  if (c.documentMessage) return { type: 'document', media: c.documentMessage as never };
  if (c.stickerMessage) return { type: 'sticker', media: c.stickerMessage as never };
  return undefined;
};

/** A `messages.upsert` message as an inbound message event, or null when it is nothing we store. */
export const mapUpsertMessage = async (
  message: WAMessage,
  context: BaileysInboundContext,
): Promise<InboundEventInput | null> => {
  const key = message.key as KeyWithAlternatives;
  const chatId = key.remoteJid ?? '';
  const providerMessageId = key.id ?? '';
  if (!chatId || !providerMessageId || isIgnoredChat(chatId)) return null;
  const { content: c, viewOnce } = unwrap(message.message);
  if (!c) return null;
  // Edits and deletes arrive again as `messages.update` (Baileys' processMessage): mapped there.
  if (c.protocolMessage || (c.senderKeyDistributionMessage && Object.keys(c).length === 1)) return null;

  const isGroup = isGroupJid(chatId);
  const fromMe = key.fromMe === true;
  const pushName = !fromMe && message.pushName ? message.pushName.slice(0, 200) : undefined;
  const who = isGroup
    ? identityOf(key.participant, key.participantPn, key.participantLid, key.participantAlt)
    : identityOf(chatId, key.senderPn, key.senderLid, key.remoteJidAlt);
  if (!who && !(isGroup && fromMe)) return null;
  const person = who ? { ...who, ...(pushName ? { pushName } : {}) } : undefined;

  const info = contextOf(c);
  let content: InboundContent | null = null;
  const media = mediaOf(c);
  if (media) {
    const m = media.media as {
      mimetype?: string | null;
      fileName?: string | null;
      caption?: string | null;
      ptt?: boolean | null;
      fileLength?: number | Long | null;
    };
    const mimetype = (m.mimetype ?? 'application/octet-stream').split(';')[0]!.trim();
    const name =
      m.fileName ??
      `${media.type}.${EXTENSIONS[mimetype] ?? mimetype.split('/')[1]?.replace(/[^a-z0-9]/g, '') ?? 'bin'}`;
    const declared = toNumber(m.fileLength);
    const limit = await context.maxMediaBytes?.();
    if (limit !== undefined && declared !== undefined && declared > limit) {
      // Above the download limit: not downloaded; the message names the file and says why (D172).
      content = { type: 'text', body: tooLargeMediaText(safeFileName(name), limit, m.caption) };
    } else {
      const mediaKey = inboundMediaKey(context.companyId, context.whatsappId, providerMessageId, name);
      const stored = await context.storeMedia(message, { key: mediaKey, mimetype });
      const size = stored.size ?? declared;
      content = {
        type: media.type,
        mediaKey,
        mimetype,
        ...(m.fileName ? { filename: m.fileName.slice(0, 255) } : {}),
        ...(size !== undefined ? { size } : {}),
        ...(m.caption ? { body: m.caption } : {}),
        ...(media.type === 'audio' ? { voice: m.ptt === true } : {}),
        ...((media.type === 'image' || media.type === 'video') && viewOnce ? { viewOnce: true } : {}),
      } as InboundContent;
    }
  } else if (c.reactionMessage) {
    const target = c.reactionMessage.key?.id;
    if (!target) return null;
    content = { type: 'reaction', emoji: c.reactionMessage.text ?? '', targetProviderMessageId: target };
  } else if (c.locationMessage || c.liveLocationMessage) {
    const l = (c.locationMessage ?? c.liveLocationMessage)!;
    content = {
      type: 'location',
      latitude: l.degreesLatitude ?? 0,
      longitude: l.degreesLongitude ?? 0,
      ...('name' in l && l.name ? { name: l.name } : {}),
      ...('address' in l && l.address ? { address: l.address } : {}),
    };
  } else if (c.contactMessage?.vcard) {
    content = {
      type: 'contact',
      vCard: c.contactMessage.vcard,
      ...(c.contactMessage.displayName ? { displayName: c.contactMessage.displayName } : {}),
    };
  } else if (c.contactsArrayMessage?.contacts?.length) {
    content = {
      type: 'contact',
      vCard: c.contactsArrayMessage.contacts.map((x) => x.vcard ?? '').join('\n'),
      ...(c.contactsArrayMessage.displayName ? { displayName: c.contactsArrayMessage.displayName } : {}),
    };
  } else if (c.pollCreationMessage || c.pollCreationMessageV2 || c.pollCreationMessageV3) {
    const p = (c.pollCreationMessage ?? c.pollCreationMessageV2 ?? c.pollCreationMessageV3)!;
    content = {
      type: 'poll',
      name: p.name ?? '',
      options: (p.options ?? []).map((o) => o.optionName ?? ''),
      ...(p.selectableOptionsCount !== null && p.selectableOptionsCount !== undefined
        ? { selectableCount: p.selectableOptionsCount }
        : {}),
    };
  } else if (c.listMessage) {
    const l = c.listMessage;
    content = {
      type: 'list',
      ...(l.title ? { title: l.title } : {}),
      ...(l.description ? { body: l.description } : {}),
      ...(l.buttonText ? { buttonText: l.buttonText } : {}),
      sections: (l.sections ?? []).map((s) => ({
        ...(s.title ? { title: s.title } : {}),
        rows: (s.rows ?? []).map((r) => ({
          ...(r.rowId ? { id: r.rowId } : {}),
          title: r.title ?? '',
          ...(r.description ? { description: r.description } : {}),
        })),
      })),
    };
  } else {
    const body = textOf(c);
    if (body === undefined) return null;
    content = { type: 'text', body };
  }

  return {
    kind: 'message',
    companyId: context.companyId,
    whatsappId: context.whatsappId,
    chat: { id: chatId, isGroup },
    providerMessageId,
    fromMe,
    timestamp: timestampOf(message.messageTimestamp),
    ...(isGroup ? (person ? { participant: person } : {}) : { contact: person! }),
    ...(info?.stanzaId ? { quotedProviderMessageId: info.stanzaId } : {}),
    isForwarded: info?.isForwarded === true,
    content,
  };
};

/** Baileys' `WebMessageInfo.Status` (2 server ack … 5 played) as our acks 1…4 (spec §4). */
export const ackOfStatus = (status: number | null | undefined): number | null =>
  status !== null && status !== undefined && status >= 2 && status <= 5 ? status - 1 : null;

/** Baileys' REVOKE stub type (WAMessageStubType.REVOKE). */
const REVOKE = 1;

/** A `messages.update` entry: an ack of our message, an edit by its sender, or a delete for everyone. */
export const mapMessageUpdate = (
  entry: WAMessageUpdate,
  context: Pick<BaileysInboundContext, 'companyId' | 'whatsappId'>,
): InboundEventInput | null => {
  const chatId = entry.key.remoteJid ?? '';
  const providerMessageId = entry.key.id ?? '';
  if (!chatId || !providerMessageId || isIgnoredChat(chatId)) return null;
  const common = {
    companyId: context.companyId,
    whatsappId: context.whatsappId,
    chat: { id: chatId, isGroup: isGroupJid(chatId) },
    providerMessageId,
  };
  const update = entry.update;
  if (update.message === null && update.messageStubType === REVOKE) return { kind: 'delete', ...common };
  const edited = update.message?.editedMessage?.message ?? update.message?.protocolMessage?.editedMessage;
  if (edited) {
    const body = textOf(unwrap(edited).content ?? {}) ?? unwrap(edited).content?.imageMessage?.caption;
    if (body === undefined || body === null) return null;
    const editedAt = toNumber(update.messageTimestamp);
    return { kind: 'edit', ...common, body, ...(editedAt ? { editId: `E${editedAt}` } : {}) };
  }
  const ack = ackOfStatus(update.status);
  if (ack !== null && entry.key.fromMe) return { kind: 'ack', ...common, ack };
  return null;
};

/**
 * A `call` event as a call log message. A call passes through several events with one id (offer, ringing,
 * accept or reject or timeout, terminate); only the outcome is stored: the first of accept, reject,
 * timeout or terminate (a terminate without an accept is a missed call) — later ones are duplicates.
 */
export const mapCall = (
  call: WACallEvent,
  context: Pick<BaileysInboundContext, 'companyId' | 'whatsappId'>,
): InboundEventInput | null => {
  const status = { accept: 'accepted', reject: 'rejected', timeout: 'missed', terminate: 'missed' }[
    call.status as 'accept' | 'reject' | 'timeout' | 'terminate'
  ] as 'accepted' | 'rejected' | 'missed' | undefined;
  if (!status || call.isGroup) return null;
  const contact = identityOf(call.from, call.chatId);
  if (!contact) return null;
  return {
    kind: 'message',
    companyId: context.companyId,
    whatsappId: context.whatsappId,
    chat: { id: call.chatId, isGroup: false },
    providerMessageId: `CALL-${call.id}`.replace(/[#\s]/g, ''),
    fromMe: false,
    timestamp: (call.date instanceof Date ? call.date : new Date()).toISOString(),
    contact,
    content: { type: 'call_log', isVideo: call.isVideo === true, status },
  };
};
