import { menuOf } from '../../core/pipeline/message-content';
import { isReplyWindowOpen } from '../../core/pipeline/reply-window';
import { confirmSent, failSend, planSend } from '../../core/messages/outbound-sender';
import type { OutboundSend } from '../../core/pipeline/outbound-queue';
import { logger } from '../../shared/logger';
import { presignedMediaUrl } from '../../data/media-store';
import { getMetaCredentials } from '../../data/meta-repository';
import { claimProviderRef, type StoredMessage } from '../../data/message-repository';
import { getTicket } from '../../data/ticket-repository';
import { GraphError, graphApi, isGraphThrottle, type MetaOutgoing } from './graph-client';
import { reportProviderThrottle } from '../../core/outbound/send-governor';
import { decryptToken } from '../../shared/token-cipher';
import { requireMetaSecret } from './webhook-service';

/**
 * The Meta half of an outbound send (decisions D34, D40, D41), for the outbound job's dispatch map:
 * Messenger and Instagram through `/me/messages` with the page token, the Cloud API through
 * `/{phone-number-id}/messages`. Meta assigns the message id: it is pinned to our message (`WAMID`) as soon
 * as the Graph API answers, so later status webhooks (delivered, read) find it, and the message goes to
 * ack 1 (with its `appMessage` update).
 *
 * Outcomes: `sent`; `skipped` (the message is gone, deleted, past ack 0 or already failed: a duplicate job
 * sends nothing); `refused` — for good, so the message shows the code instead of a clock: the 24-hour
 * reply window closed (ERR_META_WINDOW_CLOSED), the connection has no Meta login (ERR_META_NOT_CONNECTED),
 * or Meta refused the message itself (a 4xx: ERR_SENDING_WAPP_MSG). Other Graph failures (5xx, throttling,
 * unreachable) are thrown, so the job retries them; throttling also pauses the connection's automatic sends
 * in the send governor (decisions D166).
 */
export type MetaSendOutcome =
  { outcome: 'sent'; providerMessageId: string } | { outcome: 'skipped' } | { outcome: 'refused'; code: string };

const ATTACHMENT: Record<string, 'image' | 'video' | 'audio'> = { image: 'image', video: 'video', audio: 'audio' };

/** What Meta is sent for a stored message: its media by a presigned URL (with the text as caption), or text. */
const outgoingOf = async (message: StoredMessage): Promise<MetaOutgoing> => {
  if (message.mediaKey) {
    return {
      type: ATTACHMENT[message.mediaType] ?? 'file',
      url: await presignedMediaUrl(message.mediaKey),
      ...(message.body ? { caption: message.body } : {}),
      ...(message.filename ? { filename: message.filename } : {}),
    };
  }
  const menu = menuOf(message.dataJson);
  return { type: 'text', text: message.body, ...(menu ? { menu } : {}) };
};

const refuse = async (send: OutboundSend, code: string): Promise<MetaSendOutcome> => {
  logger.warn('meta send refused', { companyId: send.companyId, ticketId: send.ticketId, code });
  await failSend(send, code);
  return { outcome: 'refused', code };
};

export const sendMetaMessage = async (send: OutboundSend, now = new Date()): Promise<MetaSendOutcome> => {
  const plan = await planSend(send);
  if (plan.skip !== undefined) return { outcome: 'skipped' };
  const { message } = plan;
  const ticket = await getTicket(send.companyId, message.ticketId);
  if (!ticket) return { outcome: 'skipped' };
  if (!isReplyWindowOpen({ channel: send.channel, lastInboundAt: ticket.lastInboundAt }, now)) {
    return refuse(send, 'ERR_META_WINDOW_CLOSED');
  }
  const credentials = await getMetaCredentials(send.companyId, send.whatsappId);
  if (!credentials) return refuse(send, 'ERR_META_NOT_CONNECTED');
  const token = await decryptToken(credentials.tokenCipher);
  const graph = graphApi(await requireMetaSecret());
  const outgoing = await outgoingOf(message);
  let providerMessageId: string;
  try {
    providerMessageId =
      send.channel === 'whatsappapi'
        ? await graph.sendCloudMessage(credentials.externalId, token, send.chatId, outgoing)
        : await graph.sendPageMessage(token, send.chatId, outgoing);
  } catch (err) {
    // Too fast: not this message's fault. Pause the connection's automatic sends; the job retries this one.
    if (isGraphThrottle(err)) {
      await reportProviderThrottle(send.companyId, send.whatsappId);
      throw err;
    }
    // Meta refused this message (bad recipient, blocked, policy): no retry changes that.
    if (err instanceof GraphError && err.status === 400) return refuse(send, 'ERR_SENDING_WAPP_MSG');
    throw err;
  }
  await claimProviderRef(send.companyId, send.whatsappId, providerMessageId, {
    ticketId: message.ticketId,
    ulid: message.ulid,
    contactId: message.contactId,
  });
  await confirmSent(send);
  return { outcome: 'sent', providerMessageId };
};

/** The outbound job's dispatch entry for the Meta channels (functions/jobs/outbound/handler.ts). */
export const dispatchMetaSend = async (send: OutboundSend): Promise<void> => {
  await sendMetaMessage(send);
};
