import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../core/errors';
import type { TicketStatus } from '../core/tickets/visibility';
import { db, tableName } from './client';
import { contactPartition } from './contact-repository';
import { nextId } from './counter-repository';
import { mapDynamoErrors } from './errors';
import { company, pad } from './keys';
import { newUlid } from './ulids';

/**
 * Ticket (docs/data-model.md §2.14, §2.15). A ticket is the partition `C#<c>#T#<pad id>` holding:
 * - `TICKET`: the live state lists show, rewritten by every message; on gsi1 (queue lists)
 *   `C#<c>#TQ#<pad queueId or 0>#<status>` → `<updatedAt>#<pad id>` and, when assigned, on gsi2
 *   `C#<c>#TU#<pad userId>#<status>` → the same sort key;
 * - `TRACKING`: the history record (contact's tickets on gsi3, creation order on gsi5), written by
 *   transitions only;
 * - `LOG#<ulid>`: the ticket log;
 * - messages `MSG#<ulid>` (message-repository.ts).
 * Plus `C#<c>#TUUID#<uuid> / TUUID` for `/tickets/{uuid}` and, in the contact's partition, the guard
 * `OPEN#<pad whatsappId>` that exists exactly while the contact has a not-closed ticket on that connection
 * (one open ticket per contact per connection) and `LAST#<pad whatsappId>` (the last closed one).
 */
export type { TicketStatus } from '../core/tickets/visibility';
export type TicketChannel = 'whatsapp' | 'whatsappapi' | 'facebook' | 'instagram';

export interface Ticket {
  id: number;
  uuid: string;
  companyId: number;
  status: TicketStatus;
  queueId: number | null;
  userId: number | null;
  contactId: number;
  whatsappId: number;
  channel: TicketChannel;
  isGroup: boolean;
  isBot: boolean;
  lastMessage: string;
  /** Sort key (`MSG#<ulid>`) of the latest message; messages' times are kept increasing from it. */
  lastMsgSk?: string;
  /** Messages up to this sort key are read (`read` on the wire is derived from it). */
  readUpTo?: string;
  unreadMessages: number;
  tagIds: number[];
  useIntegration: boolean;
  integrationId: number | null;
  promptId: number | null;
  amountUsedBotQueues: number;
  /** The provider id of the message that opened the ticket (inbound tickets): its automatic replies key on it. */
  firstProviderId?: string;
  /** The provider's chat id (WhatsApp remote JID, Meta page-scoped id) that sends to this ticket go to. */
  chatId?: string;
  /** When the contact last wrote (Meta's 24-hour reply window starts there, decisions D40). */
  lastInboundAt?: string;
  createdAt: string;
  updatedAt: string;
  /** Transitions are conditional on it; message updates do not move it. */
  version: number;
}

export type TicketLogType =
  | 'create'
  | 'chatBot'
  | 'queue'
  | 'open'
  | 'access'
  | 'transfered'
  | 'receivedTransfer'
  | 'pending'
  | 'closed'
  | 'reopen'
  | 'redirect';

export interface TicketLogEntry {
  type: TicketLogType;
  userId: number | null;
  queueId: number | null;
  createdAt: string;
}

export const ticketPartition = (companyId: number, id: number): string => `${company(companyId)}#T#${pad(id)}`;
export const ticketKeys = (companyId: number, id: number) => ({ pk: ticketPartition(companyId, id), sk: 'TICKET' });
export const trackingKeys = (companyId: number, id: number) => ({
  pk: ticketPartition(companyId, id),
  sk: 'TRACKING',
});
export const ticketUuidKeys = (companyId: number, uuid: string) => ({
  pk: `${company(companyId)}#TUUID#${uuid}`,
  sk: 'TUUID',
});
export const openTicketGuardKeys = (companyId: number, contactId: number, whatsappId: number) => ({
  pk: contactPartition(companyId, contactId),
  sk: `OPEN#${pad(whatsappId)}`,
});
export const lastTicketKeys = (companyId: number, contactId: number, whatsappId: number) => ({
  pk: contactPartition(companyId, contactId),
  sk: `LAST#${pad(whatsappId)}`,
});

/** The list sort key: lists are ordered by updatedAt, ties by id. */
export const ticketListSortKey = (updatedAt: string, id: number): string => `${updatedAt}#${pad(id)}`;

/** gsi1 (queue × status list) and, for assigned tickets, gsi2 (attendant × status list). */
export const ticketListKeys = (
  t: Pick<Ticket, 'companyId' | 'id' | 'queueId' | 'userId' | 'status' | 'updatedAt'>,
) => ({
  gsi1pk: `${company(t.companyId)}#TQ#${pad(t.queueId ?? 0)}#${t.status}`,
  gsi1sk: ticketListSortKey(t.updatedAt, t.id),
  ...(t.userId === null
    ? {}
    : {
        gsi2pk: `${company(t.companyId)}#TU#${pad(t.userId)}#${t.status}`,
        gsi2sk: ticketListSortKey(t.updatedAt, t.id),
      }),
});

