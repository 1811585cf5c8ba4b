import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../functions/data/client';
import { transactWrite } from '../../functions/data/transactions';
import { Conflict, NotFound } from '../../functions/shared/errors';
import { CHANGED_MEANWHILE, withRetry } from '../../functions/shared/retry';

const key = (name: string) => ({ pk: `TEST#tx#${name}#${Date.now()}#${Math.random()}`, sk: 'ITEM' });
const read = async (k: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: k, ConsistentRead: true }))).Item;

describe('transactWrite (data/transactions.ts)', () => {
  it('writes every item or none: a failed condition leaves the other items unwritten', async () => {
    const [a, b] = [key('a'), key('b')];
    await transactWrite([{ Put: { Item: { ...b, v: 1 } } }]);
    const err = await transactWrite([
      { Put: { Item: { ...a, v: 1 } } },
      { Put: { Item: { ...b, v: 2 }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Conflict);
    expect(await read(a)).toBeUndefined();
    expect((await read(b))?.v).toBe(1);
  });

  it("a failed condition becomes the caller's domain error, with the reasons per item", async () => {
    const a = key('gone');
    const err = await transactWrite(
      [
        {
          Update: {
            Key: a,
            UpdateExpression: 'SET v = :v',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':v': 1 },
          },
        },
      ],
      (failure) => new NotFound('ERR_TEST_GONE', `gone: ${failure.reasons?.join(',')}`),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFound);
    expect((err as NotFound).message).toBe('gone: ConditionalCheckFailed');
  });

  it('with CHANGED_MEANWHILE, a read-decide-write beaten by a parallel writer reads again and lands', async () => {
    const counter = key('counter');
    await transactWrite([{ Put: { Item: { ...counter, v: 0 } } }]);
    const increment = () =>
      withRetry({ ...CHANGED_MEANWHILE, attempts: 20 }, async () => {
        const v = Number((await read(counter))?.v);
        await transactWrite([
          {
            Update: {
              Key: counter,
              UpdateExpression: 'SET v = :next',
              ConditionExpression: 'v = :seen',
              ExpressionAttributeValues: { ':next': v + 1, ':seen': v },
            },
          },
        ]);
      });
    await Promise.all(Array.from({ length: 5 }, increment));
    expect((await read(counter))?.v).toBe(5);
  });
});
