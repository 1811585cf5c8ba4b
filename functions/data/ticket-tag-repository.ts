import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '../shared/errors';
import { db, tableName } from './client';
import { transactWrite } from './transactions';
import { mapDynamoErrors } from './errors';
import { company, pad } from './keys';
import { tagKeys, type Tag } from './tag-repository';
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

const linkItem = (ticket: Ticket, tag: Pick<Tag, 'id' | 'kanban'>) => ({
  ...ticketTagKeys(ticket.companyId, ticket.id, tag.id),
  gsi5pk: ticketTagPartition(ticket.companyId, tag.id),
  gsi5sk: `${ticket.createdAt}#${pad(ticket.id)}`,
  type: 'TICKET_TAG',
  companyId: ticket.companyId,
  ticketId: ticket.id,
  tagId: tag.id,
  kanban: tag.kanban,
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
export const addTicketTag = async (ticket: TaggedTicket, tag: Tag): Promise<TaggedTicket> => {
  const seen = ticket.tagIds ?? [];
  if (seen.includes(tag.id)) return ticket;
  const { companyId, id } = ticket;
  const previousLane = tag.kanban === 1 ? (ticket.kanbanTagId ?? null) : null;
  const tagIds = [...seen.filter((t) => t !== previousLane), tag.id];
  const condition = tagIdsAsRead(seen);
  const kanbanSet = tag.kanban === 1 ? ', kanbanTagId = :lane' : '';
  await transactWrite(
    [
      {
        ConditionCheck: {
          Key: tagKeys(companyId, tag.id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      { Put: { Item: linkItem(ticket, tag) } },
      ...(previousLane !== null && previousLane !== tag.id
        ? [{ Delete: { Key: ticketTagKeys(companyId, id, previousLane) } }]
        : []),
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
  await transactWrite(
    [
      ...seen.map((tagId) => ({ Delete: { Key: ticketTagKeys(companyId, id, tagId) } })),
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
