import * as z from 'zod';

/**
 * The normalised inbound event (DESIGN §6): what every channel adapter — the WhatsApp worker (Baileys or
 * the simulator), the Meta webhooks — puts on the `inbound` FIFO queue, and the only thing the inbound job
 * reads. Four kinds: a message, an edit by the sender, a delete by the contact ("apagar para todos") and an
 * ack update of a message. Providers' raw payloads never reach the queue; media bytes are already in S3.
 * The contract is described for adapter authors in docs/decisions/D31-inbound-event-contract.md.
 *
 * Lives in core so the inbound service can read it without depending on the channels layer;
 * functions/channels/inbound.ts re-exports it with `enqueueInbound`.
 */
export const INBOUND_CHANNELS = ['whatsapp', 'whatsappapi', 'facebook', 'instagram'] as const;
export type InboundChannel = (typeof INBOUND_CHANNELS)[number];

/**
 * A value with every lone surrogate in its strings (nested too) replaced by U+FFFD, as
 * String.prototype.toWellFormed does: UTF-8, and so DynamoDB and the attendants' screens, cannot hold
 * one, so it is replaced before the event is queued and what is stored is what is shown. Everything else a
 * provider sends (controls, noncharacters such as U+FFFF) is kept; the queue sender escapes it.
 */
export const wellFormed = <T>(value: T): T => {
  if (typeof value === 'string') return value.replace(/\p{Surrogate}/gu, '\uFFFD') as T;
  if (Array.isArray(value)) return value.map((v: unknown) => wellFormed(v)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wellFormed(v)])) as T;
  }
  return value;
};

/** Phone numbers and LIDs as digits only (country code included for numbers). */
const digits = z.string().regex(/^\d{5,32}$/, 'digits only');
/** Provider message ids: Baileys `3EB0…`, Cloud API `wamid.…`, Messenger `m_…`; never a `#` (a key separator). */
const providerId = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^#\s]+$/, 'no # or spaces');
const name = z.string().trim().max(200);

/**
 * Who someone is on the provider: phone number and/or WhatsApp LID (both map to one contact, data-model
 * §2.12); for Messenger and Instagram the page-scoped id (`externalId`) under the page or account
 * (`accountId`). `pushName` is the name the person gave themselves.
 */
export const identitySchema = z
  .object({
    phone: digits.optional(),
    lid: digits.optional(),
    externalId: z
      .string()
      .regex(/^[\w.-]{1,100}$/)
      .optional(),
    accountId: z
      .string()
      .regex(/^[\w.-]{1,100}$/)
      .optional(),
    pushName: name.optional(),
  })
  .refine((i) => i.phone !== undefined || i.lid !== undefined || i.externalId !== undefined, {
    message: 'phone, lid or externalId is required',
  })
  .refine((i) => i.externalId === undefined || i.accountId !== undefined, {
    message: 'externalId needs the accountId it is scoped to',
    path: ['accountId'],
  });
export type InboundIdentity = z.infer<typeof identitySchema>;

/**
 * A media object the adapter already stored in the media bucket under the company's prefix
 * (`c/<companyId>/…`, checked by the job). Suggested layout, deterministic so a retried download overwrites:
 * `c/<c>/inbound/<whatsappId>/<sha256(providerMessageId) hex, 32>/<safe file name>`.
 */
const media = {
  mediaKey: z
    .string()
    .min(3)
    .max(1024)
    .regex(/^c\/\d+\/[^\s]+$/, 'a media-bucket key under c/<companyId>/')
    .refine((k) => !k.split('/').includes('..'), 'no .. segments'),
  mimetype: z.string().min(1).max(200),
  filename: z.string().max(255).optional(),
  /** Bytes, when the adapter knows them (shown on downloads). */
  size: z.number().int().min(0).optional(),
  /** The caption. */
  body: z.string().max(65_536).optional(),
};

