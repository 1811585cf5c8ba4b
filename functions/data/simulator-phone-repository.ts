import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../shared/errors';
import { db, tableName } from './client';
import { transactWrite } from './transactions';
import { mapDynamoErrors } from './errors';
import { company, pad } from './keys';
import { newUlid } from './ulids';

/**
 * What the phone simulator's customers received (decisions D36, D41; data-model §2.32): the simulated
 * session writes each message our side sends, once per provider id, so the simulator routes (another
 * process than the worker) can list them and mark them read. Items:
 * - `pk = C#<c>#SIMPHONE#<pad whatsappId>, sk = R#<ulid>`: one received message (newest last), with the
 *   ack the customer's phone has given it;
 * - `sk = RID#<providerMessageId>`: the guard that makes a repeated send a no-op (one transaction);
 * - an edit or delete for everyone of a message received before (decisions D75) changes that message
 *   (`body` and `edited`, or `deleted` with no body), guarded by its own `RID#<id>` like a send.
 * Demo data: a TTL of 7 days.
 */
export interface ReceivedMessage {
  sk: string;
  providerMessageId: string;
  /** The chat (remote JID) it was sent to. */
  chatId: string;
  /** What kind of send it was: text, image, audio, video, document, contact, location, edit, delete… */
  type: string;
  body?: string;
  mediaKey?: string;
  mimetype?: string;
  filename?: string;
  voice?: boolean;
  quotedProviderMessageId?: string;
  /** Edits and deletes: the message they change. */
  targetProviderMessageId?: string;
  vCard?: string;
  latitude?: number;
  longitude?: number;
  /** The sender edited it (WhatsApp shows "Edited"); `body` is the new text. */
  edited?: boolean;
  editedAt?: string;
  /** The sender deleted it for everyone (WhatsApp shows "This message was deleted"); no body. */
  deleted?: boolean;
  deletedAt?: string;
  ack: number;
  receivedAt: string;
}

const TTL_SECONDS = 7 * 86_400;

export const simulatorPhonePartition = (companyId: number, whatsappId: number): string =>
  `${company(companyId)}#SIMPHONE#${pad(whatsappId)}`;

const toReceived = (item: Record<string, unknown>): ReceivedMessage => {
  const { pk: _pk, type: _t, ttl: _ttl, companyId: _c, whatsappId: _w, kind, ...rest } = item;
  return { ...(rest as unknown as ReceivedMessage), type: String(kind) };
};

/** Records a received message; `false` when this provider id was received before (nothing written). */
export const recordReceived = async (
  companyId: number,
  whatsappId: number,
  message: Omit<ReceivedMessage, 'sk' | 'ack' | 'receivedAt'>,
  now = Date.now(),
): Promise<ReceivedMessage | null> => {
  const pk = simulatorPhonePartition(companyId, whatsappId);
  const sk = `R#${newUlid(now)}`;
  const ttl = Math.floor(now / 1000) + TTL_SECONDS;
  const { type, ...rest } = message;
  const received: ReceivedMessage = { ...message, sk, ack: 0, receivedAt: new Date(now).toISOString() };
  try {
    await transactWrite(
      [
        {
          Put: {
            Item: { pk, sk: `RID#${message.providerMessageId}`, type: 'SIMRID', received: sk, ttl },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            Item: {
              pk,
              sk,
              type: 'SIMRCV',
              kind: type,
              companyId,
              whatsappId,
              ...rest,
              ack: 0,
              receivedAt: received.receivedAt,
              ttl,
            },
          },
        },
      ],
      () => new Conflict('ERR_CONFLICT', 'received before'),
    );
    return received;
  } catch (err) {
    if (err instanceof Conflict) return null;
    throw err;
  }
};

/** What the customers received, oldest first, a page at a time (`after`: the last `sk` seen). */
export const listReceived = async (
  companyId: number,
  whatsappId: number,
  options: { after?: string; limit?: number } = {},
): Promise<{ messages: ReceivedMessage[]; hasMore: boolean }> => {
  const limit = options.limit ?? 50;
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: options.after ? 'pk = :pk AND sk > :after' : 'pk = :pk AND begins_with(sk, :r)',
        FilterExpression: options.after ? 'begins_with(sk, :r)' : undefined,
        ExpressionAttributeValues: {
          ':pk': simulatorPhonePartition(companyId, whatsappId),
          ':r': 'R#',
          ...(options.after ? { ':after': options.after } : {}),
        },
        ConsistentRead: true,
        Limit: limit + 1,
      }),
    ),
  );
  const items = (out.Items ?? []).filter((i) => String(i.sk).startsWith('R#')).map(toReceived);
  return { messages: items.slice(0, limit), hasMore: items.length > limit || out.LastEvaluatedKey !== undefined };
};

