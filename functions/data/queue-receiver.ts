import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { QueueName } from '../shared/queues';
import { queueUrl, sqs } from './queue-sender';

/**
 * Long-polling consumers that are not Lambdas (the WhatsApp worker reads `worker-control` itself): receive,
 * and delete what was handled. Same client and queue URLs as queue-sender.ts.
 */
export interface ReceivedMessage {
  body: string;
  receiptHandle: string;
  receiveCount: number;
}

export const receiveQueueMessages = async (
  name: QueueName,
  options: { max?: number; waitSeconds?: number; visibilitySeconds?: number; abortSignal?: AbortSignal } = {},
): Promise<ReceivedMessage[]> => {
  const out = await sqs().send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl(name),
      MaxNumberOfMessages: Math.min(Math.max(options.max ?? 10, 1), 10),
      WaitTimeSeconds: options.waitSeconds ?? 20,
      ...(options.visibilitySeconds !== undefined ? { VisibilityTimeout: options.visibilitySeconds } : {}),
      MessageSystemAttributeNames: ['ApproximateReceiveCount'],
    }),
    options.abortSignal ? { abortSignal: options.abortSignal } : {},
  );
  return (out.Messages ?? []).map((m) => ({
    body: m.Body ?? '',
    receiptHandle: m.ReceiptHandle ?? '',
    receiveCount: Number(m.Attributes?.ApproximateReceiveCount ?? 1),
  }));
};

export const deleteQueueMessage = async (name: QueueName, receiptHandle: string): Promise<void> => {
  await sqs().send(new DeleteMessageCommand({ QueueUrl: queueUrl(name), ReceiptHandle: receiptHandle }));
};
