import type { InboundEventInput } from '../inbound';
import type { MetaTargetKind } from '../../data/meta-repository';

/**
 * Meta webhook payloads → our inbound events (decisions D31, D40). Pure: no I/O, so each shape Meta sends
 * is a unit test. A payload's `object` says the product: `page` (Messenger), `instagram`, or
 * `whatsapp_business_account` (the Cloud API). Each event names its target (the page, the Instagram account
 * or the phone number id) for the `META#…` pointer that says which company and connection it belongs to,
 * and media to download (the service stores the bytes before the event is enqueued).
 */
export type MetaChannel = 'facebook' | 'instagram' | 'whatsappapi';

/** An event before routing: everything but the company and the connection. */
export type DraftEvent = DistributiveOmit<InboundEventInput, 'companyId' | 'whatsappId'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export type MediaSource = { kind: 'url'; url: string } | { kind: 'cloud'; mediaId: string };

export interface MetaDraft {
  target: { kind: MetaTargetKind; id: string };
  event: DraftEvent;
  /**
   * For media messages: where the bytes are. The event's content then lacks `mediaKey` and `mimetype`,
   * which the service fills after storing the bytes (or turns the message into a text when it cannot).
   */
  media?: { source: MediaSource; mimetype?: string; filename?: string };
}

/** Ids we store must not hold `#` or spaces (key separators); Meta's never do, but a payload is input. */
const safeId = (id: unknown): string | null =>
  typeof id === 'string' && /^[^#\s]{1,200}$/.test(id) ? id : typeof id === 'number' ? String(id) : null;

const isoFromMillis = (ms: unknown): string => {
  const n = typeof ms === 'number' ? ms : Number(ms);
  return Number.isFinite(n) && n > 0 ? new Date(n).toISOString() : new Date().toISOString();
};

const isoFromSeconds = (s: unknown): string => {
  const n = Number(s);
  return Number.isFinite(n) && n > 0 ? new Date(n * 1000).toISOString() : new Date().toISOString();
};

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

// ------------------------------------------------------------------------------------ Messenger, Instagram

const ATTACHMENT_TYPES: Record<string, 'image' | 'video' | 'audio' | 'document'> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  file: 'document',
};

const messagingEvents = (
  channel: 'facebook' | 'instagram',
  kind: MetaTargetKind,
  accountId: string,
  item: Json,
  options: { appId?: string | undefined },
): MetaDraft[] => {
  const sender = safeId(obj(item.sender)?.id);
  const recipient = safeId(obj(item.recipient)?.id);
  if (!sender || !recipient) return [];
  const message = obj(item.message);
  // An echo is a message the page sent; ours are stored by our sender, so only other apps' echoes (a
  // reply typed in Meta Business Suite) become fromMe messages.
  const echo = message?.is_echo === true;
  if (echo && options.appId && String(message?.app_id ?? '') === options.appId) return [];
  const person = echo ? recipient : sender;
  const target = { kind, id: accountId };
  const common = {
    channel,
    chat: { id: person, isGroup: false },
  } as const;
  const contact = { externalId: person, accountId };
  const timestamp = isoFromMillis(item.timestamp);

  if (message) {
    const mid = safeId(message.mid);
    if (!mid) return [];
    if (message.is_deleted === true) return [{ target, event: { kind: 'delete', ...common, providerMessageId: mid } }];
    const base = {
      kind: 'message' as const,
      ...common,
      fromMe: echo,
      timestamp,
      contact,
      ...(safeId(obj(message.reply_to)?.mid) ? { quotedProviderMessageId: safeId(obj(message.reply_to)?.mid)! } : {}),
    };
    const text = str(message.text);
    const attachments = arr(message.attachments)
      .map(obj)
      .filter((a): a is Json => a !== undefined);
    const drafts: MetaDraft[] = [];
    attachments.forEach((attachment, index) => {
      const providerMessageId = index === 0 ? mid : `${mid}_${index}`;
      const type = ATTACHMENT_TYPES[str(attachment.type) ?? ''];
      const payload = obj(attachment.payload);
      const url = str(payload?.url);
      const caption = index === 0 ? text : undefined;
      if (type && url) {
        drafts.push({
          target,
          event: {
            ...base,
            providerMessageId,
            // mediaKey and mimetype are filled once the bytes are stored
            content: { type, ...(caption ? { body: caption } : {}) } as never,
          },
          media: { source: { kind: 'url', url } },
        });
      } else {
        // Shares, story mentions, reels, templates: shown as text with their link.
        const title = str(payload?.title) ?? str(attachment.title);
        const body = [caption, title, url].filter(Boolean).join('\n') || `[${str(attachment.type) ?? 'anexo'}]`;
        drafts.push({ target, event: { ...base, providerMessageId, content: { type: 'text', body } } });
      }
    });
    if (attachments.length === 0 && text !== undefined) {
      // A quick reply carries the bot menu choice's id as its payload (D132).
      const choiceId = str(obj(message.quick_reply)?.payload)?.slice(0, 64);
      drafts.push({
        target,
        event: {
          ...base,
          providerMessageId: mid,
          content: { type: 'text', body: text, ...(choiceId ? { choiceId } : {}) },
        },
      });
    }
    return drafts;
  }

  // A button the person tapped (a menu, a template's quick reply): its title is what they "said".
  const postback = obj(item.postback);
  if (postback) {
    const title = str(postback.title) ?? str(postback.payload);
    if (!title) return [];
    const providerMessageId = safeId(postback.mid) ?? `pb_${person}_${String(item.timestamp ?? '')}`.slice(0, 200);
    return [
      {
        target,
        event: {
          kind: 'message',
          ...common,
          providerMessageId,
          fromMe: false,
          timestamp,
          contact,
          content: { type: 'text', body: title },
        },
      },
    ];
  }

  const reaction = obj(item.reaction);
  if (reaction) {
    const targetMid = safeId(reaction.mid);
    if (!targetMid) return [];
    const emoji = reaction.action === 'unreact' ? '' : (str(reaction.emoji) ?? str(reaction.reaction) ?? '');
    return [
      {
        target,
        event: {
          kind: 'message',
          ...common,
          // A reaction has no id of its own: one per (message, person, time).
          providerMessageId: `r_${targetMid}_${person}_${String(item.timestamp ?? '')}`.slice(0, 200),
          fromMe: false,
          timestamp,
          contact,
          content: { type: 'reaction', emoji: emoji.slice(0, 32), targetProviderMessageId: targetMid },
        },
      },
    ];
  }

  const edit = obj(item.message_edit);
  if (edit) {
    const mid = safeId(edit.mid);
    const body = str(edit.text);
    if (!mid || body === undefined) return [];
    const numEdit = edit.num_edit === undefined ? undefined : String(edit.num_edit);
    return [
      {
        target,
        event: {
          kind: 'edit',
          ...common,
          providerMessageId: mid,
          body,
          ...(numEdit ? { editId: `${mid}_e${numEdit}` } : {}),
        },
      },
    ];
  }

  // Deliveries name their messages (Messenger); Instagram reads name one. Messenger's reads carry only a
  // watermark time, which names no message: ignored (decisions D40).
  const delivery = obj(item.delivery);
  if (delivery) {
    return arr(delivery.mids)
      .map(safeId)
      .filter((m): m is string => m !== null)
      .map((mid) => ({ target, event: { kind: 'ack', ...common, providerMessageId: mid, ack: 2 } }));
  }
  const read = obj(item.read);
  const readMid = safeId(read?.mid);
  if (readMid) return [{ target, event: { kind: 'ack', ...common, providerMessageId: readMid, ack: 3 } }];
  return [];
};

