import { createHash } from 'node:crypto';
import * as z from 'zod';
import { sendQueueMessage } from '../../data/queue-sender';
import { INBOUND_CHANNELS } from './inbound-event';

/**
 * The outbound send contract (DESIGN §6 "Outbound"; docs/decisions/D34-outbound-send-contract.md). Whoever writes a
 * message to be sent — an attendant through the API, the inbound pipeline's automatic replies, later campaigns and
 * schedules — first stores it (`ack: 0`, `fromMe`) and then puts one `OutboundSend` on the `outbound` FIFO
 * queue. The sender (the channel worker or the outbound job; not built yet) reads the stored message by
 * `messageId`, sends it to `chatId` — with `providerMessageId` when given, so the provider's acks find the
 * message through the inbound path — and reports acks as inbound `ack` events. It skips a message that is
 * gone, deleted, or already past ack 0, so a duplicate job sends nothing.
 */
export const outboundSendSchema = z.object({
  kind: z.literal('send'),
  companyId: z.number().int().positive(),
  whatsappId: z.number().int().positive(),
  channel: z.enum(INBOUND_CHANNELS),
  ticketId: z.number().int().positive(),
  /** The stored message's wire id, `<ticketId>-<ulid>`. */
  messageId: z.string().regex(/^\d+-[0-9A-HJKMNP-TV-Z]{26}$/),
  /** The provider's chat to send to (WhatsApp remote JID, Meta page-scoped id); with the connection, the FIFO group. */
  chatId: z.string().min(1).max(200),
  /**
   * WhatsApp: the id to send the message with, chosen before sending and already pinned to the message
   * (data-model §2.17), so acks can never arrive before the message is findable. Meta assigns its own ids:
   * absent there, and the sender pins the id the Graph API answers.
   */
  providerMessageId: z.string().min(1).max(200).optional(),
  requestedAt: z.iso.datetime(),
});
export type OutboundSend = z.infer<typeof outboundSendSchema>;

const fit = (id: string): string =>
  id.length <= 128 && /^[\x21-\x7e]+$/.test(id) ? id : `h:${createHash('sha256').update(id).digest('base64url')}`;

/** FIFO group of a send: the chat on the connection, like the inbound queue, so one chat's sends keep their order. */
export const outboundGroupId = (send: Pick<OutboundSend, 'whatsappId' | 'chatId'>): string =>
  fit(`${send.whatsappId}:${send.chatId}`);

/**
 * A change of a message our side already sent (issue 4 item 4; decisions D75): the attendant edited it
 * (`edit`, the stored text goes out) or deleted it for everyone (`delete`). WhatsApp (Baileys, simulator)
 * only: Meta's Graph API has no edit or delete, so those stay local. The job names the stored message by
 * wire id and its pinned provider id (the message to change); the change's own provider id is derived from
 * `changeSeed` (`outboundChangeId`), so a retried job sends the same change, and the holder records it done.
 * The holder skips a change of a message that never went out (gone, no provider id, ack 0 or failed): the
 * pending send reads the stored message when it goes, so it carries the new text, or nothing when deleted.
 */
export const outboundChangeSchema = z.object({
  kind: z.enum(['edit', 'delete']),
  companyId: z.number().int().positive(),
  whatsappId: z.number().int().positive(),
  channel: z.literal('whatsapp'),
  ticketId: z.number().int().positive(),
  /** The changed message's wire id, `<ticketId>-<ulid>`. */
  messageId: z.string().regex(/^\d+-[0-9A-HJKMNP-TV-Z]{26}$/),
  chatId: z.string().min(1).max(200),
  /** The changed message's provider id (pinned when it was stored, D34). */
  providerMessageId: z.string().min(1).max(200),
  /** When the attendant changed it (`editedAt` / `deletedAt` of the stored message): names this change. */
  changedAt: z.iso.datetime(),
  requestedAt: z.iso.datetime(),
});
export type OutboundChange = z.infer<typeof outboundChangeSchema>;

/** What the `outbound` queue carries: a send, or a change of a sent message. */
export const outboundJobSchema = z.discriminatedUnion('kind', [outboundSendSchema, outboundChangeSchema]);
export type OutboundJob = z.infer<typeof outboundJobSchema>;

/** The provider id of a change (the edit or revoke message itself): the same for every retry of it. */
export const outboundChangeId = (change: OutboundChange): string =>
  whatsappMessageId(`${change.companyId}:${change.whatsappId}:${change.kind}:${change.messageId}:${change.changedAt}`);

/** One job per message and change: a send, each edit (by its time) and the delete never collapse together. */
const deduplicationIdOf = (job: OutboundJob): string =>
  fit(
    job.kind === 'send'
      ? `${job.whatsappId}:${job.messageId}`
      : `${job.whatsappId}:${job.messageId}:${job.kind}:${job.changedAt}`,
  );

export const enqueueOutbound = async (job: OutboundJob): Promise<void> => {
  const parsed = outboundJobSchema.parse(job);
  await sendQueueMessage('outbound', parsed, {
    groupId: outboundGroupId(parsed),
    deduplicationId: deduplicationIdOf(parsed),
  });
};

/**
 * A WhatsApp message id for a message we send, in Baileys' own format (`3EB0` + 18 upper-case hex), derived
 * from a seed so that a retried step produces the same id (and finds what the first attempt pinned).
 */
export const whatsappMessageId = (seed: string): string =>
  `3EB0${createHash('sha256').update(seed).digest('hex').slice(0, 18).toUpperCase()}`;
