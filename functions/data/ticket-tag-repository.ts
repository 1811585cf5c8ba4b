import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '../shared/errors';
import { db, tableName } from './client';
import { transactWrite } from './transactions';
import { mapDynamoErrors } from './errors';
import { company, fnv1a, pad } from './keys';
import { getTags, tagKeys, type Tag } from './tag-repository';
import { ticketKeys, ticketPartition, trackingKeys, type Ticket } from './ticket-repository';

/**
 * Ticket tags (docs/data-model.md §2.13, §3.3; decisions D55): a link `TAG#<pad tagId>` in the ticket's
 * partition, listed per tag on gsi5 `C#<c>#TAGT#<pad tagId>` → `<ticket createdAt>#<pad ticketId>` (the
 * kanban lane), and `TICKET.tagIds` (what the ticket's wire `tags` show) plus `TICKET.kanbanTagId` /
 * `TRACKING.kanbanTagId` (the one kanban lane a ticket is in), changed together in one transaction.
 *
 * `TICKET.tagIds` is the source of truth the services read (a consistent Get of the ticket); every write is
 * conditional on it being as read, so two attendants tagging one ticket at once never lose a tag (the
 * loser gets ERR_CONFLICT and the service retries with a fresh read). The ticket's `version` is not
 * touched: tags are not a status transition and must not fail a concurrent accept or transfer.
 */
export const ticketTagKeys = (companyId: number, ticketId: number, tagId: number) => ({
  pk: ticketPartition(companyId, ticketId),
  sk: `TAG#${pad(tagId)}`,
});
export const ticketTagPartition = (companyId: number, tagId: number): string =>
  `${company(companyId)}#TAGT#${pad(tagId)}`;

export type TaggedTicket = Ticket & { kanbanTagId?: number | null };

// ------------------------------------------------------------------ lane timers (decisions D102)

/** Due-lane shards (data-model §1.5 gsi4): the lane tick reads all of them. */
export const LANE_SHARDS = 8;
export const dueLanePartition = (minute: string, shard: number): string => `DUE#LANE#${minute}#${shard}`;

/** What the lane tick must still do for one lane entry, if anything, and when. */
export interface LaneEntryState {
  /** When the card entered the lane: names this entry (the idempotency key of its greeting and its move). */
  enteredAt: string;
  /** The lane's greeting is still to be sent. */
  greetPending: boolean;
  /** When the lane's time runs out (enteredAt + timeLane hours), if the lane has a time. */
  expiresAt: string | null;
}

/** The gsi4 keys of a lane entry's next due work (the greeting now, else the lane's end), or none. */
export const laneDueKeys = (companyId: number, ticketId: number, state: LaneEntryState) => {
  const at = state.greetPending ? state.enteredAt : state.expiresAt;
  if (at === null) return null;
  return {
    gsi4pk: dueLanePartition(at.slice(0, 16), fnv1a(`${companyId}#${ticketId}`) % LANE_SHARDS),
    gsi4sk: `${pad(companyId)}#${pad(ticketId)}`,
    dueAt: at,
  };
};

const laneEntry = (tag: Pick<Tag, 'timeLane' | 'greetingMessageLane'>, enteredAt: string): LaneEntryState => ({
  enteredAt,
  greetPending: tag.greetingMessageLane.trim() !== '',
  expiresAt:
    tag.timeLane !== null && tag.timeLane > 0
      ? new Date(Date.parse(enteredAt) + tag.timeLane * 3_600_000).toISOString()
      : null,
});

const linkItem = (
  ticket: Ticket,
  tag: Pick<Tag, 'id' | 'kanban' | 'timeLane' | 'greetingMessageLane'>,
  enteredAt: string,
) => {
  const lane = tag.kanban === 1 ? laneEntry(tag, enteredAt) : null;
  const due = lane ? laneDueKeys(ticket.companyId, ticket.id, lane) : null;
  return {
    ...ticketTagKeys(ticket.companyId, ticket.id, tag.id),
    gsi5pk: ticketTagPartition(ticket.companyId, tag.id),
    gsi5sk: `${ticket.createdAt}#${pad(ticket.id)}`,
    type: 'TICKET_TAG',
    companyId: ticket.companyId,
    ticketId: ticket.id,
    tagId: tag.id,
    kanban: tag.kanban,
    ...(lane ? { enteredAt: lane.enteredAt, greetPending: lane.greetPending, expiresAt: lane.expiresAt } : {}),
    ...(due ?? {}),
  };
};

