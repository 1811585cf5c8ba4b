import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';

/**
 * The due index (gsi4) as every timer reads it (DESIGN §10: timers are due items the minute tick reads with
 * a Query, never a Scan): one time bucket is `shards` partitions, each read to its last page, side by side.
 * Ticket timers, rotations, kanban lanes and scheduled messages each name their partition and the
 * attributes they need; `until` keeps only sort keys up to it (a bucket read before its end).
 */
export const queryDueBucket = async (options: {
  shards: number;
  partition: (shard: number) => string;
  projection: string;
  until?: string;
}): Promise<Record<string, unknown>[]> => {
  const readShard = async (shard: number): Promise<Record<string, unknown>[]> => {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const out = await mapDynamoErrors(() =>
        db().send(
          new QueryCommand({
            TableName: tableName(),
            IndexName: 'gsi4',
            KeyConditionExpression: options.until === undefined ? 'gsi4pk = :pk' : 'gsi4pk = :pk AND gsi4sk <= :until',
            ExpressionAttributeValues: {
              ':pk': options.partition(shard),
              ...(options.until === undefined ? {} : { ':until': options.until }),
            },
            ProjectionExpression: options.projection,
            ...(startKey ? { ExclusiveStartKey: startKey } : {}),
          }),
        ),
      );
      items.push(...(out.Items ?? []));
      startKey = out.LastEvaluatedKey;
    } while (startKey);
    return items;
  };
  return (await Promise.all(Array.from({ length: options.shards }, (_, shard) => readShard(shard)))).flat();
};
