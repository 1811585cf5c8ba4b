import * as z from 'zod';

/**
 * The phone simulator's customer side on the wire (decisions D41): what the `/simulator/{whatsappId}`
 * routes of functions/http/connections take and answer. Shared by the handlers,
 * functions/core/connections/simulator-service.ts and frontend/src/api/simulator.ts.
 */
/** What a simulated customer received from us (a send the simulator driver stored). */
export interface SimulatorReceivedView {
  /** Its place in the phone's list: the `cursor` of the next page. */
  id: string;
  providerMessageId: string;
  /** The chat (remote JID) it was sent to, `<digits>@s.whatsapp.net`. */
  chatId: string;
  /** What kind of send it was: text, image, audio, video, document, contact, location, edit, delete… */
  type: string;
  body?: string;
  mimetype?: string;
  filename?: string;
  voice?: boolean;
  quotedProviderMessageId?: string;
  /** Edits and deletes: the message they change. */
  targetProviderMessageId?: string;
  vCard?: string;
  latitude?: number;
  longitude?: number;
  /** The sender edited it (WhatsApp shows "Edited"); `body` is the new text. */
  edited?: boolean;
  editedAt?: string;
  /** The sender deleted it for everyone (WhatsApp shows "This message was deleted"); no body. */
  deleted?: boolean;
  deletedAt?: string;
  ack: number;
  receivedAt: string;
  /** The file's URL (`/media/...`), or null. */
  mediaUrl: string | null;
}

/** What a simulated customer sent (the simulator routes store it when posted): their side of the chat. */
export interface SimulatorSentView {
  /** Its place in the phone's list (`S#<ulid>`), ordered with the received ones' ids by the part after `#`. */
  id: string;
  providerMessageId: string;
  /** The chat (remote JID) it was written in, `<digits>@s.whatsapp.net` (or a group's `@g.us`). */
  chatId: string;
  /** text, image, video, audio, document, sticker or reaction. */
  type: string;
  body?: string;
  mimetype?: string;
  filename?: string;
  /** A reply: the message it quotes (one the customer received or sent). */
  quotedProviderMessageId?: string;
  /** A reaction: its emoji (empty: taken back) and the message it reacts to. */
  emoji?: string;
  targetProviderMessageId?: string;
  /** WhatsApp's ticks on the customer's phone: 0 (clock) until the session delivered it to us, then 2. */
  ack: number;
  sentAt: string;
  /** The file's URL (`/media/...`), or null. */
  mediaUrl: string | null;
}

/**
 * GET /simulator/{whatsappId}/messages: one page of the phone's chats, oldest first (newest last). A page
 * covers a stretch of time: `messages`, what the customers received in it, and `sent`, what they sent in
 * it; merged by id (the part after `#`) they are the chat in order.
 */
export interface SimulatorReceivedPage {
  messages: SimulatorReceivedView[];
  sent: SimulatorSentView[];
  hasMore: boolean;
  /** The last id of the page, either side's. */
  nextCursor: string | null;
}

/** What POST /simulator/{whatsappId}/messages and /media answer. */
export interface SimulatedMessageAnswer {
  message: string;
  providerMessageId: string;
}

/** A customer number as the routes take it: digits with the country code (8–15). */
export const customerNumber = z.string().regex(/^\d{8,15}$/, 'digits with country code');
export const groupId = z.string().regex(/^\d{5,40}(-\d{5,20})?$/, 'a group id (digits)');

/** POST /simulator/{whatsappId}/messages (JSON) and /media (multipart, with `file`): the customer writes. */
export const simulatedMessageBody = z.object({
  number: customerNumber,
  name: z.string().trim().max(100).optional(),
  groupId: groupId.optional(),
  groupName: z.string().trim().max(100).optional(),
  body: z.string().max(4096).optional(),
  reactTo: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,200}$/)
    .optional(),
  emoji: z.string().max(32).optional(),
  quotedProviderMessageId: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,200}$/)
    .optional(),
});
export type SimulatedMessageBody = z.input<typeof simulatedMessageBody>;

/** GET /simulator/{whatsappId}/messages: `cursor` the last id of a page (either side's), `number` one chat. */
export const simulatorChatQuery = z.object({
  cursor: z
    .string()
    .regex(/^[RS]#[0-9A-Z]{26}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  number: customerNumber.optional(),
});

/** POST /simulator/{whatsappId}/read: the customer (or every customer) reads (3) or plays (4) what it got. */
export const simulatedReadBody = z.object({
  number: customerNumber.optional(),
  groupId: groupId.optional(),
  ack: z.union([z.literal(3), z.literal(4)]).optional(),
});
export type SimulatedReadBody = z.input<typeof simulatedReadBody>;