/** A tag's ticket count moves with each link (decisions D100); a deleted tag is left alone. */
const countTicket = (companyId: number, tagId: number, by: 1 | -1) => ({
  Update: {
    Key: tagKeys(companyId, tagId),
    UpdateExpression: 'ADD ticketCount :by',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':by': by },
  },
});

/** `tagIds` is still what the caller read (an absent list counts as empty). */
const tagIdsAsRead = (seen: readonly number[]) =>
  seen.length === 0
    ? { expression: '(attribute_not_exists(tagIds) OR size(tagIds) = :zero)', values: { ':zero': 0 } }
    : { expression: 'tagIds = :seen', values: { ':seen': [...seen] } };

const changedMeanwhile = () => new Conflict('ERR_CONFLICT', 'The ticket changed meanwhile, reload it');

/**
 * Adds a tag to a ticket (`PUT /ticket-tags/{ticketId}/{tagId}`). A kanban tag moves the ticket's card:
 * the link of its previous kanban lane is removed in the same transaction, so a ticket is in at most one
 * lane. Answers the ticket as stored afterwards (unchanged when it already had the tag).
 * 404 ERR_NO_TAG_FOUND when the tag was deleted meanwhile; 409 ERR_CONFLICT when the tags changed.
 */
export const addTicketTag = async (
  ticket: TaggedTicket,
  tag: Tag,
  /** The lane entry the move ends (the lane timer's move): refused when the card left it meanwhile. */
  fromEntry?: { tagId: number; enteredAt: string },
): Promise<TaggedTicket> => {
  const seen = ticket.tagIds ?? [];
  if (seen.includes(tag.id)) return ticket;
  const { companyId, id } = ticket;
  const previousLane = tag.kanban === 1 ? (ticket.kanbanTagId ?? null) : null;
  const tagIds = [...seen.filter((t) => t !== previousLane), tag.id];
  const condition = tagIdsAsRead(seen);
  const kanbanSet = tag.kanban === 1 ? ', kanbanTagId = :lane' : '';
  const leaving = previousLane !== null && previousLane !== tag.id ? previousLane : null;
  const leavingLive = leaving !== null && (await getTags(companyId, [leaving])).length > 0;
  await transactWrite(
    [
      countTicket(companyId, tag.id, 1),
      { Put: { Item: linkItem(ticket, tag, new Date().toISOString()) } },
      ...(leaving !== null
        ? [
            {
              Delete: {
                Key: ticketTagKeys(companyId, id, leaving),
                ...(fromEntry && fromEntry.tagId === leaving
                  ? {
                      ConditionExpression: 'enteredAt = :entered',
                      ExpressionAttributeValues: { ':entered': fromEntry.enteredAt },
                    }
                  : {}),
              },
            },
          ]
        : []),
      ...(leavingLive ? [countTicket(companyId, leaving, -1)] : []),
      {
        Update: {
          Key: ticketKeys(companyId, id),
          UpdateExpression: `SET tagIds = :tags${kanbanSet}`,
          ConditionExpression: `attribute_exists(pk) AND ${condition.expression}`,
          ExpressionAttributeValues: {
            ':tags': tagIds,
            ...condition.values,
            ...(tag.kanban === 1 ? { ':lane': tag.id } : {}),
          },
        },
      },
      ...(tag.kanban === 1
        ? [
            {
              Update: {
                Key: trackingKeys(companyId, id),
                UpdateExpression: 'SET kanbanTagId = :lane',
                ExpressionAttributeValues: { ':lane': tag.id },
              },
            },
          ]
        : []),
    ],
    (failure) =>
      failure.reasons?.[0] === 'ConditionalCheckFailed'
        ? new NotFound('ERR_NO_TAG_FOUND', 'Tag not found')
        : changedMeanwhile(),
  );
  return { ...ticket, tagIds, ...(tag.kanban === 1 ? { kanbanTagId: tag.id } : {}) };
};

