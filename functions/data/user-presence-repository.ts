import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../shared/errors';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';
import { userKeys } from './user-repository';

/**
 * Presence: the browser sends `userStatus` every 5 minutes (spec §9: 300000 ms) while a user is signed
 * in. We store when we last heard from them; "online" is derived (heard within PRESENCE_WINDOW_MS), so a
 * closed laptop turns offline by itself instead of leaving a stale flag
 * (docs/decisions/D16-websocket-rooms-presence.md).
 */
export const PRESENCE_WINDOW_MS = 6 * 60 * 1000;

export const isOnline = (lastSeenAt: string | null | undefined, now = Date.now()): boolean =>
  lastSeenAt !== null && lastSeenAt !== undefined && now - Date.parse(lastSeenAt) <= PRESENCE_WINDOW_MS;

/** Records that the user is present; false when the user no longer exists. */
export const touchPresence = async (companyId: number, userId: number, now = new Date()): Promise<boolean> => {
  try {
    await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: userKeys(companyId, userId),
          UpdateExpression: 'SET lastSeenAt = :now',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':now': now.toISOString() },
        }),
      ),
    );
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};