const toTicket = (item: Record<string, unknown>): Ticket => {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, type: _t, ...rest } = item;
  return rest as unknown as Ticket;
};

const toLogEntry = (item: Record<string, unknown>): TicketLogEntry => ({
  type: item.logType as TicketLogType,
  userId: item.userId === undefined || item.userId === null ? null : Number(item.userId),
  queueId: item.queueId === undefined || item.queueId === null ? null : Number(item.queueId),
  createdAt: String(item.createdAt),
});

export const getTicket = async (companyId: number, id: number): Promise<Ticket | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: ticketKeys(companyId, id), ConsistentRead: true })),
  );
  return out.Item ? toTicket(out.Item) : null;
};

/** The contact's not-closed ticket on a connection (the guard, read consistently), or null. */
export const getOpenTicketId = async (
  companyId: number,
  contactId: number,
  whatsappId: number,
): Promise<number | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new GetCommand({
        TableName: tableName(),
        Key: openTicketGuardKeys(companyId, contactId, whatsappId),
        ConsistentRead: true,
      }),
    ),
  );
  return out.Item ? Number(out.Item.ticketId) : null;
};

/**
 * Removes a guard that names a ticket which is gone or closed (a delete or close that ran before guards
 * were kept in step); conditional on it still naming that ticket. Answers whether it was removed.
 */
export const releaseStaleGuard = async (
  companyId: number,
  contactId: number,
  whatsappId: number,
  ticketId: number,
): Promise<boolean> => {
  try {
    await mapDynamoErrors(() =>
      db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: openTicketGuardKeys(companyId, contactId, whatsappId),
          ConditionExpression: 'ticketId = :id',
          ExpressionAttributeValues: { ':id': ticketId },
        }),
      ),
    );
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};

/** The contact already has a not-closed ticket on the connection: `ticketId` names it. */
export class OtherOpenTicket extends Conflict {
  constructor(readonly ticketId: number | null) {
    super('ERR_OTHER_OPEN_TICKET', 'An open ticket already exists for the contact', { ticketId });
  }
}

export type NewTicket = Pick<
  Ticket,
  'status' | 'queueId' | 'userId' | 'contactId' | 'whatsappId' | 'channel' | 'isGroup'
> &
  Partial<Pick<Ticket, 'lastMessage' | 'firstProviderId' | 'isBot' | 'chatId'>> & {
    /** `passive` when the contact started it (inbound), `active` when we did. */
    origin: 'active' | 'passive';
    /** Who the `create` log entry names (null: the contact or the system). */
    createdBy?: number | null;
  };

/**
 * Creates a ticket with its guard, tracking record, uuid pointer and `create` log entry in one transaction.
 * When the contact already has a not-closed ticket on the connection the guard's condition fails and
 * nothing is written: `OtherOpenTicket` names that ticket (so parallel first messages converge on one).
 */
export const createTicket = async (companyId: number, input: NewTicket, now = new Date()): Promise<Ticket> => {
  const id = await nextId(companyId, 'ticket');
  const at = now.toISOString();
  const { origin, createdBy = null, ...fields } = input;
  const ticket: Ticket = {
    isBot: false,
    lastMessage: '',
    unreadMessages: 0,
    tagIds: [],
    useIntegration: false,
    integrationId: null,
    promptId: null,
    amountUsedBotQueues: 0,
    ...fields,
    id,
    uuid: randomUUID(),
    companyId,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  const put = (Item: Record<string, unknown>, guard = true) => ({
    Put: { TableName: tableName(), Item, ...(guard ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}) },
  });
  await mapDynamoErrors(
    () =>
      db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: tableName(),
                Item: {
                  ...openTicketGuardKeys(companyId, ticket.contactId, ticket.whatsappId),
                  type: 'TICKET_OPEN',
                  companyId,
                  ticketId: id,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
            put({ ...ticketKeys(companyId, id), ...ticketListKeys(ticket), type: 'TICKET', ...ticket }),
            put({
              ...trackingKeys(companyId, id),
              gsi3pk: `${contactPartition(companyId, ticket.contactId)}#T`,
              gsi3sk: `${at}#${pad(id)}`,
              gsi5pk: `${company(companyId)}#TCREATED`,
              gsi5sk: `${at}#${pad(id)}`,
              type: 'TRACKING',
              companyId,
              ticketId: id,
              contactId: ticket.contactId,
              whatsappId: ticket.whatsappId,
              queueId: ticket.queueId,
              userId: ticket.userId,
              status: ticket.status,
              channel: ticket.channel,
              isGroup: ticket.isGroup,
              origin,
              createdAt: at,
              ...(ticket.queueId === null ? {} : { queuedAt: at }),
            }),
            put({ ...ticketUuidKeys(companyId, ticket.uuid), type: 'TUUID', companyId, ticketId: id }),
            put(
              {
                pk: ticketPartition(companyId, id),
                sk: `LOG#${newUlid(now.getTime())}`,
                type: 'TICKET_LOG',
                companyId,
                ticketId: id,
                logType: 'create',
                userId: createdBy,
                queueId: ticket.queueId,
                createdAt: at,
              },
              false,
            ),
          ],
        }),
      ),
    (failure) =>
      new OtherOpenTicket(
        failure.reasons?.[0] === 'ConditionalCheckFailed' && failure.item?.ticketId !== undefined
          ? Number(failure.item.ticketId)
          : null,
      ),
  );
  return ticket;
};

