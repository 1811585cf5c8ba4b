import { createHash } from 'node:crypto';
import {
  inboundEventSchema,
  wellFormed,
  type InboundEvent,
  type InboundEventInput,
} from '../core/pipeline/inbound-event';
import { sendQueueMessage } from '../data/queue-sender';

/**
 * The inbound contract for channel adapters (DESIGN §6; docs/decisions/D31-inbound-event-contract.md): the WhatsApp
 * worker and the Meta webhooks turn each provider event into one `InboundEvent` and call `enqueueInbound`. The
 * inbound job (functions/jobs/inbound/) does the rest: contact, ticket, message, automatic replies, events.
 */
export {
  inboundEventSchema,
  type InboundAck,
  type InboundContent,
  type InboundDelete,
  type InboundEdit,
  type InboundEvent,
  type InboundEventInput,
  type InboundIdentity,
  type InboundMessage,
} from '../core/pipeline/inbound-event';

/** SQS limits both ids to 128 characters of `[A-Za-z0-9!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~]`. */
const MAX_ID = 128;
const fit = (id: string): string =>
  id.length <= MAX_ID && /^[\x21-\x7e]+$/.test(id) ? id : `h:${createHash('sha256').update(id).digest('base64url')}`;

/** FIFO group: one chat of one connection, so a chat's events are handled one at a time and in order. */
export const inboundGroupId = (event: Pick<InboundEvent, 'whatsappId' | 'chat'>): string =>
  fit(`${event.whatsappId}:${event.chat.id}`);

/**
 * FIFO deduplication: the provider message id for messages, so a provider's re-delivery within SQS's
 * 5-minute window is dropped by the queue (later ones by the job's idempotency); edits, deletes and acks
 * add their kind (and the edit or the ack level) so they are never taken for the message they change.
 */
export const inboundDeduplicationId = (event: InboundEvent): string => {
  const scope = `${event.whatsappId}:${event.providerMessageId}`;
  switch (event.kind) {
    case 'message':
      return fit(scope);
    case 'edit':
      return fit(
        `${scope}:edit:${event.editId ?? createHash('sha256').update(event.body).digest('base64url').slice(0, 22)}`,
      );
    case 'delete':
      return fit(`${scope}:delete`);
    case 'ack':
      return fit(`${scope}:ack:${event.ack}`);
  }
};

/**
 * Validates an event, stamps `receivedAt` (once: a retried enqueue of the returned event keeps it) and
 * sends it to the inbound FIFO queue. Any text a provider delivers is taken: lone surrogates become U+FFFD
 * (`wellFormed`), and the queue sender escapes what SQS does not carry. Throws the zod error for a
 * malformed event (an adapter bug: nothing is sent) and a 503 ServiceUnavailable when SQS throttles (the
 * adapter retries).
 */
export const enqueueInbound = async (input: InboundEventInput, now = new Date()): Promise<InboundEvent> => {
  const event = inboundEventSchema.parse(wellFormed({ ...input, receivedAt: input.receivedAt ?? now.toISOString() }));
  await sendQueueMessage('inbound', event, {
    groupId: inboundGroupId(event),
    deduplicationId: inboundDeduplicationId(event),
  });
  return event;
};
