import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../shared/errors';
import { db, tableName } from './client';
import { transactWrite } from './transactions';
import { mapDynamoErrors } from './errors';
import { emailKeys, userKeys } from './user-repository';

/**
 * Password-reset codes (docs/data-model.md §2.7): one item per e-mail beside the e-mail guard,
 * `pk = EMAIL#<sha256(lower-cased e-mail)>, sk = RESET`, so a new code replaces the previous one (only the
 * latest is valid). The code itself is never stored: `codeHash` is an HMAC keyed by the app secret
 * (functions/core/auth/password-reset-service.ts). `attempts` counts checks of the code; `ttl` sweeps the
 * item eventually, and every read condition also compares it with now, since the sweep runs late.
 */
export interface ResetCodeRecord {
  companyId: number;
  userId: number;
  codeHash: string;
  /** Checks made against this code so far (right or wrong). */
  attempts: number;
  expiresAt: string;
}

export const resetCodeKeys = (email: string) => ({ pk: emailKeys(email).pk, sk: 'RESET' });

const epochSeconds = (iso: string): number => Math.ceil(Date.parse(iso) / 1000);

const toRecord = (item: Record<string, unknown>): ResetCodeRecord => ({
  companyId: Number(item.companyId),
  userId: Number(item.userId),
  codeHash: String(item.codeHash),
  attempts: Number(item.attempts ?? 0),
  expiresAt: String(item.expiresAt),
});

/** Stores a new code for the e-mail, replacing any earlier one. */
export const saveResetCode = async (
  email: string,
  record: Omit<ResetCodeRecord, 'attempts'> & { attempts?: number },
): Promise<void> => {
  await mapDynamoErrors(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...resetCodeKeys(email),
          type: 'RESET',
          companyId: record.companyId,
          userId: record.userId,
          codeHash: record.codeHash,
          attempts: record.attempts ?? 0,
          expiresAt: record.expiresAt,
          ttl: epochSeconds(record.expiresAt),
        },
      }),
    ),
  );
};

/** The stored code item (consistent read), or null. For checks and tests; the reset itself uses takeResetAttempt. */
export const getResetCode = async (email: string): Promise<ResetCodeRecord | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: resetCodeKeys(email), ConsistentRead: true })),
  );
  return out.Item ? toRecord(out.Item) : null;
};

/**
 * Counts one check of the e-mail's code before the code is compared, in one conditional write: only while
 * the code exists, has not expired and has checks left. So parallel guesses can never make more than
 * `maxAttempts` comparisons against one code. Null when there is no usable code.
 */
export const takeResetAttempt = async (
  email: string,
  maxAttempts: number,
  now = new Date(),
): Promise<ResetCodeRecord | null> => {
  try {
    const out = await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: resetCodeKeys(email),
          UpdateExpression: 'ADD attempts :one',
          ConditionExpression: 'attribute_exists(pk) AND attempts < :max AND #ttl > :now',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':one': 1, ':max': maxAttempts, ':now': Math.floor(now.getTime() / 1000) },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return out.Attributes ? toRecord(out.Attributes) : null;
  } catch (err) {
    if (err instanceof Conflict) return null;
    throw err;
  }
};

/** Deletes the e-mail's code if it is still the one with this hash (a newer code is left alone). */
export const deleteResetCode = async (email: string, codeHash: string): Promise<void> => {
  try {
    await mapDynamoErrors(() =>
      db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: resetCodeKeys(email),
          ConditionExpression: 'codeHash = :h',
          ExpressionAttributeValues: { ':h': codeHash },
        }),
      ),
    );
  } catch (err) {
    if (!(err instanceof Conflict)) throw err;
  }
};

/**
 * The reset, all or nothing: the code is consumed (only if it is still the e-mail's latest), the e-mail
 * still belongs to the user the code was issued for, and the user gets the new password hash and loses
 * its session (every access and refresh token of it stops working, D18). `updatedAt` moves, so a user
 * edit that read the user before the reset fails its optimistic check instead of writing the old hash
 * back. False when a condition failed (code replaced or used meanwhile, user gone, e-mail moved).
 */
export const completePasswordReset = async (
  email: string,
  record: Pick<ResetCodeRecord, 'companyId' | 'userId' | 'codeHash'>,
  passwordHash: string,
): Promise<boolean> => {
  try {
    await transactWrite([
      {
        Delete: {
          Key: resetCodeKeys(email),
          ConditionExpression: 'codeHash = :h',
          ExpressionAttributeValues: { ':h': record.codeHash },
        },
      },
      {
        ConditionCheck: {
          Key: emailKeys(email),
          ConditionExpression: 'companyId = :c AND userId = :u',
          ExpressionAttributeValues: { ':c': record.companyId, ':u': record.userId },
        },
      },
      {
        Update: {
          Key: userKeys(record.companyId, record.userId),
          UpdateExpression: 'SET passwordHash = :p, updatedAt = :now REMOVE sessionId',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':p': passwordHash, ':now': new Date().toISOString() },
        },
      },
    ]);
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};
