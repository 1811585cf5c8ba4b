import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../shared/errors';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';
import { company } from './keys';
import { factsOfTracking, statsUpdates, storedTimeZone } from './ticket-stats';
import { transactWrite } from './transactions';

/**
 * The backfill of the dashboard counters for tickets made before they were recorded (decisions D108):
 * walks a company's tickets in creation order (gsi5 `C#<c>#TCREATED`) from a saved position and counts each
 * TRACKING item without `statsDay` in one transaction conditioned on `attribute_not_exists(statsDay)` —
 * so a ticket is counted once whether the backfill, a rerun after a crash, or a transition gets there first.
 * Progress lives in `C#<c>#STATS#BACKFILL / STATE` (`after`, `done`).
 */
const stateKeys = (companyId: number) => ({ pk: `${company(companyId)}#STATS#BACKFILL`, sk: 'STATE' });

/** Company ids on the platform listing (gsi1 `COMPANIES`), a page at a time. */
export const listCompanyIds = async (): Promise<number[]> => {
  const ids: number[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': 'COMPANIES' },
          ProjectionExpression: 'id',
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    ids.push(...(out.Items ?? []).map((i) => Number(i.id)));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return ids;
};

export const getBackfillState = async (companyId: number): Promise<{ after?: string; done: boolean }> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: stateKeys(companyId), ConsistentRead: true })),
  );
  return { ...(out.Item?.after ? { after: String(out.Item.after) } : {}), done: out.Item?.done === true };
};

const saveState = async (companyId: number, state: { after?: string; done: boolean }) => {
  await mapDynamoErrors(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...stateKeys(companyId), type: 'STATS_BACKFILL', companyId, ...state },
      }),
    ),
  );
};

/**
 * Counts up to `maxItems` more of a company's uncounted tickets; true when the company is done. O(items
 * walked); each counted ticket is one transaction of at most four items.
 */
export const backfillCompanyStats = async (companyId: number, maxItems = 500): Promise<boolean> => {
  const state = await getBackfillState(companyId);
  if (state.done) return true;
  const zone = await storedTimeZone(companyId);
  let after = state.after;
  let walked = 0;
  while (walked < maxItems) {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi5',
          KeyConditionExpression: after ? 'gsi5pk = :pk AND gsi5sk > :after' : 'gsi5pk = :pk',
          ExpressionAttributeValues: { ':pk': `${company(companyId)}#TCREATED`, ...(after ? { ':after': after } : {}) },
          Limit: 100,
        }),
      ),
    );
    for (const item of out.Items ?? []) {
      if (item.type === 'TRACKING' && typeof item.statsDay !== 'string') {
        const facts = factsOfTracking(item, zone);
        try {
          await transactWrite([
            {
              Update: {
                Key: { pk: String(item.pk), sk: 'TRACKING' },
                UpdateExpression: 'SET statsDay = :day, statsHour = :hour',
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(statsDay)',
                ExpressionAttributeValues: { ':day': facts.day, ':hour': facts.hour },
              },
            },
            ...statsUpdates(companyId, null, facts),
          ]);
        } catch (err) {
          // Counted meanwhile (or deleted): nothing to add.
          if (!(err instanceof Conflict)) throw err;
        }
      }
      after = String(item.gsi5sk);
      walked += 1;
    }
    if (!out.LastEvaluatedKey) {
      await saveState(companyId, { ...(after ? { after } : {}), done: true });
      return true;
    }
  }
  await saveState(companyId, { ...(after ? { after } : {}), done: false });
  return false;
};
