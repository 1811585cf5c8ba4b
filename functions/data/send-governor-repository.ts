import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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
  /**
   * The provider rate-limited this connection: no automatic send before this instant (epoch ms, 0 = none;
   * decisions D166). `throttles` counts the reports of the current spell, for the back-off.
   */
  pausedUntil: number;
  throttles: number;
  version: number;
}

export const governorKeys = (companyId: number, whatsappId: number) => ({
  pk: `${company(companyId)}#GOVERNOR`,
  sk: `W#${pad(whatsappId)}`,
});

export const EMPTY_GOVERNOR: GovernorState = {
  nextAt: 0,
  streak: 0,
  day: '',
  dayCount: 0,
  pausedUntil: 0,
  throttles: 0,
  version: 0,
};

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
    pausedUntil: Number(i.pausedUntil ?? 0),
    throttles: Number(i.throttles ?? 0),
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

/**
 * Records a provider rate-limit (decisions D166): `pausedUntil` moves to `until` unless a later pause is
 * already set, `throttles` is the spell's count (restarted by the caller when the last pause is long over),
 * and the version moves on, so a reserver that read the state before this loses its conditional Put and
 * re-reads the pause.
 */
export const savePause = async (
  companyId: number,
  whatsappId: number,
  seen: GovernorState,
  pause: { until: number; throttles: number },
): Promise<void> => {
  await mapDynamoErrors(
    () =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: governorKeys(companyId, whatsappId),
          UpdateExpression:
            'SET #type = :type, companyId = :c, whatsappId = :w, pausedUntil = :until, throttles = :n, version = :next',
          ConditionExpression: seen.version === 0 ? 'attribute_not_exists(pk)' : 'version = :v',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: {
            ':type': 'GOVERNOR',
            ':c': companyId,
            ':w': whatsappId,
            ':until': pause.until,
            ':n': pause.throttles,
            ':next': seen.version + 1,
            ...(seen.version === 0 ? {} : { ':v': seen.version }),
          },
        }),
      ),
    () => new Conflict('ERR_CONFLICT', 'The governor state changed meanwhile'),
  );
};
