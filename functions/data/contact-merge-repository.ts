import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../shared/errors';
import { db, tableName } from './client';
import { transactWrite } from './transactions';
import { contactKeys, contactPartition } from './contact-repository';
import { mapDynamoErrors } from './errors';
import { queryAll } from './query-page';
import { messageHistoryKeys } from './message-repository';
import { noteKeys } from './note-repository';
import { lastTicketKeys, openTicketGuardKeys, ticketKeys, trackingKeys, type Ticket } from './ticket-repository';

/**
 * The writes that move a merged contact's history onto the contact it was folded into (data-model §2.12,
 * decisions D77). Each one is idempotent and conditional on the item still naming the old contact, so a
 * job that stops half-way and runs again picks up where it was, and a ticket an attendant moves meanwhile
 * is read again rather than overwritten.
 */

/** How many message updates run at once. */
const MESSAGE_WRITES_IN_FLIGHT = 8;

/**
 * Points one page (≤ `limit`) of the messages still in `fromId`'s history (gsi3 `C#<c>#CT#<from>#M`) at
 * `intoId`'s, each conditional on still naming the old history. The index is eventually consistent, so a
 * message moved a moment ago may be listed again (its condition fails and it is skipped). Answers how many
 * it listed and moved, and where the next page starts.
 */
export const moveHistoryPage = async (
  companyId: number,
  fromId: number,
  intoId: number,
  startKey: Record<string, unknown> | undefined,
  limit = 200,
): Promise<{ listed: number; moved: number; next: Record<string, unknown> | undefined }> => {
  const oldPk = messageHistoryKeys(companyId, fromId, '').gsi3pk;
  const newPk = messageHistoryKeys(companyId, intoId, '').gsi3pk;
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :old',
        ExpressionAttributeValues: { ':old': oldPk },
        ProjectionExpression: 'pk, sk, gsi3pk, gsi3sk',
        Limit: limit,
        ExclusiveStartKey: startKey,
      }),
    ),
  );
  const keys = (out.Items ?? []).map((i) => ({ pk: String(i.pk), sk: String(i.sk) }));
  let moved = 0;
  for (let i = 0; i < keys.length; i += MESSAGE_WRITES_IN_FLIGHT) {
    await Promise.all(
      keys.slice(i, i + MESSAGE_WRITES_IN_FLIGHT).map(async (key) => {
        try {
          await mapDynamoErrors(() =>
            db().send(
              new UpdateCommand({
                TableName: tableName(),
                Key: key,
                UpdateExpression: 'SET gsi3pk = :new, contactId = :into',
                ConditionExpression: 'gsi3pk = :old',
                ExpressionAttributeValues: { ':new': newPk, ':old': oldPk, ':into': intoId },
              }),
            ),
          );
          moved += 1;
        } catch (err) {
          if (!(err instanceof Conflict)) throw err; // moved by an earlier run, or deleted meanwhile
        }
      }),
    );
  }
  return { listed: keys.length, moved, next: out.LastEvaluatedKey };
};

/** Items of a contact's partition whose sort key starts with `prefix`, all pages. */
const partitionItems = async (
  companyId: number,
  contactId: number,
  prefix: string,
): Promise<Record<string, unknown>[]> =>
  queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': contactPartition(companyId, contactId), ':prefix': prefix },
    ConsistentRead: true,
  });

/** The tickets whose open-ticket guard is in a contact's partition (read consistently), as ids. */
export const listOpenTicketIds = async (companyId: number, contactId: number): Promise<number[]> =>
  (await partitionItems(companyId, contactId, 'OPEN#')).map((i) => Number(i.ticketId));

/** The contact the ticket should move to already has a not-closed ticket on its connection. */
export class TargetHasOpenTicket extends Conflict {
  constructor() {
    super('ERR_OTHER_OPEN_TICKET', 'The contact already has an open ticket on this connection');
  }
}

/**
 * Moves a ticket from `ticket.contactId` to `intoId` in one transaction, conditional on the version read:
 * `TICKET.contactId` (the version moves, so a transition prepared on the old read is refused and read
 * again), `TRACKING.contactId` and its gsi3 key (the contact's tickets) and, for a not-closed ticket, the
 * open-ticket guard (deleted from the old contact, put on the new one only where it has none).
 * `TargetHasOpenTicket` when the new contact already has a not-closed ticket on the connection; a
 * `Conflict` when the ticket changed since it was read.
 */
