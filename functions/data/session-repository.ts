import { createHash } from 'node:crypto';
import { BatchGetCommand, DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, Unauthorized } from '../shared/errors';
import { db, tableName } from './client';
import { transactWrite } from './transactions';
import { companyKeys, type Company } from './company-repository';
import { mapDynamoErrors } from './errors';
import { userKeys, type User } from './user-repository';

/**
 * Sessions (docs/data-model.md §2.7). The user's one active session is `sessionId` on the USER item; each
 * refresh token is an item `pk = RT#<sha256(token)>, sk = RT` naming its session (the token family).
 * Ending a session is removing `sessionId` from USER: every refresh token of the family then fails the
 * rotation's ConditionCheck, so nothing has to be enumerated, and the items expire by TTL.
 */
export interface RefreshTokenRecord {
  companyId: number;
  userId: number;
  sessionId: string;
  expiresAt: string;
  usedAt?: string;
  replacedBy?: string;
}

export const refreshTokenHash = (token: string): string => createHash('sha256').update(token).digest('base64url');
export const refreshTokenKeys = (hash: string) => ({ pk: `RT#${hash}`, sk: 'RT' });

const refreshTokenItem = (hash: string, record: RefreshTokenRecord) => ({
  ...refreshTokenKeys(hash),
  ...record,
  ttl: Math.ceil(Date.parse(record.expiresAt) / 1000),
});

/** A stored user with its internal session field (never part of the wire user). */
export type SessionUser = User & { sessionId?: string };

const strip = (item: Record<string, unknown>): Record<string, unknown> => {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, ...rest } = item;
  return rest;
};

/**
 * The user and its company in one strongly consistent BatchGet: the per-request read of the auth hook
 * (a login must be visible to the very next request, and a kicked session must fail at once).
 */
export const getUserAndCompany = async (
  companyId: number,
  userId: number,
): Promise<{ user: SessionUser | null; company: Company | null }> => {
  const uKeys = userKeys(companyId, userId);
  const cKeys = companyKeys(companyId);
  let pending: Record<string, unknown>[] = [uKeys, cKeys];
  const found: Record<string, unknown>[] = [];
  for (let attempt = 0; pending.length > 0 && attempt < 5; attempt += 1) {
    const out = await mapDynamoErrors(() =>
      db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } })),
    );
    found.push(...(out.Responses?.[tableName()] ?? []));
    pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
  }
  const user = found.find((i) => i.pk === uKeys.pk && i.sk === uKeys.sk);
  const company = found.find((i) => i.pk === cKeys.pk && i.sk === cKeys.sk);
  return {
    user: user ? (strip(user) as unknown as SessionUser) : null,
    company: company ? (strip(company) as unknown as Company) : null,
  };
};

/**
 * Starts a new session: the user's `sessionId` changes (which ends any older session) and the first
 * refresh token of the new family is stored, together. `updatedAt` moves too, so a user edit that read the
 * user before the login fails its optimistic check instead of writing the old `sessionId` back.
 */
export const startSession = async (
  user: Pick<User, 'companyId' | 'id'>,
  sessionId: string,
  refreshHash: string,
  expiresAt: string,
): Promise<void> => {
  await transactWrite(
    [
      {
        Update: {
          Key: userKeys(user.companyId, user.id),
          UpdateExpression: 'SET sessionId = :sid, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':sid': sessionId, ':now': new Date().toISOString() },
        },
      },
      {
        Put: {
          Item: refreshTokenItem(refreshHash, {
            companyId: user.companyId,
            userId: user.id,
            sessionId,
            expiresAt,
          }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    () => new Unauthorized('ERR_INVALID_CREDENTIALS', 'Invalid credentials'),
  );
};

export const getRefreshToken = async (hash: string): Promise<RefreshTokenRecord | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: refreshTokenKeys(hash), ConsistentRead: true })),
  );
  if (!out.Item) return null;
  const { pk: _pk, sk: _sk, ttl: _ttl, ...record } = out.Item;
  return record as RefreshTokenRecord;
};

export type RotationOutcome = 'rotated' | 'already-used' | 'session-ended';

/**
 * Rotation, all or nothing: the old token is marked used (only if it was not already, or was used at or
 * after `usedSince` — the reuse grace of D29), the new one is stored, and the session must still be the
 * user's current one.
 */
export const rotateRefreshToken = async (
  oldHash: string,
  old: RefreshTokenRecord,
  newHash: string,
  expiresAt: string,
  usedSince: string,
): Promise<RotationOutcome> => {
  try {
    await transactWrite(
      [
        {
          Update: {
            Key: refreshTokenKeys(oldHash),
            // The first use's time stays: the grace runs from it, not from the latest sibling.
            UpdateExpression: 'SET usedAt = if_not_exists(usedAt, :now), replacedBy = :next',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(usedAt) OR usedAt >= :since)',
            ExpressionAttributeValues: {
              ':now': new Date().toISOString(),
              ':next': newHash,
              ':since': usedSince,
            },
          },
        },
        {
          Put: {
            Item: refreshTokenItem(newHash, {
              companyId: old.companyId,
              userId: old.userId,
              sessionId: old.sessionId,
              expiresAt,
            }),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          ConditionCheck: {
            Key: userKeys(old.companyId, old.userId),
            ConditionExpression: 'sessionId = :sid',
            ExpressionAttributeValues: { ':sid': old.sessionId },
          },
        },
      ],
      (failure) => new Conflict(failure.reasons?.[0] === 'ConditionalCheckFailed' ? 'already-used' : 'session-ended'),
    );
    return 'rotated';
  } catch (err) {
    if (err instanceof Conflict) return err.code as RotationOutcome;
    throw err;
  }
};

/** Ends a session if it is still the user's current one (a newer login is left alone). */
export const endSession = async (companyId: number, userId: number, sessionId: string): Promise<void> => {
  try {
    await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: userKeys(companyId, userId),
          UpdateExpression: 'REMOVE sessionId',
          ConditionExpression: 'sessionId = :sid',
          ExpressionAttributeValues: { ':sid': sessionId },
        }),
      ),
    );
  } catch (err) {
    if (!(err instanceof Conflict)) throw err;
  }
};

export const deleteRefreshToken = async (hash: string): Promise<void> => {
  await mapDynamoErrors(() => db().send(new DeleteCommand({ TableName: tableName(), Key: refreshTokenKeys(hash) })));
};
