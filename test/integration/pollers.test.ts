import { createHash, randomUUID } from 'node:crypto';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
  SendMessageBatchCommand,
  SendMessageCommand,
} from '@aws-sdk/client-sqs';
import type { Context, ScheduledEvent, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, afterEach, describe, expect, inject, it, vi } from 'vitest';
import { QUEUES, dlqName } from '../../functions/shared/queues';
import type { LocalLog } from '../../infra/local/log';
import { failedMessageIds, startPoller, type Poller, type SqsHandler } from '../../infra/local/pollers';
import { startTick, type Tick } from '../../infra/local/ticks';

const env = inject('localCloudEnv');
const sqs = new SQSClient({ endpoint: env.SQS_ENDPOINT, region: env.AWS_REGION });
const running: (Poller | Tick)[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()));
});
afterAll(() => sqs.destroy());

/** Collects the local cloud's error lines instead of printing them. */
const collectingLog = () => {
  const errors: string[] = [];
  const log: LocalLog = { info: () => undefined, warn: () => undefined, error: (msg) => void errors.push(msg) };
  return { log, errors };
};

/** A queue with its DLQ and RedrivePolicy, created the way the local cloud creates the product's. */
const createQueuePair = async (options: { fifo: boolean; maxReceiveCount: number }) => {
  const suffix = options.fifo ? '.fifo' : '';
  const fifo = options.fifo ? { FifoQueue: 'true', ContentBasedDeduplication: 'false' } : {};
  const name = `test-${randomUUID().slice(0, 8)}`;
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq${suffix}`, Attributes: fifo }));
  const dlqArn = (
    await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }))
  ).Attributes?.QueueArn;
  const queue = await sqs.send(
    new CreateQueueCommand({
      QueueName: `${name}${suffix}`,
      Attributes: {
        ...fifo,
        VisibilityTimeout: '1',
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: options.maxReceiveCount }),
      },
    }),
  );
  const arn = (
    await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queue.QueueUrl, AttributeNames: ['QueueArn'] }))
  ).Attributes?.QueueArn;
  return { url: queue.QueueUrl!, arn: arn!, dlqUrl: dlq.QueueUrl! };
};

const poll = (
  queue: { url: string; arn: string },
  handler: SqsHandler,
  log: LocalLog,
  batchSize = 10,
  concurrency = 1,
) => {
  const poller = startPoller({
    sqs,
    queueUrl: queue.url,
    queueArn: queue.arn,
    handler,
    batchSize,
    concurrency,
    waitTimeSeconds: 1,
    timeoutSeconds: 10,
    log,
  });
  running.push(poller);
  return poller;
};

/** Messages neither waiting nor in flight: everything was deleted (or moved to the DLQ). */
const queueIsEmpty = async (url: string): Promise<boolean> => {
  const attributes = (
    await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: url,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    )
  ).Attributes;
  return attributes?.ApproximateNumberOfMessages === '0' && attributes.ApproximateNumberOfMessagesNotVisible === '0';
};

const failOnFirstDelivery =
  (shouldFail: (r: SQSRecord) => boolean) =>
  (event: SQSEvent): SQSBatchResponse => ({
    batchItemFailures: event.Records.filter((r) => r.attributes.ApproximateReceiveCount === '1' && shouldFail(r)).map(
      (r) => ({
        itemIdentifier: r.messageId,
      }),
    ),
  });

describe('SQS pollers', () => {
  it('hands the handler a real SQS event and context', async () => {
    const queue = await createQueuePair({ fifo: false, maxReceiveCount: 3 });
    const { log } = collectingLog();
    const seen: { record: SQSRecord; context: Context }[] = [];
    poll(
      queue,
      async (event, context) => {
        for (const record of event.Records) seen.push({ record, context });
      },
      log,
    );

    await sqs.send(
      new SendMessageCommand({
        QueueUrl: queue.url,
        MessageBody: '{"hello":"world"}',
        MessageAttributes: { kind: { DataType: 'String', StringValue: 'inbound' } },
      }),
    );

    await vi.waitFor(() => expect(seen).toHaveLength(1), { timeout: 10_000 });
    const { record, context } = seen[0]!;
    expect(record).toMatchObject({
      body: '{"hello":"world"}',
      eventSource: 'aws:sqs',
      eventSourceARN: queue.arn,
      awsRegion: env.AWS_REGION,
      md5OfBody: createHash('md5').update('{"hello":"world"}').digest('hex'),
      messageAttributes: {
        kind: { stringValue: 'inbound', dataType: 'String', stringListValues: [], binaryListValues: [] },
      },
    });
    expect(record.messageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(record.receiptHandle).not.toBe('');
    expect(record.attributes.ApproximateReceiveCount).toBe('1');
    expect(record.attributes.SentTimestamp).toMatch(/^\d{13}$/);
    expect(record.attributes.ApproximateFirstReceiveTimestamp).toMatch(/^\d{13}$/);
    expect(context.awsRequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(context.getRemainingTimeInMillis()).toBeGreaterThan(0);
    await vi.waitFor(async () => expect(await queueIsEmpty(queue.url)).toBe(true), { timeout: 10_000 });
  });

  it('redelivers a failed message after the visibility timeout with ApproximateReceiveCount 2', async () => {
    const queue = await createQueuePair({ fifo: false, maxReceiveCount: 3 });
    const { log } = collectingLog();
    const deliveries: string[] = [];
    const fail = failOnFirstDelivery(() => true);
    poll(
      queue,
      async (event) => {
        for (const r of event.Records) deliveries.push(`${r.body}#${r.attributes.ApproximateReceiveCount}`);
        return fail(event);
      },
      log,
    );

    await sqs.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: 'retry-me' }));

    await vi.waitFor(() => expect(deliveries).toEqual(['retry-me#1', 'retry-me#2']), { timeout: 15_000 });
    await vi.waitFor(async () => expect(await queueIsEmpty(queue.url)).toBe(true), { timeout: 10_000 });
    expect(deliveries).toEqual(['retry-me#1', 'retry-me#2']);
  });

  it('deletes the successes of a batch and redelivers only its failures', async () => {
    const queue = await createQueuePair({ fifo: false, maxReceiveCount: 3 });
    const { log } = collectingLog();
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queue.url,
        Entries: ['a', 'b', 'c'].map((body) => ({ Id: body, MessageBody: body })),
      }),
    );
    const deliveries: string[] = [];
    const batchSizes: number[] = [];
    const fail = failOnFirstDelivery((r) => r.body === 'b');

    poll(
      queue,
      async (event) => {
        batchSizes.push(event.Records.length);
        for (const r of event.Records) deliveries.push(`${r.body}#${r.attributes.ApproximateReceiveCount}`);
        return fail(event);
      },
      log,
    );

    await vi.waitFor(() => expect(deliveries).toContain('b#2'), { timeout: 15_000 });
    await vi.waitFor(async () => expect(await queueIsEmpty(queue.url)).toBe(true), { timeout: 10_000 });
    expect(batchSizes[0]).toBe(3);
    expect(deliveries.sort()).toEqual(['a#1', 'b#1', 'b#2', 'c#1']);
  });

  it('moves a message that keeps failing to the DLQ after maxReceiveCount (RedrivePolicy)', async () => {
    const queue = await createQueuePair({ fifo: false, maxReceiveCount: 2 });
    const { log, errors } = collectingLog();
    const attempts: string[] = [];
    poll(
      queue,
      async (event) => {
        for (const r of event.Records) attempts.push(r.attributes.ApproximateReceiveCount);
        throw new Error('consumer bug');
      },
      log,
    );

    await sqs.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: 'poison' }));
    const deadLetter = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.dlqUrl, WaitTimeSeconds: 20 }));

    expect(deadLetter.Messages?.map((m) => m.Body)).toEqual(['poison']);
    expect(attempts).toEqual(['1', '2']);
    expect(errors.length).toBeGreaterThanOrEqual(2);
    await vi.waitFor(async () => expect(await queueIsEmpty(queue.url)).toBe(true), { timeout: 10_000 });
  });

  it('keeps the order within each FIFO group, a failure included', async () => {
    const queue = await createQueuePair({ fifo: true, maxReceiveCount: 3 });
    const { log } = collectingLog();
    const sends: [group: string, n: number][] = [
      ['g1', 1],
      ['g2', 1],
      ['g1', 2],
      ['g1', 3],
      ['g2', 2],
      ['g1', 4],
      ['g2', 3],
      ['g1', 5],
    ];
    for (const [group, n] of sends) {
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: queue.url,
          MessageBody: JSON.stringify({ group, n }),
          MessageGroupId: group,
          MessageDeduplicationId: `${group}-${n}`,
        }),
      );
    }
    const processed: Record<string, number[]> = { g1: [], g2: [] };
    const fifoAttributes: { groupMatches: boolean; sequenceNumber?: string }[] = [];
    const fail = failOnFirstDelivery((r) => r.body === JSON.stringify({ group: 'g1', n: 2 }));

    poll(
      queue,
      async (event) => {
        // A FIFO consumer stops a group at its first failure (the rest of the group comes back with it).
        const failures = fail(event).batchItemFailures.map((f) => f.itemIdentifier);
        const stopped = new Set<string>();
        for (const r of event.Records) {
          const { group, n } = JSON.parse(r.body) as { group: string; n: number };
          if (stopped.has(group)) continue;
          fifoAttributes.push({
            groupMatches: r.attributes.MessageGroupId === group,
            sequenceNumber: r.attributes.SequenceNumber,
          });
          processed[group]!.push(n);
          if (failures.includes(r.messageId)) stopped.add(group);
        }
        return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
      },
      log,
    );

    await vi.waitFor(() => expect(processed.g1!.length + processed.g2!.length).toBe(9), { timeout: 20_000 });
    expect(processed.g1).toEqual([1, 2, 2, 3, 4, 5]);
    expect(processed.g2).toEqual([1, 2, 3]);
    expect(fifoAttributes.every((a) => a.groupMatches && /^\d+$/.test(a.sequenceNumber ?? ''))).toBe(true);
    await vi.waitFor(async () => expect(await queueIsEmpty(queue.url)).toBe(true), { timeout: 10_000 });
  });
});

