import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';

/** One request of a BatchWriteItem: a put or a delete, unconditional (BatchWrite takes no conditions). */
export type WriteRequest =
  { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: { pk: string; sk: string } } };

/** DynamoDB takes at most 25 requests in one BatchWriteItem. */
const CHUNK = 25;

/**
 * Writes every request, 25 at a time, retrying what DynamoDB leaves unprocessed with a growing pause;
 * throws when some are still unprocessed after `rounds` rounds (what was written stays written: each
 * request is a whole item, so a caller that retries writes the rest).
 */
export const batchWriteAll = async (requests: readonly WriteRequest[], rounds = 6): Promise<void> => {
  for (let i = 0; i < requests.length; i += CHUNK) {
    let pending: WriteRequest[] = requests.slice(i, i + CHUNK);
    for (let round = 0; pending.length > 0; round += 1) {
      if (round >= rounds) throw new Error(`BatchWrite left ${pending.length} items unprocessed after retries`);
      if (round > 0) await new Promise((r) => setTimeout(r, 50 * 2 ** round));
      const batch = pending;
      const out = await mapDynamoErrors(() =>
        db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: batch } })),
      );
      pending = (out.UnprocessedItems?.[tableName()] ?? []) as WriteRequest[];
    }
  }
};
