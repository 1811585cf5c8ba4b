import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { ServiceUnavailable } from '../shared/errors';
import { config } from '../shared/config';
import type { QueueName } from '../shared/queues';

/**
 * Sends JSON messages to the product's SQS queues (functions/jobs/queues.ts), found by logical name in
 * config().QUEUE_URLS — the CDK `bindQueue` helper sets the URL and the send grant together. One client per
 * process; locally the endpoint is fauxqs. Services call this; they never see SQS types.
 */
let client: SQSClient | undefined;

/** The process's SQS client (also used by queue-receiver.ts). */
export const sqs = (): SQSClient => {
  if (!client) {
    const c = config();
    client = new SQSClient({
      region: c.AWS_REGION,
      ...(c.SQS_ENDPOINT
        ? { endpoint: c.SQS_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
    });
  }
  return client;
};

export const queueUrl = (name: QueueName): string => {
  const url = config().QUEUE_URLS[name];
  if (!url) throw new Error(`queue '${name}' is not configured (QUEUE_URLS)`);
  return url;
};

const THROTTLING = new Set(['ThrottlingException', 'RequestThrottled', 'ServiceUnavailable', 'InternalError']);

export interface SendOptions {
  /** FIFO queues: ordering group. */
  groupId?: string;
  /** FIFO queues: deduplication id (never content-based, see queues.ts). */
  deduplicationId?: string;
  delaySeconds?: number;
}

/**
 * JSON whose characters beyond the Basic Multilingual Plane (emoji) are written as `\uXXXX` surrogate
 * escapes: the same value for every JSON parser, and a body the local SQS emulator (fauxqs) accepts — it
 * refuses those characters, which SQS itself allows.
 */
export const queueJson = (body: unknown): string =>
  JSON.stringify(body).replace(/[\u{10000}-\u{10FFFF}]/gu, (c) =>
    [c.charCodeAt(0), c.charCodeAt(1)].map((u) => `\\u${u.toString(16)}`).join(''),
  );

/** Sends one message; SQS being throttled or down is a retryable 503 for the caller. */
export const sendQueueMessage = async (name: QueueName, body: unknown, options: SendOptions = {}): Promise<void> => {
  try {
    await sqs().send(
      new SendMessageCommand({
        QueueUrl: queueUrl(name),
        MessageBody: queueJson(body),
        ...(options.groupId ? { MessageGroupId: options.groupId } : {}),
        ...(options.deduplicationId ? { MessageDeduplicationId: options.deduplicationId } : {}),
        ...(options.delaySeconds ? { DelaySeconds: options.delaySeconds } : {}),
      }),
    );
  } catch (err) {
    if (err instanceof Error && THROTTLING.has(err.name)) throw new ServiceUnavailable();
    throw err;
  }
};

/** Fault-injection tests swap the client. */
export const setQueueClientForTests = (replacement: SQSClient | undefined): void => {
  client = replacement;
};