export const moveTicketToContact = async (ticket: Ticket, intoId: number): Promise<Ticket> => {
  const { companyId, id } = ticket;
  const moved: Ticket = { ...ticket, contactId: intoId, version: ticket.version + 1 };
  const open = ticket.status !== 'closed';
  await transactWrite(
    [
      ...(open
        ? [
            {
              Put: {
                Item: {
                  ...openTicketGuardKeys(companyId, intoId, ticket.whatsappId),
                  type: 'TICKET_OPEN',
                  companyId,
                  ticketId: id,
                },
                ConditionExpression: 'attribute_not_exists(pk) OR ticketId = :id',
                ExpressionAttributeValues: { ':id': id },
              },
            },
            {
              Delete: {
                Key: openTicketGuardKeys(companyId, ticket.contactId, ticket.whatsappId),
                ConditionExpression: 'attribute_not_exists(pk) OR ticketId = :id',
                ExpressionAttributeValues: { ':id': id },
              },
            },
          ]
        : []),
      {
        Update: {
          Key: ticketKeys(companyId, id),
          UpdateExpression: 'SET contactId = :into, version = :next',
          ConditionExpression: 'contactId = :from AND version = :v AND #status = :status',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':into': intoId,
            ':next': moved.version,
            ':from': ticket.contactId,
            ':v': ticket.version,
            ':status': ticket.status,
          },
        },
      },
      {
        Update: {
          Key: trackingKeys(companyId, id),
          UpdateExpression: 'SET contactId = :into, gsi3pk = :g3pk',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: {
            ':into': intoId,
            ':g3pk': `${contactPartition(companyId, intoId)}#T`,
          },
        },
      },
    ],
    (failure) =>
      open && failure.reasons?.[0] === 'ConditionalCheckFailed'
        ? new TargetHasOpenTicket()
        : new Conflict('ERR_CONFLICT', 'The ticket changed meanwhile'),
  );
  return moved;
};

/**
 * The old contact's last closed ticket per connection (`LAST#<w>`) goes to the new contact where it is
 * more recent than the new contact's own (a reopen looks there), then leaves the old partition.
 */
export const moveLastClosedTickets = async (companyId: number, fromId: number, intoId: number): Promise<void> => {
  for (const item of await partitionItems(companyId, fromId, 'LAST#')) {
    const whatsappId = Number(String(item.sk).slice('LAST#'.length));
    try {
      await mapDynamoErrors(() =>
        db().send(
          new PutCommand({
            TableName: tableName(),
            Item: { ...item, ...lastTicketKeys(companyId, intoId, whatsappId) },
            ConditionExpression: 'attribute_not_exists(pk) OR closedAt < :closedAt',
            ExpressionAttributeValues: { ':closedAt': item.closedAt },
          }),
        ),
      );
    } catch (err) {
      if (!(err instanceof Conflict)) throw err; // the new contact's own is more recent
    }
    await mapDynamoErrors(() =>
      db().send(new DeleteCommand({ TableName: tableName(), Key: lastTicketKeys(companyId, fromId, whatsappId) })),
    );
  }
};

/** The old contact's ticket notes move to the new contact's partition (same ULIDs: same order and times). */
export const moveNotes = async (companyId: number, fromId: number, intoId: number): Promise<number> => {
  const notes = await partitionItems(companyId, fromId, 'NOTE#');
  for (const item of notes) {
    const ulid = String(item.sk).slice('NOTE#'.length);
    await transactWrite([
      {
        Put: {
          Item: { ...item, ...noteKeys(companyId, intoId, ulid), contactId: intoId },
        },
      },
      { Delete: { Key: noteKeys(companyId, fromId, ulid) } },
    ]);
  }
  return notes.length;
};

/** The merge of `fromId` into `intoId` is done: the new contact forgets it was pending. */
export const finishContactMerge = async (companyId: number, fromId: number, intoId: number): Promise<void> => {
  await mapDynamoErrors(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: contactKeys(companyId, intoId),
        UpdateExpression: 'DELETE pendingMerges :from',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':from': new Set([fromId]) },
      }),
    ),
  ).catch((err: unknown) => {
    if (!(err instanceof Conflict)) throw err; // the new contact is gone: nothing to clear
  });
};
