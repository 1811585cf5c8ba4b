import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../shared/errors';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';

/**
 * Fixed-window rate limits (docs/data-model.md §2.7): one item per scope, subject and window,
 * `pk = RL#<scope>#<sha256(subject)>, sk = <window start epoch seconds>`, counter `n`, expiring by TTL one
 * minute after the window ends. Taking a slot is one conditional ADD, so parallel requests can never
 * overshoot the limit. The subject (an IP or an e-mail) is hashed: keys surface in AWS diagnostics (D13).
 */
export interface RateLimit {
  /** e.g. `login-ip`, `login-email`. */
  scope: string;
  max: number;
  windowSeconds: number;
}

export interface RateLimitWindow {
  start: number;
  end: number;
}

/** The fixed window `now` falls in (epoch seconds). */
export const rateLimitWindow = (windowSeconds: number, nowMs: number): RateLimitWindow => {
  const start = Math.floor(nowMs / 1000 / windowSeconds) * windowSeconds;
  return { start, end: start + windowSeconds };
};

const subjectHash = (subject: string): string =>
  createHash('sha256').update(subject.trim().toLowerCase()).digest('base64url');

export const rateLimitKeys = (scope: string, subject: string, windowStart: number) => ({
  pk: `RL#${scope}#${subjectHash(subject)}`,
  sk: String(windowStart),
});

export type RateLimitOutcome =
  { allowed: true; window: RateLimitWindow } | { allowed: false; retryAfterSeconds: number };

/** Counts one attempt in the current window, unless the window is already full. */
export const takeRateLimitSlot = async (
  limit: RateLimit,
  subject: string,
  nowMs = Date.now(),
): Promise<RateLimitOutcome> => {
  const window = rateLimitWindow(limit.windowSeconds, nowMs);
  try {
    await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: rateLimitKeys(limit.scope, subject, window.start),
          UpdateExpression: 'ADD n :one SET #ttl = :ttl',
          ConditionExpression: 'attribute_not_exists(n) OR n < :max',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':one': 1, ':max': limit.max, ':ttl': window.end + 60 },
        }),
      ),
    );
    return { allowed: true, window };
  } catch (err) {
    if (!(err instanceof Conflict)) throw err;
    return { allowed: false, retryAfterSeconds: Math.max(1, window.end - Math.floor(nowMs / 1000)) };
  }
};

/** Gives a taken slot back (a successful login does not count against the limit). */
export const returnRateLimitSlot = async (limit: RateLimit, subject: string, window: RateLimitWindow) => {
  try {
    await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: rateLimitKeys(limit.scope, subject, window.start),
          UpdateExpression: 'ADD n :minus',
          ConditionExpression: 'n > :zero',
          ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
        }),
      ),
    );
  } catch (err) {
    if (!(err instanceof Conflict)) throw err;
  }
};