describe('FIFO receives like SQS', () => {
  it("hands out as many of one group's messages as fit, in order, and puts failed ones back in order", async () => {
    const queue = await createQueuePair({ fifo: true, maxReceiveCount: 3 });
    for (let n = 1; n <= 6; n += 1) {
      for (const group of ['x', 'y']) {
        await sqs.send(
          new SendMessageCommand({
            QueueUrl: queue.url,
            MessageBody: JSON.stringify({ group, n }),
            MessageGroupId: group,
            MessageDeduplicationId: `${group}-${n}`,
          }),
        );
      }
    }
    const receive = async () =>
      (
        await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queue.url,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: 0,
            VisibilityTimeout: 1,
            MessageSystemAttributeNames: ['MessageGroupId'],
          }),
        )
      ).Messages ?? [];
    const label = (m: { Body?: string }) => {
      const { group, n } = JSON.parse(m.Body ?? '{}') as { group: string; n: number };
      return `${group}${n}`;
    };

    // One receive: all of x (the older group) first, then y up to the batch size.
    const first = await receive();
    expect(first.map(label)).toEqual(['x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'y1', 'y2', 'y3', 'y4']);
    // Both groups are in flight now: nothing else of them comes out.
    expect(await receive()).toEqual([]);
    // Nothing deleted: after the visibility timeout both groups come back whole and in order.
    const again = await vi.waitFor(
      async () => {
        const got = await receive();
        expect(got.length).toBeGreaterThan(0);
        return got;
      },
      { timeout: 5_000, interval: 200 },
    );
    // Which group comes first is SQS's choice; each group comes back from its oldest message, in order.
    expect(again).toHaveLength(10);
    const labels = again.map(label);
    for (const group of ['x', 'y']) {
      const mine = labels.filter((l) => l.startsWith(group));
      expect(mine.length).toBeGreaterThanOrEqual(4);
      expect(mine).toEqual(mine.map((_, i) => `${group}${i + 1}`));
    }
  });
});

