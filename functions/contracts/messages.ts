import * as z from 'zod';
import type { TicketView } from './tickets';

/**
 * Messages on the wire (core spec §3 Message, §7 Messages; decisions D50–D54): the view the server answers
 * and sends in `appMessage` events, and the JSON bodies functions/http/messages accepts. Shared by the
 * handlers, functions/core/tickets/ticket-views.ts and frontend/src/api/messages.ts.
 */
export interface MessageView {
  /** `<ticketId>-<ulid>`. */
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
  /** 0 clock, 1 sent, 2 delivered, 3–4 read (played for audio), 5 played (core spec §4). */
  ack: number;
  read: boolean;
  createdAt: string;
  vCard: string | null;
  dataJson: string | null;
  /** Who wrote it in a group chat. */
  participant: { number?: string; lid?: string; name?: string } | null;
  /** The attendant who sent it (outbound), null for the contact, the phone or the system. */
  userId: number | null;
  /** The send failed after retries (decisions D41): `ERR_SENDING_WAPP_MSG`. */
  sendError?: string;
  /**
   * Only on a message the system wrote, not a person (decisions D99): which automatic reply it is —
   * `greeting`, `outOfHours`, `vacation`, `chatBot`, or a kind a later automation adds. The ticket view
   * shows any of them as the bot's.
   */
  automatic?: string;
}

/** GET /messages/{ticketUuid}: newest first, as the server pages them. */
export interface MessagePage {
  messages: MessageView[];
  hasMore: boolean;
  nextCursor?: string;
  /** The ticket the page belongs to (null for a message id's page whose contact is gone). */
  ticket: TicketView | null;
}

/** Uploads through S3 (presigned PUT): WhatsApp's own ceiling for documents is far higher; 100 MB is ours. */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/** What POST /messages/uploads/{ticketId} answers: where and how to PUT the file, and the key to send. */
export interface MessageUpload {
  key: string;
  uploadUrl: string;
  method: 'PUT';
  headers: Record<string, string>;
  expiresIn: number;
}

/** A boolean, or its text (multipart fields are text). */
export const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/**
 * `quotedMsg`: the quoted message as the app holds it (its `id` is what counts; its other fields are
 * accepted and dropped), or just its id.
 */
const quotedMsg = z
  .union([z.string().min(1).max(64), z.object({ id: z.string().min(1).max(64) })])
  .nullish()
  .transform((q) => (q === null || q === undefined ? undefined : typeof q === 'string' ? q : q.id));

/** A contact card: the vCard text, or {name, number} the app's contact picker gives (other fields dropped). */
const vCard = z
  .union([
    z.string().trim().min(1).max(10_000),
    z.object({ name: z.string().trim().min(1).max(250), number: z.string().trim().min(8).max(50) }),
  ])
  .nullish()
  .transform((v) => {
    if (v === null || v === undefined) return undefined;
    if (typeof v === 'string') return v.startsWith('BEGIN:VCARD') ? v : undefined;
    const digits = v.number.replace(/\D/g, '');
    return `BEGIN:VCARD\nVERSION:3.0\nN:;${v.name};;;\nFN:${v.name}\nTEL;type=CELL;waid=${digits}:+${digits}\nEND:VCARD`;
  });

/** POST /messages/{ticketId} as JSON: a text, a private note, a contact card, a quoted reply, an upload. */
export const sendMessageBody = z.object({
  body: z.string().max(65_536).default(''),
  isPrivate: flag.default(false),
  quotedMsg,
  vCard,
  /** An upload of this ticket (POST /messages/uploads/{ticketId}); `mediaUrl` may name it as its /media URL. */
  mediaKey: z.string().min(1).max(1024).optional(),
  mediaUrl: z.string().max(2048).nullish(),
  read: z.unknown().optional(),
  fromMe: z.unknown().optional(),
});
export type SendMessageBody = z.input<typeof sendMessageBody>;

/** POST /messages/uploads/{ticketId}: a presigned PUT for one file. */
export const createMessageUploadBody = z.object({
  filename: z.string({ error: 'Required' }).trim().min(1, 'Required').max(200),
  contentType: z
    .string({ error: 'Required' })
    .trim()
    .regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type')
    .max(200),
  size: z.number({ error: 'Required' }).int().positive().max(MAX_UPLOAD_BYTES, `at most ${MAX_UPLOAD_BYTES} bytes`),
});
export type CreateMessageUploadBody = z.input<typeof createMessageUploadBody>;

/** POST /messages/edit/{id}. */
export const editMessageBody = z.object({ body: z.string({ error: 'Required' }).max(65_536) });
export type EditMessageBody = z.input<typeof editMessageBody>;

/** POST /message/forward. */
export const forwardMessageBody = z.object({
  messageId: z.string({ error: 'Required' }).min(1, 'Required').max(64),
  contactId: z.coerce.number({ error: 'Required' }).int().positive(),
  signMessage: flag.default(false),
});
export type ForwardMessageBody = z.input<typeof forwardMessageBody>;

/** GET /messages/transcribeAudio/{file}. */
export interface TranscriptionAnswer {
  transcribedText: string;
}