/**
 * Closes a ticket (resolve; data-model §2.14): status `closed`, the guard removed (so the contact's next
 * message opens a new ticket), `LAST#<w>` kept for `timeCreateNewTicket`, the tracking record finished and
 * a `closed` log entry — one transaction, conditional on the status and version the caller saw.
 * 409 ERR_CONFLICT when the ticket changed meanwhile.
 */
export const closeTicket = async (
  ticket: Ticket,
  options: { userId?: number | null; now?: Date } = {},
): Promise<Ticket> => {
  const now = options.now ?? new Date();
  const at = now.toISOString();
  const closed: Ticket = { ...ticket, status: 'closed', updatedAt: at, version: ticket.version + 1 };
  const { companyId, id } = ticket;
  const lists = ticketListKeys(closed);
  await mapDynamoErrors(
    () =>
      db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: ticketKeys(companyId, id),
                UpdateExpression:
                  'SET #status = :closed, updatedAt = :at, version = :next, gsi1pk = :g1pk, gsi1sk = :g1sk' +
                  (lists.gsi2pk ? ', gsi2pk = :g2pk, gsi2sk = :g2sk' : ''),
                ConditionExpression: '#status = :from AND version = :v',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: {
                  ':closed': 'closed',
                  ':at': at,
                  ':next': closed.version,
                  ':g1pk': lists.gsi1pk,
                  ':g1sk': lists.gsi1sk,
                  ':from': ticket.status,
                  ':v': ticket.version,
                  ...(lists.gsi2pk ? { ':g2pk': lists.gsi2pk, ':g2sk': lists.gsi2sk } : {}),
                },
              },
            },
            {
              Delete: {
                TableName: tableName(),
                Key: openTicketGuardKeys(companyId, ticket.contactId, ticket.whatsappId),
                ConditionExpression: 'ticketId = :id',
                ExpressionAttributeValues: { ':id': id },
              },
            },
            {
              Put: {
                TableName: tableName(),
                Item: {
                  ...lastTicketKeys(companyId, ticket.contactId, ticket.whatsappId),
                  type: 'TICKET_LAST',
                  companyId,
                  ticketId: id,
                  closedAt: at,
                },
              },
            },
            {
              Update: {
                TableName: tableName(),
                Key: trackingKeys(companyId, id),
                UpdateExpression: 'SET #status = :closed, finishedAt = :at',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':closed': 'closed', ':at': at },
              },
            },
            {
              Put: {
                TableName: tableName(),
                Item: {
                  pk: ticketPartition(companyId, id),
                  sk: `LOG#${newUlid(now.getTime())}`,
                  type: 'TICKET_LOG',
                  companyId,
                  ticketId: id,
                  logType: 'closed',
                  userId: options.userId ?? null,
                  queueId: ticket.queueId,
                  createdAt: at,
                },
              },
            },
          ],
        }),
      ),
    () => new Conflict('ERR_CONFLICT', 'The ticket changed meanwhile, reload it'),
  );
  return closed;
};

/** The ticket log, oldest first (small: one entry per transition). */
export const listTicketLog = async (companyId: number, ticketId: number): Promise<TicketLogEntry[]> => {
  const entries: TicketLogEntry[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :log)',
          ExpressionAttributeValues: { ':pk': ticketPartition(companyId, ticketId), ':log': 'LOG#' },
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    entries.push(...(out.Items ?? []).map(toLogEntry));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return entries;
};

/** The tickets of a contact, newest first (gsi3 on TRACKING; eventually consistent), as ids. */
export const listContactTicketIds = async (companyId: number, contactId: number): Promise<number[]> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :pk',
        ExpressionAttributeValues: { ':pk': `${contactPartition(companyId, contactId)}#T` },
        ScanIndexForward: false,
        ProjectionExpression: 'ticketId',
      }),
    ),
  );
  return (out.Items ?? []).map((i) => Number(i.ticketId));
};

/** The ticket a `/tickets/{uuid}` path names (the base-table pointer written at create, read consistently). */
export const getTicketByUuid = async (companyId: number, uuid: string): Promise<Ticket | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: ticketUuidKeys(companyId, uuid), ConsistentRead: true })),
  );
  return out.Item ? getTicket(companyId, Number(out.Item.ticketId)) : null;
};
