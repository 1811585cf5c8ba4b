import { getMessage, markSendFailed, raiseAck, type StoredMessage } from '../../data/message-repository';
import { getTicket } from '../../data/ticket-repository';
import { ReadScope } from '../../data/read-scope';
import { publishForTicket } from '../tickets/ticket-events';
import { toMessageView } from '../tickets/ticket-views';
import { wakeHolder } from '../pipeline/worker-outbox';
import { putOutboxItem } from '../../data/wa-outbox-repository';
import type { OutboundChange, OutboundSend } from '../pipeline/outbound-queue';

/**
 * The channel-independent half of a send (D34, D41): which stored message a job means, whether it may
 * still be sent, and what the message shows afterwards (ack 1 when the provider took it, the error when it
 * never will). The channel half — turning the message into a provider call — lives with the channel.
 */
export const SEND_FAILED = 'ERR_SENDING_WAPP_MSG';

const refOf = (send: Pick<OutboundSend, 'messageId'>): { ticketId: number; ulid: string } => {
  const [ticketId, ulid] = send.messageId.split('-') as [string, string];
  return { ticketId: Number(ticketId), ulid };
};

export type SendPlan =
  | { skip: 'gone' | 'deleted' | 'sent' | 'failed' }
  | { skip?: undefined; message: StoredMessage; quoted: StoredMessage | null };

/**
 * Reads the message a send means. Skips it when it is gone, deleted, already past ack 0 (a duplicate job:
 * never send twice) or already marked failed.
 */
export const planSend = async (send: OutboundSend): Promise<SendPlan> => {
  const ref = refOf(send);
  const message = await getMessage(send.companyId, ref.ticketId, ref.ulid);
  if (!message) return { skip: 'gone' };
  if (message.isDeleted) return { skip: 'deleted' };
  if (message.ack !== 0) return { skip: 'sent' };
  if (message.sendError) return { skip: 'failed' };
  let quoted: StoredMessage | null = null;
  if (message.quotedMsgId) {
    const q = refOf({ messageId: message.quotedMsgId });
    quoted = await getMessage(send.companyId, q.ticketId, q.ulid);
  }
  return { message, quoted };
};

const publishUpdate = async (companyId: number, message: StoredMessage): Promise<void> => {
  const ticket = await getTicket(companyId, message.ticketId);
  if (!ticket) return;
  await publishForTicket(new ReadScope(), ticket, [
    { channel: 'appMessage', action: 'update', message: toMessageView(message, ticket) },
  ]);
};

/** The provider took the message: ack 1, and the users who see the ticket get the update. */
export const confirmSent = async (send: OutboundSend): Promise<void> => {
  const updated = await raiseAck(send.companyId, refOf(send), 1);
  if (updated) await publishUpdate(send.companyId, updated);
};

/**
 * The send failed after its retries: the message shows `ERR_SENDING_WAPP_MSG` (and its clock icon stays),
 * or the channel's own code when it refused for good (Meta's closed reply window, decisions D40).
 */
export const failSend = async (send: OutboundSend, code: string = SEND_FAILED): Promise<void> => {
  const updated = await markSendFailed(send.companyId, refOf(send), code);
  if (updated) await publishUpdate(send.companyId, updated);
};

// ------------------------------------------------------------------------------- edits and deletes (D75)

/**
 * The outbound job's WhatsApp branch for a change: into the connection's outbox after the message's own
 * send (`sk` = the message's ULID, then `#E<time>` or `#D`), so a chat's items keep their order and a send
 * still waiting holds its change back; a retried job rewrites the same item.
 */
export const outboxKeyOfChange = (change: OutboundChange): string =>
  `${refOf(change).ulid}#${change.kind === 'edit' ? `E${change.changedAt}` : 'D'}`;

export const queueWhatsAppChange = async (change: OutboundChange): Promise<void> => {
  await putOutboxItem(change.companyId, change.whatsappId, outboxKeyOfChange(change), 'change', change);
  await wakeHolder(change.companyId, change.whatsappId);
};

export type ChangePlan =
  | { skip: 'gone' | 'private' | 'not-ours' | 'never-sent' | 'superseded' | 'not-deleted' }
  | { skip?: undefined; message: StoredMessage };

/**
 * Reads the message a change means and whether the change goes out: only our own, non-private message
 * that WhatsApp already took (a provider id and ack ≥ 1). A message still at ack 0 (its send pending or
 * failed) is skipped: the pending send reads the stored message, so it goes with the new text, or not at
 * all once deleted. An edit older than the message's latest edit is skipped (the newer one sends the text);
 * an edit of a message deleted meanwhile is skipped (the delete follows).
 */
export const planChange = async (change: OutboundChange): Promise<ChangePlan> => {
  const ref = refOf(change);
  const message = await getMessage(change.companyId, ref.ticketId, ref.ulid);
  if (!message) return { skip: 'gone' };
  if (!message.fromMe) return { skip: 'not-ours' };
  if (message.isPrivate) return { skip: 'private' };
  if (!message.providerId || message.ack < 1) return { skip: 'never-sent' };
  if (change.kind === 'edit') {
    if (message.isDeleted) return { skip: 'superseded' };
    if ((message.editedAt ?? '') > change.changedAt) return { skip: 'superseded' };
  } else if (!message.isDeleted) return { skip: 'not-deleted' };
  return { message };
};
