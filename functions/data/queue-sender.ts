import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { ServiceUnavailable } from '../shared/errors';
import { config } from '../shared/config';
import type { QueueName } from '../shared/queues';

/**
 * Sends JSON messages to the product's SQS queues (functions/shared/queues.ts), found by logical name in
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
 * Characters a body must not hold raw: everything outside what SQS carries (#x9 | #xA | #xD | #x20-#xD7FF |
 * #xE000-#xFFFD | #x10000-#x10FFFF) — U+FFFE, U+FFFF, C0 controls, lone surrogates, which a customer's
 * text may well hold — and the characters beyond the Basic Multilingual Plane (emoji), which SQS allows
 * but the local emulator (fauxqs) refuses.
 */
const NOT_RAW = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD]/gu;

/**
 * The body of every queue message: JSON whose characters in NOT_RAW are written as `\uXXXX` escapes (a
 * surrogate pair for an emoji), so any string fits SQS and JSON.parse gives back exactly the value sent.
 * JSON.stringify already escapes controls and lone surrogates, and outside string literals its output is
 * ASCII, so an escape only ever lands inside a string.
 */
export const queueJson = (body: unknown): string =>
  JSON.stringify(body).replace(NOT_RAW, (c) =>
    Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
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