// ------------------------------------------------------------------------------------ WhatsApp Cloud API

const CLOUD_MEDIA: Record<string, 'image' | 'video' | 'audio' | 'document' | 'sticker'> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  document: 'document',
  sticker: 'sticker',
};

const STATUS_ACKS: Record<string, number> = { sent: 1, delivered: 2, read: 3 };

const digitsOnly = (v: unknown): string | undefined => {
  const d = typeof v === 'string' ? v.replace(/\D/g, '') : undefined;
  return d && d.length >= 5 && d.length <= 32 ? d : undefined;
};

const vCardOf = (card: Json): { vCard: string; displayName?: string } => {
  const name = obj(card.name);
  const displayName = str(name?.formatted_name) ?? str(name?.first_name) ?? '';
  const phones = arr(card.phones)
    .map(obj)
    .filter((p): p is Json => p !== undefined)
    .map((p) => {
      const wa = digitsOnly(p.wa_id);
      return `TEL;type=${str(p.type) ?? 'CELL'}${wa ? `;waid=${wa}` : ''}:${str(p.phone) ?? wa ?? ''}`;
    });
  return {
    vCard: ['BEGIN:VCARD', 'VERSION:3.0', `FN:${displayName}`, ...phones, 'END:VCARD'].join('\n'),
    ...(displayName ? { displayName: displayName.slice(0, 200) } : {}),
  };
};