/**
 * Removes every tag of a ticket (`DELETE /ticket-tags/{ticketId}`; the kanban's drag first clears the
 * card's lane): the links of `TICKET.tagIds` as read, the list emptied and the lane cleared, in one
 * transaction conditional on the list being as read. Answers the ticket as stored afterwards.
 */
export const removeTicketTags = async (ticket: TaggedTicket): Promise<TaggedTicket> => {
  const seen = ticket.tagIds ?? [];
  if (seen.length === 0 && (ticket.kanbanTagId ?? null) === null) return ticket;
  const { companyId, id } = ticket;
  const condition = tagIdsAsRead(seen);
  const live = (await getTags(companyId, seen)).map((t) => t.id);
  await transactWrite(
    [
      ...seen.map((tagId) => ({ Delete: { Key: ticketTagKeys(companyId, id, tagId) } })),
      ...live.map((tagId) => countTicket(companyId, tagId, -1)),
      {
        Update: {
          Key: ticketKeys(companyId, id),
          UpdateExpression: 'SET tagIds = :none REMOVE kanbanTagId',
          ConditionExpression: `attribute_exists(pk) AND ${condition.expression}`,
          ExpressionAttributeValues: { ':none': [], ...condition.values },
        },
      },
      {
        Update: {
          Key: trackingKeys(companyId, id),
          UpdateExpression: 'REMOVE kanbanTagId',
        },
      },
    ],
    changedMeanwhile,
  );
  const { kanbanTagId: _lane, ...rest } = ticket;
  return { ...rest, tagIds: [] };
};

/**
 * Removes one tag from a ticket: its link, its id from `TICKET.tagIds` and, when it is the ticket's lane,
 * the lane (`kanbanTagId`) — the kanban's move to the default lane, and the deleted tag's cleanup. One
 * transaction conditional on `tagIds` as read; a tag the ticket does not have only loses a stray link.
 */
export const removeTicketTag = async (ticket: TaggedTicket, tagId: number): Promise<TaggedTicket> => {
  const seen = ticket.tagIds ?? [];
  const { companyId, id } = ticket;
  const isLane = (ticket.kanbanTagId ?? null) === tagId;
  if (!seen.includes(tagId) && !isLane) {
    await mapDynamoErrors(() =>
      db().send(new DeleteCommand({ TableName: tableName(), Key: ticketTagKeys(companyId, id, tagId) })),
    );
    return ticket;
  }
  const tagIds = seen.filter((t) => t !== tagId);
  const condition = tagIdsAsRead(seen);
  const live = (await getTags(companyId, [tagId])).length > 0;
  await transactWrite(
    [
      { Delete: { Key: ticketTagKeys(companyId, id, tagId) } },
      ...(live && seen.includes(tagId) ? [countTicket(companyId, tagId, -1)] : []),
      {
        Update: {
          Key: ticketKeys(companyId, id),
          UpdateExpression: `SET tagIds = :tags${isLane ? ' REMOVE kanbanTagId' : ''}`,
          ConditionExpression: `attribute_exists(pk) AND ${condition.expression}`,
          ExpressionAttributeValues: { ':tags': tagIds, ...condition.values },
        },
      },
      ...(isLane ? [{ Update: { Key: trackingKeys(companyId, id), UpdateExpression: 'REMOVE kanbanTagId' } }] : []),
    ],
    changedMeanwhile,
  );
  if (!isLane) return { ...ticket, tagIds };
  const { kanbanTagId: _lane, ...rest } = ticket;
  return { ...rest, tagIds };
};

/** The ticket ids of a tag's links, newest ticket first (the kanban lane; gsi5, eventually consistent). */
export const listTicketIdsOfTag = async (companyId: number, tagId: number, limit = 100): Promise<number[]> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi5',
        KeyConditionExpression: 'gsi5pk = :pk',
        ExpressionAttributeValues: { ':pk': ticketTagPartition(companyId, tagId) },
        ScanIndexForward: false,
        Limit: limit,
      }),
    ),
  );
  return (out.Items ?? []).map((i) => Number(i.ticketId));
};