export const contentSchema = z.discriminatedUnion('type', [
  /** `choiceId`: the id of the button or list row the customer pressed (a bot menu's choice; D132). */
  z.object({ type: z.literal('text'), body: z.string().max(65_536), choiceId: z.string().max(64).optional() }),
  z.object({ type: z.literal('image'), ...media, viewOnce: z.boolean().optional() }),
  z.object({ type: z.literal('video'), ...media, viewOnce: z.boolean().optional() }),
  /** `voice`: recorded in the app (push-to-talk), as opposed to an audio file sent as such. */
  z.object({ type: z.literal('audio'), ...media, voice: z.boolean().optional() }),
  z.object({ type: z.literal('document'), ...media }),
  z.object({ type: z.literal('sticker'), ...media }),
  z.object({
    type: z.literal('location'),
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    name: name.optional(),
    address: z.string().max(500).optional(),
  }),
  /** A contact card; several cards come as several events or as one vCard with several entries. */
  z.object({ type: z.literal('contact'), vCard: z.string().min(1).max(16_384), displayName: name.optional() }),
  /** A reaction to an earlier message; an empty emoji removes the reaction. */
  z.object({ type: z.literal('reaction'), emoji: z.string().max(32), targetProviderMessageId: providerId }),
  z.object({
    type: z.literal('poll'),
    name: z.string().max(1_000),
    options: z.array(z.string().max(200)).max(20),
    selectableCount: z.number().int().min(0).max(20).optional(),
  }),
  z.object({
    type: z.literal('list'),
    title: z.string().max(1_000).optional(),
    body: z.string().max(4_096).optional(),
    buttonText: z.string().max(100).optional(),
    sections: z
      .array(
        z.object({
          title: z.string().max(200).optional(),
          rows: z
            .array(
              z.object({
                id: z.string().max(200).optional(),
                title: z.string().max(200),
                description: z.string().max(200).optional(),
              }),
            )
            .max(10),
        }),
      )
      .max(10),
  }),
  /** A call the phone received or missed (WhatsApp shows it in the chat). */
  z.object({
    type: z.literal('call_log'),
    isVideo: z.boolean().default(false),
    status: z.enum(['missed', 'rejected', 'accepted', 'offer']).default('missed'),
  }),
]);
export type InboundContent = z.infer<typeof contentSchema>;

const common = {
  companyId: z.number().int().positive(),
  /** The connection (our `whatsapp` id) the event arrived on. */
  whatsappId: z.number().int().positive(),
  channel: z.enum(INBOUND_CHANNELS).default('whatsapp'),
  /**
   * The conversation on the provider: the remote JID for WhatsApp (`5511…@s.whatsapp.net`, `…@lid`,
   * `…@g.us`), the page-scoped id for Meta. With the connection it is the FIFO group (per-chat order).
   */
  chat: z.object({
    id: z.string().min(1).max(200),
    isGroup: z.boolean().default(false),
    /** Group subject, for the group's contact name. */
    name: name.optional(),
  }),
  /**
   * When our adapter received the event (ISO). Stamped once by `enqueueInbound` when absent, so a retried
   * event keeps its time; the stored message's time and order come from it.
   */
  receivedAt: z.iso.datetime({ offset: true }).optional(),
};

export const inboundMessageSchema = z
  .object({
    kind: z.literal('message'),
    ...common,
    providerMessageId: providerId,
    /** Sent by the connection's own phone (the attendant answered from the phone, or our own send echoed). */
    fromMe: z.boolean(),
    /** The provider's time of the message (ISO). */
    timestamp: z.iso.datetime({ offset: true }),
    /** One-to-one chats: the person on the other side (whether or not the message is fromMe). */
    contact: identitySchema.optional(),
    /** Group chats: who wrote (absent for fromMe). Participants are not contacts (data-model §2.12). */
    participant: identitySchema.optional(),
    quotedProviderMessageId: providerId.optional(),
    isForwarded: z.boolean().default(false),
    /**
     * From the phone's history, handed over by the import of old messages (decisions D78): stored with its
     * own time, without automatic replies, unread counts or per-message events, and counted as imported.
     */
    imported: z.boolean().default(false),
    content: contentSchema,
  })
  .refine((m) => m.chat.isGroup || m.contact !== undefined, {
    message: 'a one-to-one message needs the contact',
    path: ['contact'],
  });

/** The sender changed the text of an earlier message. */
export const inboundEditSchema = z.object({
  kind: z.literal('edit'),
  ...common,
  providerMessageId: providerId,
  body: z.string().max(65_536),
  /** The provider's id of the edit itself, when it has one (two edits of one message are two events). */
  editId: providerId.optional(),
});

/** The contact deleted a message for everyone. */
export const inboundDeleteSchema = z.object({
  kind: z.literal('delete'),
  ...common,
  providerMessageId: providerId,
});

/** Delivery state of a message: 1 sent (server), 2 delivered, 3 read, 4 played (audio), 5 played (spec §4). */
export const inboundAckSchema = z.object({
  kind: z.literal('ack'),
  ...common,
  providerMessageId: providerId,
  ack: z.number().int().min(1).max(5),
});

export const inboundEventSchema = z.discriminatedUnion('kind', [
  inboundMessageSchema,
  inboundEditSchema,
  inboundDeleteSchema,
  inboundAckSchema,
]);

/** What adapters send (defaults may be left out). */
export type InboundEventInput = z.input<typeof inboundEventSchema>;
/** What the job works with (defaults filled). */
export type InboundEvent = z.infer<typeof inboundEventSchema>;
export type InboundMessage = z.infer<typeof inboundMessageSchema>;
export type InboundEdit = z.infer<typeof inboundEditSchema>;
export type InboundDelete = z.infer<typeof inboundDeleteSchema>;
export type InboundAck = z.infer<typeof inboundAckSchema>;
