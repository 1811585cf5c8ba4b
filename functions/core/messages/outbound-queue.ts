import { createHash } from 'node:crypto';
import * as z from 'zod';
import { sendQueueMessage } from '../../data/queue-sender';
import { INBOUND_CHANNELS } from '../inbound/inbound-event';

/**
 * The outbound send contract (DESIGN §6 "Outbound"; docs/decisions.md D34). Whoever writes a message to be
 * sent — an attendant through the API, the inbound pipeline's automatic replies, later campaigns and
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

export const enqueueOutbound = async (send: OutboundSend): Promise<void> => {
  const parsed = outboundSendSchema.parse(send);
  await sendQueueMessage('outbound', parsed, {
    groupId: outboundGroupId(parsed),
    deduplicationId: fit(`${parsed.whatsappId}:${parsed.messageId}`),
  });
};

/**
 * A WhatsApp message id for a message we send, in Baileys' own format (`3EB0` + 18 upper-case hex), derived
 * from a seed so that a retried step produces the same id (and finds what the first attempt pinned).
 */
export const whatsappMessageId = (seed: string): string =>
  `3EB0${createHash('sha256').update(seed).digest('hex').slice(0, 18).toUpperCase()}`;
