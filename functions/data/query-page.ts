import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { decodeCursor, encodeCursor } from './cursor';
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
  /** The partition to read (value of `pk`, or of the index's partition key). */
  partition: string;
  /** Only sort keys that start with this (name search). */
  sortPrefix?: string | undefined;
  limit: number;
  cursor?: string | undefined;
  /** Newest/greatest first. */
  descending?: boolean;
  /** A FilterExpression over non-key attributes, with its own names and values. */
  filter?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
  /**
   * Most items one request may examine (DynamoDB counts filtered-out items too). Defaults to 8 × limit
   * (docs/data-model.md §1.7): a selective filter answers a short page with `hasMore` rather than walking
   * the whole partition.
   */
  readBudget?: number;
}

/** Greater than any string DynamoDB can hold after a prefix (UTF-8 of U+10FFFF sorts last). */
const MAX_SUFFIX = '\u{10FFFF}';

const keyNamesOf = (index?: IndexName): { pk: string; sk: string } => {
  if (!index) return { pk: TABLE.partitionKey, sk: TABLE.sortKey };
  const gsi = TABLE.globalSecondaryIndexes.find((g) => g.name === index);
  if (!gsi) throw new Error(`unknown index ${index}`);
  return { pk: gsi.partitionKey, sk: gsi.sortKey };
};

/**
 * The sort-key condition for "items after `boundary` (exclusive), within the prefix". A cursor is a
 * position in the sort order expressed as a key condition, not an ExclusiveStartKey, so every page —
 * the thousandth as much as the first — starts with a seek on the index (data-model §1.7). Sort keys are
 * unique within a partition (they end in the item's id), so the boundary identifies one item.
 */
const sortCondition = (prefix: string | undefined, boundary: string | undefined, descending: boolean) => {
  const lower = prefix ?? '';
  const upper = prefix === undefined ? undefined : `${prefix}${MAX_SUFFIX}`;
  if (boundary === undefined) {
    return prefix === undefined
      ? null
      : { expression: '#sk BETWEEN :lower AND :upper', values: { ':lower': lower, ':upper': upper }, inclusive: false };
  }
  if (descending) {
    return prefix === undefined
      ? { expression: '#sk < :boundary', values: { ':boundary': boundary }, inclusive: false }
      : {
          expression: '#sk BETWEEN :lower AND :boundary',
          values: { ':lower': lower, ':boundary': boundary },
          inclusive: true,
        };
  }
  return prefix === undefined
    ? { expression: '#sk > :boundary', values: { ':boundary': boundary }, inclusive: false }
    : {
        expression: '#sk BETWEEN :boundary AND :upper',
        values: { ':boundary': boundary, ':upper': upper },
        inclusive: true,
      };
};

/**
 * One page of a Query, costing O(limit): asks for limit + 1 items so `hasMore` is exact. The cursor holds
 * the sort key of the last item returned — or, when a filter's read budget ran out before the page filled,
 * of the last item examined — signed and bound to `scope`.
 */
export const queryPage = async <T = Record<string, unknown>>(input: QueryPageInput): Promise<Page<T>> => {
  const keys = keyNamesOf(input.index);
  const descending = input.descending ?? false;
  const budget = input.readBudget ?? 8 * input.limit;
  let boundary = input.cursor ? String((await decodeCursor(input.scope, input.cursor)).after) : undefined;
  const items: Record<string, unknown>[] = [];
  let examined = 0;
  let more = true;

  while (items.length <= input.limit && more && examined < budget) {
    const sort = sortCondition(input.sortPrefix, boundary, descending);
    const params: QueryCommandInput = {
      TableName: tableName(),
      ...(input.index ? { IndexName: input.index } : {}),
      KeyConditionExpression: sort ? `#pk = :pk AND ${sort.expression}` : '#pk = :pk',
      ExpressionAttributeNames: { '#pk': keys.pk, ...(sort ? { '#sk': keys.sk } : {}), ...input.filter?.names },
      ExpressionAttributeValues: { ':pk': input.partition, ...sort?.values, ...input.filter?.values },
      ...(input.filter ? { FilterExpression: input.filter.expression } : {}),
      ScanIndexForward: !descending,
      // An inclusive (BETWEEN) condition returns the boundary item first: one more slot for it.
      Limit: Math.max(1, Math.min(input.limit + 1 - items.length, budget - examined)) + (sort?.inclusive ? 1 : 0),
    };
    const out = await mapDynamoErrors(() => db().send(new QueryCommand(params)));
    // BETWEEN is inclusive: the boundary item itself was on the previous page.
    items.push(...((out.Items ?? []) as Record<string, unknown>[]).filter((i) => i[keys.sk] !== boundary));
    examined += out.ScannedCount ?? out.Count ?? 0;
    const lastExamined = out.LastEvaluatedKey?.[keys.sk];
    more = lastExamined !== undefined;
    if (more) boundary = String(lastExamined);
  }

  const hasMore = items.length > input.limit || more;
  const pageItems = items.slice(0, input.limit);
  const after = items.length > input.limit ? pageItems[pageItems.length - 1]?.[keys.sk] : boundary;
  return {
    items: pageItems as T[],
    hasMore,
    ...(hasMore && after !== undefined
      ? { nextCursor: await encodeCursor(input.scope, { after: String(after) }) }
      : {}),
  };
};

/**
 * Every item a Query matches, page after page (small partitions: a ticket's messages in tests, a
 * contact's notes or guards, an auth state's keys). Lists a user pages through use `queryPage`.
 */
export const queryAll = async (
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
): Promise<Record<string, unknown>[]> => {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({ ...input, TableName: tableName(), ...(startKey ? { ExclusiveStartKey: startKey } : {}) }),
      ),
    );
    items.push(...(out.Items ?? []));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return items;
};
