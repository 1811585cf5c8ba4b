import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './handler-modules';

/**
 * Makes fauxqs receive from FIFO queues as SQS does (decisions D66). SQS "first attempts to return as many
 * messages with the same message group ID as possible" (ReceiveMessage, FIFO), so a Lambda batch holds a
 * run of one chat in order; fauxqs 1.x hands out one message per group per receive, which makes every
 * local batch one message per chat and hides what batching a chat costs and saves. Patched here, on the
 * class both the app and this module load:
 * - `dequeueFifo` takes, group by group, every visible message of an unlocked group until the batch is
 *   full (the group stays locked while any of them is in flight, as before);
 * - a group's messages that become visible again (visibility timeout, ChangeMessageVisibility 0) go back
 *   in their sequence order — fauxqs puts each back at the front, which reverses several of one group.
 * Everything else (deduplication, DLQ on maxReceiveCount, long polling, partial deletes) is fauxqs's own.
 */
interface FauxMessage {
  messageId: string;
  body: string;
  md5OfBody: string;
  md5OfMessageAttributes?: string;
  messageAttributes: Record<string, unknown>;
  messageGroupId?: string;
  sequenceNumber?: string;
  approximateReceiveCount: number;
  approximateFirstReceiveTimestamp?: number;
}

interface FauxQueue {
  name: string;
  attributes: Record<string, string>;
  fifoMessages: Map<string, FauxMessage[]>;
  fifoLockedGroups: Map<string, number>;
  inflightMessages: Map<string, { message: FauxMessage; receiptHandle: string; visibilityDeadline: number }>;
  spy?: { addMessage: (m: Record<string, unknown>) => void };
  processTimers: () => void;
  isFifo: () => boolean;
}

type DlqResolver = (arn: string) => { enqueue: (m: FauxMessage) => void } | undefined;

const PATCHED = Symbol.for('zapdesk.fauxqs.fifoBatches');

const bySequence = (a: FauxMessage, b: FauxMessage): number =>
  (a.sequenceNumber ?? '').localeCompare(b.sequenceNumber ?? '');

export const patchFauxqsFifo = async (): Promise<void> => {
  const url = pathToFileURL(join(REPO_ROOT, 'node_modules', 'fauxqs', 'dist', 'sqs', 'sqsStore.js')).href;
  const { SqsQueue } = (await import(url)) as { SqsQueue: { prototype: Record<string | symbol, unknown> } };
  const proto = SqsQueue.prototype;
  if (proto[PATCHED]) return;
  proto[PATCHED] = true;

  proto.dequeueFifo = function dequeueFifo(
    this: FauxQueue,
    maxCount: number,
    visibilityTimeoutOverride: number | undefined,
    dlqResolver: DlqResolver | undefined,
  ) {
    this.processTimers();
    const visibilityTimeout = visibilityTimeoutOverride ?? parseInt(this.attributes.VisibilityTimeout ?? '30', 10);
    let maxReceiveCount = Infinity;
    let dlqArn: string | undefined;
    if (this.attributes.RedrivePolicy) {
      try {
        const policy = JSON.parse(this.attributes.RedrivePolicy) as {
          maxReceiveCount?: number;
          deadLetterTargetArn?: string;
        };
        maxReceiveCount = policy.maxReceiveCount ?? Infinity;
        dlqArn = policy.deadLetterTargetArn;
      } catch {
        // an invalid policy is ignored, as fauxqs does
      }
    }
    const result: Record<string, unknown>[] = [];
    const count = Math.min(maxCount, 10);
    for (const [groupId, groupMsgs] of this.fifoMessages) {
      if (result.length >= count) break;
      if (this.fifoLockedGroups.has(groupId) || groupMsgs.length === 0) continue;
      while (result.length < count && groupMsgs.length > 0) {
        const msg = groupMsgs.shift()!;
        msg.approximateReceiveCount += 1;
        msg.approximateFirstReceiveTimestamp ??= Date.now();
        if (dlqArn && dlqResolver && msg.approximateReceiveCount > maxReceiveCount) {
          const dlq = dlqResolver(dlqArn);
          if (dlq) {
            this.spy?.addMessage({
              service: 'sqs',
              queueName: this.name,
              messageId: msg.messageId,
              body: msg.body,
              messageAttributes: msg.messageAttributes,
              status: 'dlq',
              timestamp: Date.now(),
            });
            dlq.enqueue(msg);
            continue;
          }
        }
        const receiptHandle = randomUUID();
        this.inflightMessages.set(receiptHandle, {
          message: msg,
          receiptHandle,
          visibilityDeadline: Date.now() + visibilityTimeout * 1000,
        });
        result.push({
          MessageId: msg.messageId,
          ReceiptHandle: receiptHandle,
          MD5OfBody: msg.md5OfBody,
          Body: msg.body,
          ...(msg.md5OfMessageAttributes ? { MD5OfMessageAttributes: msg.md5OfMessageAttributes } : {}),
          ...(Object.keys(msg.messageAttributes).length > 0 ? { MessageAttributes: msg.messageAttributes } : {}),
        });
        this.fifoLockedGroups.set(groupId, (this.fifoLockedGroups.get(groupId) ?? 0) + 1);
      }
      if (groupMsgs.length === 0) this.fifoMessages.delete(groupId);
    }
    return result;
  };

  // Messages put back at the front one by one: restore each touched group's sequence order afterwards.
  const inOrder = <A extends unknown[]>(
    original: (this: FauxQueue, ...args: A) => unknown,
    touched: (queue: FauxQueue, ...args: A) => string[],
  ) =>
    function (this: FauxQueue, ...args: A) {
      const groups = this.isFifo() ? touched(this, ...args) : [];
      const out = original.apply(this, args);
      for (const g of groups) this.fifoMessages.get(g)?.sort(bySequence);
      return out;
    };
  proto.processTimers = inOrder(proto.processTimers as (this: FauxQueue) => unknown, (queue) => {
    const now = Date.now();
    const groups = new Set<string>();
    for (const entry of queue.inflightMessages.values()) {
      if (entry.visibilityDeadline <= now) groups.add(entry.message.messageGroupId ?? '__default');
    }
    return [...groups];
  });
  proto.changeVisibility = inOrder(
    proto.changeVisibility as (this: FauxQueue, receiptHandle: string, timeoutSeconds: number) => unknown,
    (queue, receiptHandle, timeoutSeconds) => {
      const group = queue.inflightMessages.get(receiptHandle)?.message.messageGroupId;
      return timeoutSeconds === 0 && group ? [group] : [];
    },
  );
};
