import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';
import { company } from './keys';

/**
 * Atomic counters for the numeric ids the product shows ("Ticket nº 42"). One item per (scope, entity);
 * `ADD` is atomic, so parallel callers always get distinct, gap-free-at-issue ids.
 * Keys: per company `pk = C#<companyId>#COUNTER, sk = <entity>`; platform-wide `pk = COUNTER, sk = <entity>`.
 */
export const counterKeys = (companyId: number | null, entity: string) => ({
  pk: companyId === null ? 'COUNTER' : `${company(companyId)}#COUNTER`,
  sk: entity,
});

export const nextId = async (companyId: number | null, entity: string, by = 1): Promise<number> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: counterKeys(companyId, entity),
        UpdateExpression: 'ADD #v :by',
        ExpressionAttributeNames: { '#v': 'value' },
        ExpressionAttributeValues: { ':by': by },
        ReturnValues: 'UPDATED_NEW',
      }),
    ),
  );
  return Number(out.Attributes?.value);
};