describe('concurrent batches', () => {
  it('runs batches of different FIFO groups at once, while each group stays one batch at a time, in order', async () => {
    const queue = await createQueuePair({ fifo: true, maxReceiveCount: 3 });
    const { log } = collectingLog();
    const groups = ['a', 'b', 'c', 'd'];
    for (let n = 1; n <= 5; n += 1) {
      for (const group of groups) {
        await sqs.send(
          new SendMessageCommand({
            QueueUrl: queue.url,
            MessageBody: JSON.stringify({ group, n }),
            MessageGroupId: group,
            MessageDeduplicationId: `${group}-${n}`,
          }),
        );
      }
    }
    const processed: Record<string, number[]> = Object.fromEntries(groups.map((g) => [g, []]));
    const inFlight = new Set<string>();
    let mostAtOnce = 0;
    let groupOverlap = false;
    poll(
      queue,
      async (event) => {
        const mine = [...new Set(event.Records.map((r) => r.attributes.MessageGroupId!))];
        if (mine.some((g) => inFlight.has(g))) groupOverlap = true;
        mine.forEach((g) => inFlight.add(g));
        mostAtOnce = Math.max(mostAtOnce, inFlight.size);
        await new Promise((r) => setTimeout(r, 150));
        for (const r of event.Records) {
          const { group, n } = JSON.parse(r.body) as { group: string; n: number };
          processed[group]!.push(n);
        }
        mine.forEach((g) => inFlight.delete(g));
        return { batchItemFailures: [] };
      },
      log,
      1, // one message per batch, so only concurrency can put two groups in flight together
      4,
    );

    await vi.waitFor(() => expect(Object.values(processed).flat()).toHaveLength(20), { timeout: 20_000 });
    for (const g of groups) expect(processed[g]).toEqual([1, 2, 3, 4, 5]);
    expect(groupOverlap).toBe(false);
    expect(mostAtOnce).toBeGreaterThan(1);
  });
});

