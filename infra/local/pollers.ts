import {
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  type Message,
  type MessageAttributeValue,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import { createLambdaContext, invokeWithTimeout } from './lambda-context';
import { createLocalLog, describeError, type LocalLog } from './log';

/**
 * A local Lambda event source mapping for one SQS queue: long-polls, hands batches to the consumer's
 * handler as the SQS event Lambda builds, deletes what succeeded and leaves the rest to come back after
 * the visibility timeout (ReportBatchItemFailures semantics). Moving a message to the DLQ after
 * maxReceiveCount is the queue's RedrivePolicy, enforced by fauxqs on receive — as in SQS.
 */
export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface PollerOptions {
  sqs: SQSClient;
  queueUrl: string;
  queueArn: string;
  /** The consumer's handler, or a loader called before the first batch (a cold start). */
  handler: SqsHandler | { load: () => Promise<SqsHandler> };
  /** Messages per invocation (SQS returns at most 10 per receive). */
  batchSize: number;
  /**
   * Batches in flight at once, as Lambda runs several invocations of one event source mapping (its
   * `maxConcurrency`). On a FIFO queue the queue itself keeps a message group to one batch at a time, so
   * each chat's order holds whatever this is. Default 1.
   */
  concurrency?: number;
  /** Passed on ReceiveMessage; the queue's own visibility timeout applies when omitted. */
  visibilityTimeoutSeconds?: number;
  /** Long-poll wait (Lambda's pollers use 20 s). */
  waitTimeSeconds?: number;
  /** The Lambda timeout: a batch running longer counts as failed. */
  timeoutSeconds?: number;
  region?: string;
  functionName?: string;
  log?: LocalLog;
}

export interface Poller {
  /** Stops receiving and waits for the batch in progress to finish. */
  stop: () => Promise<void>;
}

const toRecordAttributes = (attributes: Record<string, MessageAttributeValue> | undefined): SQSMessageAttributes => {
  const out: SQSMessageAttributes = {};
  for (const [name, a] of Object.entries(attributes ?? {})) {
    out[name] = {
      ...(a.StringValue !== undefined ? { stringValue: a.StringValue } : {}),
      ...(a.BinaryValue !== undefined ? { binaryValue: Buffer.from(a.BinaryValue).toString('base64') } : {}),
      stringListValues: a.StringListValues ?? [],
      binaryListValues: (a.BinaryListValues ?? []).map((b) => Buffer.from(b).toString('base64')),
      dataType: a.DataType ?? 'String',
    };
  }
  return out;
};

/** One received message as a record of the SQS event Lambda passes to the function. */
export const toSqsRecord = (message: Message, queueArn: string, region: string): SQSRecord => {
  const a = message.Attributes ?? {};
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: a.ApproximateReceiveCount ?? '1',
      SentTimestamp: a.SentTimestamp ?? String(Date.now()),
      SenderId: a.SenderId ?? '',
      ApproximateFirstReceiveTimestamp: a.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
      ...(a.SequenceNumber ? { SequenceNumber: a.SequenceNumber } : {}),
      ...(a.MessageGroupId ? { MessageGroupId: a.MessageGroupId } : {}),
      ...(a.MessageDeduplicationId ? { MessageDeduplicationId: a.MessageDeduplicationId } : {}),
    },
    messageAttributes: toRecordAttributes(message.MessageAttributes),
    md5OfBody: message.MD5OfBody ?? '',
    ...(message.MD5OfMessageAttributes ? { md5OfMessageAttributes: message.MD5OfMessageAttributes } : {}),
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  };
};

/**
 * The message ids of a batch that must stay in the queue, as Lambda reads a ReportBatchItemFailures
 * answer: none when the answer is empty; all when an identifier is missing or not in the batch.
 * On a FIFO queue a failure also keeps every later message of the same group, so order holds.
 */
export const failedMessageIds = (records: readonly SQSRecord[], response: unknown, fifo: boolean): Set<string> => {
  const all = new Set(records.map((r) => r.messageId));
  const failures = (response as SQSBatchResponse | undefined | null)?.batchItemFailures;
  if (failures === undefined || failures === null) return new Set();
  if (!Array.isArray(failures)) return all;
  const failed = new Set<string>();
  for (const f of failures) {
    const id = (f as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'string' || !all.has(id)) return all;
    failed.add(id);
  }
  if (fifo) {
    const stoppedGroups = new Set<string>();
    for (const r of records) {
      const group = r.attributes.MessageGroupId ?? '';
      if (stoppedGroups.has(group)) failed.add(r.messageId);
      else if (failed.has(r.messageId)) stoppedGroups.add(group);
    }
  }
  return failed;
};

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

export const startPoller = (options: PollerOptions): Poller => {
  const log = options.log ?? createLocalLog();
  const region = options.region ?? 'us-east-1';
  const fifo = options.queueUrl.endsWith('.fifo');
  const queueName = options.queueUrl.split('/').pop() ?? options.queueUrl;
  const fn = {
    functionName: options.functionName ?? `local-consumer-${queueName.replace(/\.fifo$/, '')}`,
    region,
    timeoutMs: (options.timeoutSeconds ?? 30) * 1000,
  };
  const controller = new AbortController();
  let handler: SqsHandler | undefined = typeof options.handler === 'function' ? options.handler : undefined;

  const processBatch = async (messages: Message[]): Promise<void> => {
    const records = messages.map((m) => toSqsRecord(m, options.queueArn, region));
    let failed: Set<string>;
    try {
      if (!handler && typeof options.handler !== 'function') handler = await options.handler.load();
      const run = handler as SqsHandler;
      const response = await invokeWithTimeout(fn, () => run({ Records: records }, createLambdaContext(fn)));
      failed = failedMessageIds(records, response, fifo);
    } catch (err) {
      log.error('queue consumer failed; the batch will be retried', {
        functionName: fn.functionName,
        messages: records.length,
        ...describeError(err),
      });
      failed = new Set(records.map((r) => r.messageId));
    }
    const done = records.filter((r) => !failed.has(r.messageId));
    if (done.length === 0) return;
    const out = await options.sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: options.queueUrl,
        Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
      }),
    );
    if (out.Failed?.length)
      log.warn('could not delete processed messages', { queue: queueName, failed: out.Failed.length });
  };

  const loop = async (): Promise<void> => {
    while (!controller.signal.aborted) {
      let messages: Message[];
      try {
        const out = await options.sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: options.queueUrl,
            MaxNumberOfMessages: Math.min(Math.max(options.batchSize, 1), 10),
            WaitTimeSeconds: options.waitTimeSeconds ?? 20,
            ...(options.visibilityTimeoutSeconds !== undefined
              ? { VisibilityTimeout: options.visibilityTimeoutSeconds }
              : {}),
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: controller.signal },
        );
        messages = out.Messages ?? [];
      } catch (err) {
        if (controller.signal.aborted) return;
        log.warn('receive failed; retrying', { queue: queueName, ...describeError(err) });
        await sleep(1_000, controller.signal);
        continue;
      }
      if (messages.length > 0) {
        try {
          await processBatch(messages);
        } catch (err) {
          log.error('could not settle a batch', { queue: queueName, ...describeError(err) });
        }
      }
    }
  };

  const running = Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, loop));
  return {
    stop: async () => {
      controller.abort();
      await running;
    },
  };
};
