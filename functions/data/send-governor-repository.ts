import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../shared/errors';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';
import { company, pad } from './keys';

/**
 * The send governor's state (docs/data-model.md §2.31; decisions D117): one item per connection,
 * `pk = C#<c>#GOVERNOR, sk = W#<pad whatsappId>`, holding when the next automatic send may go
 * (`nextAt`, epoch ms), how many went since the last longer pause (`streak`), and the day's count on the
 * company's clock (`day`, `dayCount`). Every reservation is a read and a Put conditional on the `version`
 * it read, so two Lambdas never take the same slot: the loser reads again and takes the next one.
 */
export interface GovernorState {
  nextAt: number;
  streak: number;
  /** Local date (`YYYY-MM-DD`) `dayCount` counts. */
  day: string;
  dayCount: number;
  version: number;
}

export const governorKeys = (companyId: number, whatsappId: number) => ({
  pk: `${company(companyId)}#GOVERNOR`,
  sk: `W#${pad(whatsappId)}`,
});

export const EMPTY_GOVERNOR: GovernorState = { nextAt: 0, streak: 0, day: '', dayCount: 0, version: 0 };

export const getGovernorState = async (companyId: number, whatsappId: number): Promise<GovernorState> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new GetCommand({ TableName: tableName(), Key: governorKeys(companyId, whatsappId), ConsistentRead: true }),
    ),
  );
  const i = out.Item;
  if (!i) return EMPTY_GOVERNOR;
  return {
    nextAt: Number(i.nextAt ?? 0),
    streak: Number(i.streak ?? 0),
    day: String(i.day ?? ''),
    dayCount: Number(i.dayCount ?? 0),
    version: Number(i.version ?? 0),
  };
};

/** Writes the next state if the item is still at `seen.version`; Conflict (ERR_CONFLICT) otherwise. */
export const saveGovernorState = async (
  companyId: number,
  whatsappId: number,
  seen: GovernorState,
  next: Omit<GovernorState, 'version'>,
): Promise<void> => {
  await mapDynamoErrors(
    () =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...governorKeys(companyId, whatsappId),
            type: 'GOVERNOR',
            companyId,
            whatsappId,
            ...next,
            version: seen.version + 1,
          },
          ConditionExpression: seen.version === 0 ? 'attribute_not_exists(pk)' : 'version = :v',
          ...(seen.version === 0 ? {} : { ExpressionAttributeValues: { ':v': seen.version } }),
        }),
      ),
    () => new Conflict('ERR_CONFLICT', 'The send slot was taken meanwhile'),
  );
};
