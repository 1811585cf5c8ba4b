import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { inboundEventSchema, type InboundEvent } from '../../core/inbound/inbound-event';
import { handleInboundEvent, type InboundOutcome } from '../../core/inbound/inbound-service';
import { InboundScope } from '../../core/inbound/inbound-scope';
import { errorFields, logger } from '../../core/logger';

/**
 * Consumer of the `inbound` FIFO queue (registered in functions/jobs/registry.ts). A batch holds up to 10
 * events of one or more chats; each chat's events are handled one after another in queue order, different
 * chats in parallel. A failure reports that event and every later one of its chat as batch item failures,
 * so the chat's order holds on the retry (SQS redelivers after the visibility timeout; after 5 receives
 * the queue's redrive policy parks them in the DLQ). An event that does not parse can never succeed: it is
 * logged (its problems, never its content) and dropped, so it cannot hold its chat back (D31).
 */
type Parsed = { record: SQSRecord; event: InboundEvent } | { record: SQSRecord; event: null };

const parse = (record: SQSRecord): Parsed => {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    body = undefined;
  }
  const result = inboundEventSchema.safeParse(body);
  if (result.success) return { record, event: result.data };
  logger.error('inbound event dropped: invalid', {
    messageId: record.messageId,
    group: record.attributes.MessageGroupId,
    problems: result.error.issues.slice(0, 10).map((i) => `${i.path.join('.') || 'body'}: ${i.message}`),
  });
  return { record, event: null };
};

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const scope = new InboundScope();
  const groups = new Map<string, Parsed[]>();
  for (const record of event.Records) {
    const group = record.attributes.MessageGroupId ?? record.messageId;
    groups.set(group, [...(groups.get(group) ?? []), parse(record)]);
  }

  const failures: SQSBatchItemFailure[] = [];
  const outcomes: Record<string, number> = {};
  const count = (outcome: InboundOutcome | 'invalid') => (outcomes[outcome] = (outcomes[outcome] ?? 0) + 1);

  await Promise.all(
    [...groups.values()].map(async (items) => {
      for (let i = 0; i < items.length; i += 1) {
        const { record, event: inbound } = items[i]!;
        if (!inbound) {
          count('invalid');
          continue;
        }
        try {
          count(await handleInboundEvent(inbound, scope));
        } catch (err) {
          logger.error('inbound event failed; it and the rest of its chat will be retried', {
            messageId: record.messageId,
            companyId: inbound.companyId,
            whatsappId: inbound.whatsappId,
            kind: inbound.kind,
            receiveCount: record.attributes.ApproximateReceiveCount,
            ...errorFields(err),
          });
          failures.push(...items.slice(i).map((p) => ({ itemIdentifier: p.record.messageId })));
          return;
        }
      }
    }),
  );

  logger.info('inbound batch', { records: event.Records.length, failed: failures.length, outcomes });
  return { batchItemFailures: failures };
};
