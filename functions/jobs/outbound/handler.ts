import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { dispatchMetaSend } from '../../channels/meta/send-meta-message';
import { queueWhatsAppSend } from '../../core/connections/worker-outbox';
import type { InboundChannel } from '../../core/inbound/inbound-event';
import { errorFields, logger } from '../../core/logger';
import { outboundJobSchema, type OutboundJob, type OutboundSend } from '../../core/messages/outbound-queue';
import { queueWhatsAppChange } from '../../core/messages/outbound-sender';

/**
 * Consumer of the `outbound` FIFO queue (decisions D34, D41; registered in functions/jobs/registry.ts).
 * Each send goes to its channel's sender in `OUTBOUND_DISPATCH`:
 * - `whatsapp` (Baileys / simulator): only the worker holding the connection's lease can send, so the job
 *   puts the send in that connection's outbox and wakes the holder, which sends in order;
 * - Meta channels (`whatsappapi`, `facebook`, `instagram`) send through the Graph API from here
 *   (functions/channels/meta/, added by the Meta item).
 * An edit or delete of a sent message (`kind: 'edit' | 'delete'`, decisions D75) exists for `whatsapp`
 * only and goes into the connection's outbox after the message's send, like a send.
 * A chat's sends are handled one after another in queue order; a failure reports that send and every
 * later one of its chat as batch item failures, so the order holds on the retry. A send that does not
 * parse, or whose channel has no sender here, is logged and dropped: it can never succeed.
 */
export type OutboundDispatch = (send: OutboundSend) => Promise<void>;

export const OUTBOUND_DISPATCH: Partial<Record<InboundChannel, OutboundDispatch>> = {
  whatsapp: queueWhatsAppSend,
  whatsappapi: dispatchMetaSend,
  facebook: dispatchMetaSend,
  instagram: dispatchMetaSend,
};

type Parsed = { record: SQSRecord; send: OutboundJob | null };

const parse = (record: SQSRecord): Parsed => {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    body = undefined;
  }
  const result = outboundJobSchema.safeParse(body);
  if (result.success) return { record, send: result.data };
  logger.error('outbound send dropped: invalid', {
    messageId: record.messageId,
    problems: result.error.issues.slice(0, 10).map((i) => `${i.path.join('.') || 'body'}: ${i.message}`),
  });
  return { record, send: null };
};

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const groups = new Map<string, Parsed[]>();
  for (const record of event.Records) {
    const group = record.attributes.MessageGroupId ?? record.messageId;
    groups.set(group, [...(groups.get(group) ?? []), parse(record)]);
  }
  const failures: SQSBatchItemFailure[] = [];
  await Promise.all(
    [...groups.values()].map(async (items) => {
      for (let i = 0; i < items.length; i += 1) {
        const { record, send } = items[i]!;
        if (!send) continue;
        let run: (() => Promise<void>) | undefined;
        if (send.kind === 'send') {
          const dispatch = OUTBOUND_DISPATCH[send.channel];
          if (dispatch) run = () => dispatch(send);
        } else run = () => queueWhatsAppChange(send);
        if (!run) {
          logger.error('outbound send dropped: no sender for its channel', {
            companyId: send.companyId,
            whatsappId: send.whatsappId,
            channel: send.channel,
          });
          continue;
        }
        try {
          await run();
        } catch (err) {
          logger.error('outbound send failed; it and the rest of its chat will be retried', {
            messageId: record.messageId,
            companyId: send.companyId,
            whatsappId: send.whatsappId,
            channel: send.channel,
            receiveCount: record.attributes.ApproximateReceiveCount,
            ...errorFields(err),
          });
          failures.push(...items.slice(i).map((p) => ({ itemIdentifier: p.record.messageId })));
          return;
        }
      }
    }),
  );
  return { batchItemFailures: failures };
};
