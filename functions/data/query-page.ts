import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { decodeCursor, encodeCursor, type Key } from './cursor';
import { mapDynamoErrors } from './errors';
import { TABLE, type IndexName } from './table-definition';

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  /** Pass back as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
}

export interface QueryPageInput {
  /** Binds cursors to this list (include the company and any filter that changes the key range). */
  scope: string;
  index?: IndexName;
  keyCondition: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
  limit: number;
  cursor?: string | undefined;
  /** Newest/greatest first. */
  descending?: boolean;
  filter?: string;
  /**
   * Most items one request may examine (DynamoDB counts filtered-out items too). Defaults to 8 × limit
   * (docs/data-model.md §1.7): a selective filter answers a short page with `hasMore` rather than walking
   * the whole partition.
   */
  readBudget?: number;
}

const keyAttributesOf = (index?: IndexName): string[] => {
  const base = [TABLE.partitionKey, TABLE.sortKey];
  if (!index) return base;
  const gsi = TABLE.globalSecondaryIndexes.find((g) => g.name === index);
  if (!gsi) throw new Error(`unknown index ${index}`);
  return [...base, gsi.partitionKey, gsi.sortKey];
};

const keyOf = (item: Record<string, unknown>, attributes: string[]): Key => {
  const key: Key = {};
  for (const a of attributes) {
    const v = item[a];
    if (typeof v === 'string' || typeof v === 'number') key[a] = v;
  }
  return key;
};

/**
 * One page of a Query, costing O(limit): asks for limit + 1 items so `hasMore` is exact, and hands out
 * a signed cursor made from the last returned item's keys. With a filter DynamoDB may return fewer items
 * than it examined; the loop goes on while the page is short, the partition has more and the read budget
 * lasts. When the budget runs out first, the page may be short and the cursor points at the last
 * examined key, so the next request continues where this one stopped.
 */
export const queryPage = async <T = Record<string, unknown>>(input: QueryPageInput): Promise<Page<T>> => {
  const attributes = keyAttributesOf(input.index);
  const budget = input.readBudget ?? 8 * input.limit;
  let startKey: Key | undefined = input.cursor ? await decodeCursor(input.scope, input.cursor) : undefined;
  const items: Record<string, unknown>[] = [];
  let examined = 0;
  do {
    const params: QueryCommandInput = {
      TableName: tableName(),
      ...(input.index ? { IndexName: input.index } : {}),
      KeyConditionExpression: input.keyCondition,
      ExpressionAttributeNames: input.names,
      ExpressionAttributeValues: input.values,
      ...(input.filter ? { FilterExpression: input.filter } : {}),
      ScanIndexForward: !input.descending,
      Limit: Math.max(1, Math.min(input.limit + 1 - items.length, budget - examined)),
      ...(startKey ? { ExclusiveStartKey: startKey } : {}),
    };
    const out = await mapDynamoErrors(() => db().send(new QueryCommand(params)));
    items.push(...((out.Items ?? []) as Record<string, unknown>[]));
    examined += out.ScannedCount ?? out.Count ?? 0;
    startKey = out.LastEvaluatedKey as Key | undefined;
  } while (items.length <= input.limit && startKey && examined < budget);

  if (items.length > input.limit) {
    const pageItems = items.slice(0, input.limit);
    const last = pageItems[pageItems.length - 1]!;
    return {
      items: pageItems as T[],
      hasMore: true,
      nextCursor: await encodeCursor(input.scope, keyOf(last, attributes)),
    };
  }
  // The page is short: either the partition is exhausted or the read budget ran out first.
  return {
    items: items as T[],
    hasMore: startKey !== undefined,
    ...(startKey ? { nextCursor: await encodeCursor(input.scope, startKey) } : {}),
  };
};
