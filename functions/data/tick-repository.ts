import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';

/**
 * Tick checkpoints (data-model §1.3 `TICK#<name> / TICK`): the last minute a tick finished, so a tick that
 * did not run for a while (a deploy, an outage) catches up on the minutes it missed instead of skipping
 * their due items.
 */
const tickKeys = (name: string) => ({ pk: `TICK#${name}`, sk: 'TICK' });

export const getTickCheckpoint = async (name: string): Promise<string | null> => {
  const out = await mapDynamoErrors(() => db().send(new GetCommand({ TableName: tableName(), Key: tickKeys(name) })));
  return out.Item ? String(out.Item.lastMinute) : null;
};

export const setTickCheckpoint = async (name: string, lastMinute: string): Promise<void> => {
  await mapDynamoErrors(() =>
    db().send(new PutCommand({ TableName: tableName(), Item: { ...tickKeys(name), type: 'TICK', lastMinute } })),
  );
};
