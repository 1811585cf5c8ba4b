import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { UserFlag } from '../shared/auth-context';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';
import { userKeys } from './user-repository';

/**
 * Which plain users of a company have a per-user permission switched on (core spec §6), e.g. the
 * `allowConnections` users who see the connections page and its real-time events. One Query of the
 * company's user partition, which is plan-bounded (tens of users), reading only ids.
 */
export const listUserIdsWithFlag = async (companyId: number, flag: UserFlag): Promise<number[]> => {
  const ids: number[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          FilterExpression: '#flag IN (:enabled, :enable, :true)',
          ProjectionExpression: 'id',
          ExpressionAttributeNames: { '#flag': flag },
          ExpressionAttributeValues: {
            ':pk': userKeys(companyId, 0).pk,
            ':enabled': 'enabled',
            ':enable': 'enable',
            ':true': true,
          },
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    ids.push(...(out.Items ?? []).map((i) => Number(i.id)));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return ids;
};
