import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../shared/errors';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';
import { company, fnv1a, pad } from './keys';
import { TIMER_SHARDS } from './ticket-repository';
import { queryDueBucket } from './due-index';

/**
 * A queue's rotation (admin §2/§3 `ativarRoteador`, `tempoRoteador`; data-model §2.19, decisions D97): one
 * item per queue, `C#<c>#ROTATION / Q#<pad queueId>`, holding the round-robin pointer (`lastUserId`) and,
 * while the queue has pending tickets to hand out, its next run `nextRunAt` on the due index (gsi4
 * `DUE#ROTATION#<minute>#<s>` → `<pc>#<pq>`). A run claims its due time with a conditional write before it
 * assigns anything, so two ticks (or a redelivery) run it once.
 */
export const rotationKeys = (companyId: number, queueId: number) => ({
  pk: `${company(companyId)}#ROTATION`,
  sk: `Q#${pad(queueId)}`,
});

export const dueRotationPartition = (minute: string, shard: number): string => `DUE#ROTATION#${minute}#${shard}`;

/** The due-index key values of a run at `at`, as the updates' `:g4pk`, `:g4sk`. */
const dueKeyValues = (companyId: number, queueId: number, at: string) => ({
  ':g4pk': dueRotationPartition(at.slice(0, 16), fnv1a(`${companyId}#${queueId}`) % TIMER_SHARDS),
  ':g4sk': `${pad(companyId)}#${pad(queueId)}`,
});

const conditional = async (run: () => Promise<unknown>): Promise<boolean> => {
  try {
    await mapDynamoErrors(run);
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};

/**
 * Makes sure the queue's rotation runs at `at` or earlier: sets the run when none is armed or the armed one
 * is later. Answers whether it wrote.
 */
export const armRotation = (companyId: number, queueId: number, at: string): Promise<boolean> =>
  conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: rotationKeys(companyId, queueId),
        UpdateExpression:
          'SET #type = :type, companyId = :c, queueId = :q, nextRunAt = :at, gsi4pk = :g4pk, gsi4sk = :g4sk',
        ConditionExpression: 'attribute_not_exists(nextRunAt) OR nextRunAt > :at',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ':type': 'ROTATION',
          ':c': companyId,
          ':q': queueId,
          ':at': at,
          ...dueKeyValues(companyId, queueId, at),
        },
      }),
    ),
  );

/** Rotations due in this minute (`yyyy-mm-ddThh:mm`, UTC): every shard, every page. */
export const listDueRotations = async (minute: string): Promise<{ companyId: number; queueId: number; at: string }[]> =>
  (
    await queryDueBucket({
      shards: TIMER_SHARDS,
      partition: (shard) => dueRotationPartition(minute, shard),
      projection: 'companyId, queueId, nextRunAt',
    })
  ).map((i) => ({ companyId: Number(i.companyId), queueId: Number(i.queueId), at: String(i.nextRunAt) }));

/**
 * Claims the run due at `seen` (the key: queue × due time) by moving the next run to `next`; answers the
 * round-robin pointer, or null when another run claimed it (or the rotation was re-armed) meanwhile.
 */
export const claimRotation = async (
  companyId: number,
  queueId: number,
  seen: string,
  next: string,
): Promise<{ lastUserId: number | null } | null> => {
  try {
    const out = await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: rotationKeys(companyId, queueId),
          UpdateExpression: 'SET nextRunAt = :next, gsi4pk = :g4pk, gsi4sk = :g4sk',
          ConditionExpression: 'nextRunAt = :seen',
          ExpressionAttributeValues: { ':seen': seen, ':next': next, ...dueKeyValues(companyId, queueId, next) },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    const last = out.Attributes?.lastUserId;
    return { lastUserId: last === undefined || last === null ? null : Number(last) };
  } catch (err) {
    if (err instanceof Conflict) return null;
    throw err;
  }
};

/**
 * Ends a claimed run: stores the pointer and, when nothing is left to hand out, disarms the rotation —
 * conditional on the claim (`claimed`) still being the armed run, so an arm that came meanwhile stays (the
 * pointer is stored either way).
 */
export const finishRotation = async (
  companyId: number,
  queueId: number,
  claimed: string,
  lastUserId: number | null,
  disarm: boolean,
): Promise<void> => {
  const update = (withCondition: boolean) =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: rotationKeys(companyId, queueId),
        UpdateExpression: `SET lastUserId = :u${withCondition && disarm ? ' REMOVE nextRunAt, gsi4pk, gsi4sk' : ''}`,
        ...(withCondition ? { ConditionExpression: 'nextRunAt = :claimed' } : {}),
        ExpressionAttributeValues: { ':u': lastUserId, ...(withCondition ? { ':claimed': claimed } : {}) },
      }),
    );
  if (!(await conditional(() => update(true)))) await mapDynamoErrors(() => update(false));
};
