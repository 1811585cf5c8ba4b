import type { OutboundSend } from './outbound-queue';
import { sendQueueMessage } from '../../data/queue-sender';
import { putOutboxItem, type OutboxKind } from '../../data/wa-outbox-repository';

/**
 * The way into a WhatsApp connection's holder (decisions D41): work for a connection goes into its outbox
 * in DynamoDB (ordered, durable, visible to every worker) and a wake-up goes to the shared
 * `worker-control` queue. The holder drains its outbox when woken, when its session connects, and on each
 * heartbeat, so a wake-up that reaches another worker (or is lost) delays the work by one heartbeat at
 * most, and nothing bounces between workers.
 */
export interface OutboxWake {
  kind: 'outbox';
  companyId: number;
  whatsappId: number;
}

export const wakeHolder = (companyId: number, whatsappId: number): Promise<void> =>
  sendQueueMessage('worker-control', { kind: 'outbox', companyId, whatsappId } satisfies OutboxWake);

const addToOutbox = async (
  companyId: number,
  whatsappId: number,
  sk: string,
  kind: OutboxKind,
  payload: Record<string, unknown>,
): Promise<void> => {
  await putOutboxItem(companyId, whatsappId, sk, kind, payload);
  await wakeHolder(companyId, whatsappId);
};

/**
 * The outbound job's WhatsApp branch: one send into the connection's outbox, keyed by the message's ULID
 * (a chat's sends sort in message order; a retried job rewrites the same item).
 */
export const queueWhatsAppSend = (send: OutboundSend): Promise<void> =>
  addToOutbox(send.companyId, send.whatsappId, send.messageId.split('-')[1]!, 'send', send);

/** The phone simulator's customer acting (simulator routes, D41): carried out by the holder's session. */
export const queueSimulatorAction = (
  companyId: number,
  whatsappId: number,
  sk: string,
  action: Record<string, unknown>,
): Promise<void> => addToOutbox(companyId, whatsappId, sk, 'simulate', action);