const cloudMessage = (phoneNumberId: string, names: Map<string, string>, message: Json): MetaDraft[] => {
  const id = safeId(message.id);
  const from = digitsOnly(message.from);
  if (!id || !from) return [];
  const target = { kind: 'waphone' as const, id: phoneNumberId };
  const pushName = names.get(from);
  const quoted = safeId(obj(message.context)?.id);
  const base = {
    kind: 'message' as const,
    channel: 'whatsappapi' as const,
    chat: { id: from, isGroup: false },
    providerMessageId: id,
    fromMe: false,
    timestamp: isoFromSeconds(message.timestamp),
    contact: { phone: from, ...(pushName ? { pushName } : {}) },
    ...(quoted ? { quotedProviderMessageId: quoted } : {}),
    ...(obj(message.context)?.forwarded === true ? { isForwarded: true } : {}),
  };
  const type = str(message.type) ?? '';
  const part = obj(message[type]);
  const mediaType = CLOUD_MEDIA[type];
  if (mediaType && part) {
    const mediaId = safeId(part.id);
    if (!mediaId) return [];
    const caption = str(part.caption);
    const filename = str(part.filename);
    return [
      {
        target,
        event: {
          ...base,
          content: {
            type: mediaType,
            ...(caption ? { body: caption } : {}),
            ...(filename ? { filename } : {}),
            ...(mediaType === 'audio' && part.voice === true ? { voice: true } : {}),
          } as never,
        },
        media: {
          source: { kind: 'cloud', mediaId },
          ...(str(part.mime_type) ? { mimetype: str(part.mime_type)! } : {}),
          ...(filename ? { filename } : {}),
        },
      },
    ];
  }
  switch (type) {
    case 'text':
      return [{ target, event: { ...base, content: { type: 'text', body: str(part?.body) ?? '' } } }];
    case 'location': {
      const latitude = Number(part?.latitude);
      const longitude = Number(part?.longitude);
      if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return [];
      return [
        {
          target,
          event: {
            ...base,
            content: {
              type: 'location',
              latitude,
              longitude,
              ...(str(part?.name) ? { name: str(part?.name)! } : {}),
              ...(str(part?.address) ? { address: str(part?.address)! } : {}),
            },
          },
        },
      ];
    }
    case 'contacts':
      return arr(message.contacts)
        .map(obj)
        .filter((c): c is Json => c !== undefined)
        .map((card, index) => ({
          target,
          event: {
            ...base,
            providerMessageId: index === 0 ? id : `${id}_${index}`,
            content: { type: 'contact', ...vCardOf(card) },
          },
        }));
    case 'reaction': {
      const targetId = safeId(part?.message_id);
      if (!targetId) return [];
      return [
        {
          target,
          event: {
            ...base,
            content: {
              type: 'reaction',
              emoji: (str(part?.emoji) ?? '').slice(0, 32),
              targetProviderMessageId: targetId,
            },
          },
        },
      ];
    }
    case 'button':
      return [{ target, event: { ...base, content: { type: 'text', body: str(obj(message.button)?.text) ?? '' } } }];
    case 'interactive': {
      // A pressed button or list row: its title is what the ticket shows, its id what the bot reads (D132).
      const reply = obj(part?.button_reply) ?? obj(part?.list_reply);
      const choiceId = str(reply?.id)?.slice(0, 64);
      return [
        {
          target,
          event: {
            ...base,
            content: { type: 'text', body: str(reply?.title) ?? '', ...(choiceId ? { choiceId } : {}) },
          },
        },
      ];
    }
    default:
      // `unsupported`, `system`, `order`…: nothing a ticket can show yet.
      return [];
  }
};

const cloudChange = (value: Json): MetaDraft[] => {
  const phoneNumberId = safeId(obj(value.metadata)?.phone_number_id);
  if (!phoneNumberId) return [];
  const names = new Map<string, string>();
  for (const c of arr(value.contacts).map(obj)) {
    const wa = digitsOnly(c?.wa_id);
    const name = str(obj(c?.profile)?.name);
    if (wa && name) names.set(wa, name.trim().slice(0, 200));
  }
  const drafts = arr(value.messages)
    .map(obj)
    .filter((m): m is Json => m !== undefined)
    .flatMap((m) => cloudMessage(phoneNumberId, names, m));
  for (const status of arr(value.statuses).map(obj)) {
    const id = safeId(status?.id);
    const ack = STATUS_ACKS[str(status?.status) ?? ''];
    const recipient = digitsOnly(status?.recipient_id);
    if (!id || !ack || !recipient) continue; // `failed` keeps the clock; its errors are Meta's to show
    drafts.push({
      target: { kind: 'waphone', id: phoneNumberId },
      event: {
        kind: 'ack',
        channel: 'whatsappapi',
        chat: { id: recipient, isGroup: false },
        providerMessageId: id,
        ack,
      },
    });
  }
  return drafts;
};

/** Every event of one webhook payload, in payload order (Meta batches several entries per POST). */
export const mapMetaWebhook = (payload: unknown, options: { appId?: string | undefined } = {}): MetaDraft[] => {
  const body = obj(payload);
  if (!body) return [];
  const entries = arr(body.entry)
    .map(obj)
    .filter((e): e is Json => e !== undefined);
  switch (body.object) {
    case 'page':
    case 'instagram': {
      const channel = body.object === 'page' ? 'facebook' : 'instagram';
      const kind: MetaTargetKind = body.object === 'page' ? 'page' : 'ig';
      return entries.flatMap((entry) => {
        const accountId = safeId(entry.id);
        if (!accountId) return [];
        return arr(entry.messaging)
          .map(obj)
          .filter((m): m is Json => m !== undefined)
          .flatMap((item) => messagingEvents(channel, kind, accountId, item, options));
      });
    }
    case 'whatsapp_business_account':
      return entries.flatMap((entry) =>
        arr(entry.changes)
          .map(obj)
          .filter((c): c is Json => c !== undefined && c.field === 'messages')
          .flatMap((change) => {
            const value = obj(change.value);
            return value ? cloudChange(value) : [];
          }),
      );
    default:
      return [];
  }
};