/** Raises the customer's ack of a received message (never lowers it); answers whether it changed. */
export const raiseReceivedAck = async (
  companyId: number,
  whatsappId: number,
  sk: string,
  ack: number,
): Promise<boolean> => {
  try {
    await mapDynamoErrors(
      () =>
        db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { pk: simulatorPhonePartition(companyId, whatsappId), sk },
            UpdateExpression: 'SET ack = :ack',
            ConditionExpression: 'attribute_exists(pk) AND ack < :ack',
            ExpressionAttributeValues: { ':ack': ack },
          }),
        ),
      () => new Conflict('ERR_CONFLICT', 'ack not raised'),
    );
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};

/**
 * An edit or delete for everyone reaching the customer's phone: changes the message received before, once
 * per change id. Answers the changed message, or null when done before or when the phone never received the
 * target (WhatsApp ignores such a change).
 */
export const changeReceived = async (
  companyId: number,
  whatsappId: number,
  change: { providerMessageId: string; targetProviderMessageId: string; type: 'edit' | 'delete'; body?: string },
  now = Date.now(),
): Promise<ReceivedMessage | null> => {
  const pk = simulatorPhonePartition(companyId, whatsappId);
  const guard = await mapDynamoErrors(() =>
    db().send(
      new GetCommand({
        TableName: tableName(),
        Key: { pk, sk: `RID#${change.targetProviderMessageId}` },
        ConsistentRead: true,
      }),
    ),
  );
  const target = guard.Item?.received as string | undefined;
  if (!target) return null;
  const at = new Date(now).toISOString();
  const update =
    change.type === 'edit'
      ? { UpdateExpression: 'SET body = :body, edited = :true, editedAt = :at', values: { ':body': change.body ?? '' } }
      : { UpdateExpression: 'SET deleted = :true, deletedAt = :at REMOVE body', values: {} };
  try {
    await transactWrite(
      [
        {
          Put: {
            Item: {
              pk,
              sk: `RID#${change.providerMessageId}`,
              type: 'SIMRID',
              received: target,
              ttl: Math.floor(now / 1000) + TTL_SECONDS,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            Key: { pk, sk: target },
            UpdateExpression: update.UpdateExpression,
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':true': true, ':at': at, ...update.values },
          },
        },
      ],
      () => new Conflict('ERR_CONFLICT', 'changed before'),
    );
  } catch (err) {
    if (err instanceof Conflict) return null;
    throw err;
  }
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: { pk, sk: target }, ConsistentRead: true })),
  );
  return out.Item ? toReceived(out.Item) : null;
};

/**
 * The simulated phone's past conversations (decisions D78): what WhatsApp hands a newly paired device as
 * its history, so the import of old messages can be tried with the simulator. One item
 * (`sk = HISTORY`, at most PHONE_HISTORY_MAX entries), replaced as a whole; demo data with the TTL above.
 */
export interface PhoneHistoryEntry {
  /** The customer: digits with country code. */
  number: string;
  name?: string;
  /** A group chat the customer wrote in (digits id and subject). */
  group?: { id: string; name?: string };
  /** Sent by the phone's owner (the business) rather than the customer. */
  fromMe?: boolean;
  body: string;
  /** When it was sent (ISO). */
  at: string;
}

export const PHONE_HISTORY_MAX = 200;

export const setPhoneHistory = async (
  companyId: number,
  whatsappId: number,
  entries: readonly PhoneHistoryEntry[],
  now = Date.now(),
): Promise<void> => {
  await mapDynamoErrors(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          pk: simulatorPhonePartition(companyId, whatsappId),
          sk: 'HISTORY',
          type: 'SIMHISTORY',
          entries,
          ttl: Math.floor(now / 1000) + TTL_SECONDS,
        },
      }),
    ),
  );
};

/** The phone's past conversations as set, or null when none was set. */
export const getPhoneHistory = async (companyId: number, whatsappId: number): Promise<PhoneHistoryEntry[] | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new GetCommand({
        TableName: tableName(),
        Key: { pk: simulatorPhonePartition(companyId, whatsappId), sk: 'HISTORY' },
        ConsistentRead: true,
      }),
    ),
  );
  return out.Item ? (out.Item.entries as PhoneHistoryEntry[]) : null;
};
