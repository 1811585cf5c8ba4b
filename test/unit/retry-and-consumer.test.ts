import type { SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { sqsBatchConsumer, sqsConsumer } from '../../functions/jobs/consumer';
import { Conflict, ServiceUnavailable } from '../../functions/shared/errors';
import { BUSY, CHANGED_MEANWHILE, withRetry } from '../../functions/shared/retry';

describe('withRetry (the one retry-on-conflict policy)', () => {
  it('runs again while the write was beaten, and answers the attempt that succeeds', async () => {
    const seen: number[] = [];
    const result = await withRetry(CHANGED_MEANWHILE, async (attempt) => {
      seen.push(attempt);
      if (attempt < 3) throw new Conflict();
      return 'written';
    });
    expect(result).toBe('written');
    expect(seen).toEqual([1, 2, 3]);
  });

  it('gives up after its attempts with the last error', async () => {
    let calls = 0;
    const err = await withRetry(CHANGED_MEANWHILE, async () => {
      calls += 1;
      throw new Conflict();
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Conflict);
    expect(calls).toBe(CHANGED_MEANWHILE.attempts);
  });

  it('never retries a domain answer (a conflict with its own code) or another error', async () => {
    for (const error of [new Conflict('ERR_OTHER_OPEN_TICKET', 'taken'), new Error('boom')]) {
      let calls = 0;
      await expect(
        withRetry(CHANGED_MEANWHILE, async () => {
          calls += 1;
          throw error;
        }),
      ).rejects.toBe(error);
      expect(calls).toBe(1);
    }
  });

  it('BUSY retries a moment of transaction conflict or throttling, not a changed item', async () => {
    let calls = 0;
    expect(
      await withRetry({ ...BUSY, pauseMs: () => 1 }, async () => {
        calls += 1;
        if (calls < 4) throw new ServiceUnavailable();
        return calls;
      }),
    ).toBe(4);
    await expect(withRetry(BUSY, async () => Promise.reject(new Conflict()))).rejects.toBeInstanceOf(Conflict);
  });
});

const record = (messageId: string, body: unknown, group?: string): SQSRecord =>
  ({
    messageId,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    attributes: { ApproximateReceiveCount: '1', ...(group ? { MessageGroupId: group } : {}) },
  }) as unknown as SQSRecord;
const batch = (...records: SQSRecord[]): SQSEvent => ({ Records: records });
const schema = z.object({ n: z.number().int() });

describe('sqsConsumer', () => {
  it('drops bodies that are not JSON or fail the schema (never retried) and handles the rest', async () => {
    const handled: number[] = [];
    const handler = sqsConsumer({ name: 'test job', schema, handle: async ({ n }) => void handled.push(n) });
    const out = await handler(batch(record('a', 'not json'), record('b', { n: 'x' }), record('c', { n: 3 })));
    expect(out.batchItemFailures).toEqual([]);
    expect(handled).toEqual([3]);
  });

  it('FIFO: a failure fails that record and the rest of its group, in order; other groups go on', async () => {
    const handled: string[] = [];
    const handler = sqsConsumer({
      name: 'test job',
      schema,
      handle: async ({ n }, r) => {
        if (n === 2) throw new Error('provider down');
        handled.push(`${r.attributes.MessageGroupId}:${n}`);
      },
    });
    const out = await handler(
      batch(
        record('g1-1', { n: 1 }, 'g1'),
        record('g2-1', { n: 5 }, 'g2'),
        record('g1-2', { n: 2 }, 'g1'),
        record('g1-3', { n: 3 }, 'g1'),
        record('g2-2', { n: 6 }, 'g2'),
      ),
    );
    expect(out.batchItemFailures).toEqual([{ itemIdentifier: 'g1-2' }, { itemIdentifier: 'g1-3' }]);
    expect(handled).toEqual(expect.arrayContaining(['g1:1', 'g2:5', 'g2:6']));
    expect(handled).not.toContain('g1:3');
  });

  it('a standard queue: each record is its own group, so one failure fails only itself', async () => {
    const handler = sqsConsumer({
      name: 'test job',
      schema,
      handle: async ({ n }) => {
        if (n === 1) throw new Error('boom');
      },
    });
    const out = await handler(batch(record('x', { n: 1 }), record('y', { n: 2 })));
    expect(out.batchItemFailures).toEqual([{ itemIdentifier: 'x' }]);
  });
});

describe('sqsBatchConsumer', () => {
  it('hands the parsed batch over by group, invalid bodies as null, and reports what it fails', async () => {
    let groups: (number | null)[][] = [];
    const handler = sqsBatchConsumer({
      name: 'test job',
      schema,
      handleBatch: async (b) => {
        groups = b.groups.map((items) => items.map((i) => i.body?.n ?? null));
        const first = b.groups[0]!;
        b.fail(first, 1, new Error('later one failed'));
      },
    });
    const out = await handler(
      batch(record('1', { n: 1 }, 'g'), record('2', '{', 'g'), record('3', { n: 3 }, 'g'), record('4', { n: 4 }, 'h')),
    );
    expect(groups).toEqual([[1, null, 3], [4]]);
    expect(out.batchItemFailures).toEqual([{ itemIdentifier: '2' }, { itemIdentifier: '3' }]);
  });
});
