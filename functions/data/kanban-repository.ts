import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../shared/errors';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';
import { company } from './keys';
import {
  dueLanePartition,
  laneDueKeys,
  LANE_SHARDS,
  ticketTagKeys,
  ticketTagPartition,
  type LaneEntryState,
} from './ticket-tag-repository';
import { queryDueBucket } from './due-index';

/**
 * The kanban board's reads and the lane timers' due items (docs/data-model.md §2.13, §2.29; decisions
 * D101, D102). A lane is a kanban tag; a card in it is the ticket's link `C#<c>#T#<ticketId> / TAG#<tagId>`
 * (gsi5 `C#<c>#TAGT#<tagId>` → `<ticket createdAt>#<ticketId>`). A lane entry with work left (its greeting,
 * its time running out) sits on gsi4 `DUE#LANE#<minute>#<s>` → `<pc>#<ticketId>` until the lane tick does it.
 */

/** Tickets created in [from, to] that are in a lane (gsi5 `TAGT#<tagId>`), newest first, at most `limit`. */
export const laneTicketIds = async (
  companyId: number,
  tagId: number,
  range: { from: string; to: string },
  limit: number,
): Promise<number[]> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi5',
        KeyConditionExpression: 'gsi5pk = :pk AND gsi5sk BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': ticketTagPartition(companyId, tagId),
          ':from': range.from,
          ':to': `${range.to}~`,
        },
        ScanIndexForward: false,
        ProjectionExpression: 'ticketId',
        Limit: limit,
      }),
    ),
  );
  return (out.Items ?? []).map((i) => Number(i.ticketId));
};

/**
 * Tickets created in [from, to] that are in none of `laneIds` (the default lane): gsi5 `C#<c>#TCREATED`,
 * newest first, filtered on `TRACKING.kanbanTagId`, examining at most `readBudget` items. At most `limit`.
 */
export const laneLessTicketIds = async (
  companyId: number,
  range: { from: string; to: string },
  laneIds: readonly number[],
  limit: number,
  readBudget: number,
): Promise<number[]> => {
  const lanes = laneIds.slice(0, 99);
  const laneValues = Object.fromEntries(lanes.map((id, i) => [`:l${i}`, id]));
  const filter =
    lanes.length === 0
      ? undefined
      : `attribute_not_exists(kanbanTagId) OR attribute_type(kanbanTagId, :null) OR NOT kanbanTagId IN (${lanes.map((_, i) => `:l${i}`).join(', ')})`;
  const ids: number[] = [];
  let examined = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi5',
          KeyConditionExpression: 'gsi5pk = :pk AND gsi5sk BETWEEN :from AND :to',
          ExpressionAttributeValues: {
            ':pk': `${company(companyId)}#TCREATED`,
            ':from': range.from,
            ':to': `${range.to}~`,
            ...(filter ? { ':null': 'NULL', ...laneValues } : {}),
          },
          ...(filter ? { FilterExpression: filter } : {}),
          ScanIndexForward: false,
          ProjectionExpression: 'ticketId',
          Limit: Math.min(readBudget - examined, Math.max(limit - ids.length, 1) * 2),
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    examined += out.ScannedCount ?? 0;
    ids.push(...(out.Items ?? []).map((i) => Number(i.ticketId)));
    startKey = out.LastEvaluatedKey;
  } while (startKey && ids.length < limit && examined < readBudget);
  return ids.slice(0, limit);
};

// ------------------------------------------------------------------ lane timers

/** A lane entry that came due: whose, which lane, and which entry (enteredAt). */
export interface DueLane {
  companyId: number;
  ticketId: number;
  tagId: number;
  enteredAt: string;
  dueAt: string;
}

/** Lane entries due in this minute (`yyyy-mm-ddThh:mm`, UTC): every shard (in parallel), every page. */
export const listDueLanes = async (minute: string): Promise<DueLane[]> =>
  (
    await queryDueBucket({
      shards: LANE_SHARDS,
      partition: (shard) => dueLanePartition(minute, shard),
      projection: 'companyId, ticketId, tagId, enteredAt, dueAt',
    })
  ).map((i) => ({
    companyId: Number(i.companyId),
    ticketId: Number(i.ticketId),
    tagId: Number(i.tagId),
    enteredAt: String(i.enteredAt),
    dueAt: String(i.dueAt),
  }));

/** A ticket's lane link as stored now (consistent), with its entry state; null when gone. */
export const getLaneEntry = async (
  companyId: number,
  ticketId: number,
  tagId: number,
): Promise<LaneEntryState | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new GetCommand({ TableName: tableName(), Key: ticketTagKeys(companyId, ticketId, tagId), ConsistentRead: true }),
    ),
  );
  const item = out.Item;
  if (!item || typeof item.enteredAt !== 'string') return null;
  return {
    enteredAt: item.enteredAt,
    greetPending: item.greetPending === true,
    expiresAt: typeof item.expiresAt === 'string' ? item.expiresAt : null,
  };
};

/**
 * The lane entry's greeting is done: `greetPending` cleared and the due entry re-armed to the lane's end (or
 * removed), conditional on the entry still being the same (`enteredAt`). False when the card moved on.
 */
export const finishLaneGreeting = async (
  companyId: number,
  ticketId: number,
  tagId: number,
  entry: LaneEntryState,
): Promise<boolean> => {
  const due = laneDueKeys(companyId, ticketId, { ...entry, greetPending: false });
  try {
    await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: ticketTagKeys(companyId, ticketId, tagId),
          UpdateExpression: due
            ? 'SET greetPending = :no, gsi4pk = :pk, gsi4sk = :sk, dueAt = :at'
            : 'SET greetPending = :no REMOVE gsi4pk, gsi4sk, dueAt',
          ConditionExpression: 'enteredAt = :entered',
          ExpressionAttributeValues: {
            ':no': false,
            ':entered': entry.enteredAt,
            ...(due ? { ':pk': due.gsi4pk, ':sk': due.gsi4sk, ':at': due.dueAt } : {}),
          },
        }),
      ),
    );
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};

/** The lane entry has nothing left to do (its move happened or has no target): off the due index. */
export const disarmLaneEntry = async (
  companyId: number,
  ticketId: number,
  tagId: number,
  enteredAt: string,
): Promise<void> => {
  try {
    await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: ticketTagKeys(companyId, ticketId, tagId),
          UpdateExpression: 'REMOVE gsi4pk, gsi4sk, dueAt',
          ConditionExpression: 'enteredAt = :entered',
          ExpressionAttributeValues: { ':entered': enteredAt },
        }),
      ),
    );
  } catch (err) {
    if (!(err instanceof Conflict)) throw err;
  }
};