describe('batch failure rules', () => {
  const record = (messageId: string, group?: string): SQSRecord =>
    ({ messageId, attributes: group ? { MessageGroupId: group } : {} }) as unknown as SQSRecord;
  const batch = [record('m1', 'g1'), record('m2', 'g1'), record('m3', 'g2'), record('m4', 'g1')];

  it('reads an empty answer as success and a bad identifier as a failed batch', () => {
    expect(failedMessageIds(batch, undefined, false)).toEqual(new Set());
    expect(failedMessageIds(batch, { batchItemFailures: [] }, false)).toEqual(new Set());
    expect(failedMessageIds(batch, { batchItemFailures: [{ itemIdentifier: 'm2' }] }, false)).toEqual(new Set(['m2']));
    expect(failedMessageIds(batch, { batchItemFailures: [{ itemIdentifier: 'other' }] }, false)).toEqual(
      new Set(['m1', 'm2', 'm3', 'm4']),
    );
    expect(failedMessageIds(batch, { batchItemFailures: [{ itemIdentifier: '' }] }, false).size).toBe(4);
  });

  it('on FIFO queues, a failure also holds back the rest of its group in the batch', () => {
    expect(failedMessageIds(batch, { batchItemFailures: [{ itemIdentifier: 'm1' }] }, true)).toEqual(
      new Set(['m1', 'm2', 'm4']),
    );
    expect(failedMessageIds(batch, { batchItemFailures: [{ itemIdentifier: 'm3' }] }, true)).toEqual(new Set(['m3']));
  });
});

describe("the local cloud's queues", () => {
  it('has every queue of the definition with its DLQ and redrive policy', async () => {
    const urls = JSON.parse(env.QUEUE_URLS ?? '{}') as Record<string, string>;
    for (const q of QUEUES) {
      const attributes = (
        await sqs.send(new GetQueueAttributesCommand({ QueueUrl: urls[q.name], AttributeNames: ['All'] }))
      ).Attributes;
      const dlq = (
        await sqs.send(new GetQueueAttributesCommand({ QueueUrl: urls[dlqName(q)], AttributeNames: ['All'] }))
      ).Attributes;

      expect(attributes?.VisibilityTimeout).toBe(String(q.visibilityTimeoutSeconds));
      expect(JSON.parse(attributes?.RedrivePolicy ?? '{}')).toEqual({
        deadLetterTargetArn: dlq?.QueueArn,
        maxReceiveCount: q.maxReceiveCount,
      });
      expect(attributes?.FifoQueue === 'true').toBe(q.fifo);
      expect(dlq?.FifoQueue === 'true').toBe(q.fifo);
      if (q.fifo) expect(attributes?.ContentBasedDeduplication).toBe('false');
    }
  });
});

describe('ticks', () => {
  const definition = { name: 'test-tick', entry: 'unused.ts', everyMinutes: 1, timeoutSeconds: 5, description: 'test' };

  it('runs on demand with an EventBridge Scheduled Event', async () => {
    const events: ScheduledEvent[] = [];
    const tick = startTick(definition, { handler: async (e) => void events.push(e), namePrefix: 'zapdesk-test' });
    running.push(tick);

    await tick.runNow();

    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      version: '0',
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      region: 'us-east-1',
      resources: ['arn:aws:events:us-east-1:000000000000:rule/zapdesk-test-test-tick'],
      detail: {},
    });
    expect(events[0]!.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('runs on its interval until stopped, and survives a failing run', async () => {
    // The tick's clock is the test's: each interval is a step the test takes, however slow the machine.
    vi.useFakeTimers();
    try {
      const { log, errors } = collectingLog();
      let runs = 0;
      const tick = startTick(definition, {
        intervalMs: 20,
        log,
        handler: async () => {
          runs += 1;
          if (runs === 1) throw new Error('first run fails');
        },
      });

      await vi.advanceTimersByTimeAsync(3 * 20);
      expect(runs).toBe(3);
      await tick.stop();
      const afterStop = runs;
      // Ten more intervals go by: each would have been a run, had the interval still been set.
      await vi.advanceTimersByTimeAsync(10 * 20);

      expect(runs).toBe(afterStop);
      expect(vi.getTimerCount()).toBe(0);
      expect(errors).toContain('tick failed');
    } finally {
      vi.useRealTimers();
    }
  });
});
