import type { ScheduledEvent, SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { ZodType } from 'zod';
import { startEntryPoint } from '../realtime/entry-point';
import { errorFields, logger } from '../shared/logger';

/**
 * The one way to consume an SQS queue (decisions D85): every consumer in functions/jobs/registry.ts is
 * built by `sqsConsumer` (one record at a time, a FIFO group's records in order) or `sqsBatchConsumer` (the
 * batch handed over whole, for consumers that combine records, like the inbound job's runs).
 *
 * - Parse and validate: a body that is not JSON or fails the schema can never succeed; it is logged (its
 *   problems and ids, never its content) and dropped, so it cannot hold its group back or loop to the DLQ.
 * - Partial batch failures: a failed record is reported in `batchItemFailures` (the event source mapping
 *   has ReportBatchItemFailures on), so only it is retried; after the queue's maxReceiveCount the redrive
 *   policy parks it in the DLQ.
 * - FIFO: records of one message group are handled one after another in queue order; a failure reports
 *   that record and every later one of its group, so the group's order holds on the retry. Different
 *   groups run in parallel.
 * - Cold start: the configuration is parsed and the notifier plugged in when the module loads.
 */
export interface ConsumerRecord<T> {
  record: SQSRecord;
  /** The parsed body; null when it was invalid (already logged, never retried). */
  body: T | null;
}

interface ConsumerBase<T> {
  /** What a record is, for the logs: 'inbound event', 'outbound send', ... */
  name: string;
  schema: ZodType<T>;
  /** Fields that identify a record's work in the logs (ids, never content). */
  describe?: (body: T) => Record<string, unknown>;
}

/** The batch as a consumer sees it: its records by message group, and how to report a failure. */
export interface ConsumerBatch<T> {
  /** Message groups in arrival order (a standard queue's records are each their own group). */
  groups: ConsumerRecord<T>[][];
  /**
   * Reports `items[from]` and every later record of its group as failed (logged once, with `extra`), so
   * SQS redelivers them in order.
   */
  fail: (items: readonly ConsumerRecord<T>[], from: number, err: unknown, extra?: Record<string, unknown>) => void;
}

const problemsOf = (issues: readonly { path: PropertyKey[]; message: string }[]): string[] =>
  issues.slice(0, 10).map((i) => `${i.path.map(String).join('.') || 'body'}: ${i.message}`);

const parseRecord = <T>(options: ConsumerBase<T>, record: SQSRecord): ConsumerRecord<T> => {
  let json: unknown;
  try {
    json = JSON.parse(record.body);
  } catch {
    json = undefined;
  }
  const result = options.schema.safeParse(json);
  if (result.success) return { record, body: result.data };
  logger.error(`${options.name} dropped: invalid`, {
    messageId: record.messageId,
    group: record.attributes.MessageGroupId,
    problems: problemsOf(result.error.issues),
  });
  return { record, body: null };
};

const runBatch = async <T>(
  options: ConsumerBase<T>,
  event: SQSEvent,
  handle: (batch: ConsumerBatch<T>) => Promise<void>,
): Promise<SQSBatchResponse> => {
  const groups = new Map<string, ConsumerRecord<T>[]>();
  for (const record of event.Records) {
    const group = record.attributes.MessageGroupId ?? record.messageId;
    groups.set(group, [...(groups.get(group) ?? []), parseRecord(options, record)]);
  }
  const failures: SQSBatchItemFailure[] = [];
  const fail: ConsumerBatch<T>['fail'] = (items, from, err, extra) => {
    const { record, body } = items[from]!;
    const later = items.length - from - 1;
    logger.error(`${options.name} failed; it${later > 0 ? ' and the rest of its group' : ''} will be retried`, {
      messageId: record.messageId,
      ...(body && options.describe ? options.describe(body) : {}),
      ...extra,
      receiveCount: record.attributes.ApproximateReceiveCount,
      ...errorFields(err),
    });
    failures.push(...items.slice(from).map((p) => ({ itemIdentifier: p.record.messageId })));
  };
  await handle({ groups: [...groups.values()], fail });
  return { batchItemFailures: failures };
};

/** A consumer that handles one record at a time: a group's records in order, groups in parallel. */
export const sqsConsumer = <T>(
  options: ConsumerBase<T> & { handle: (body: T, record: SQSRecord) => Promise<unknown> },
): ((event: SQSEvent) => Promise<SQSBatchResponse>) => {
  startEntryPoint();
  return (event) =>
    runBatch(options, event, async ({ groups, fail }) => {
      await Promise.all(
        groups.map(async (items) => {
          for (let i = 0; i < items.length; i += 1) {
            const { record, body } = items[i]!;
            if (body === null) continue;
            try {
              await options.handle(body, record);
            } catch (err) {
              fail(items, i, err);
              return;
            }
          }
        }),
      );
    });
};

/** A consumer that takes the parsed batch whole (it schedules the groups itself and reports failures). */
export const sqsBatchConsumer = <T>(
  options: ConsumerBase<T> & { handleBatch: (batch: ConsumerBatch<T>) => Promise<void> },
): ((event: SQSEvent) => Promise<SQSBatchResponse>) => {
  startEntryPoint();
  return (event) => runBatch(options, event, options.handleBatch);
};

/** A minute tick (EventBridge rule, or the local cloud's timer): the same cold start as the consumers. */
export const minuteTick = (run: () => Promise<void>): ((event: ScheduledEvent) => Promise<void>) => {
  startEntryPoint();
  return () => run();
};
