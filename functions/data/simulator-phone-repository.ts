import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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
  // A range of the R# items (DynamoDB refuses a filter on the sort key): `R#~` sorts after every ULID and
  // before the `RID#` guards.
  const lower = options.after ?? 'R#';
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lower AND :upper',
        ExpressionAttributeValues: {
          ':pk': simulatorPhonePartition(companyId, whatsappId),
          ':lower': lower,
          ':upper': 'R#~',
        },
        ConsistentRead: true,
        // BETWEEN is inclusive: the item the cursor names comes back first and is dropped.
        Limit: limit + 2,
      }),
    ),
  );
  const items = (out.Items ?? []).filter((i) => i.sk !== options.after).map(toReceived);
  return { messages: items.slice(0, limit), hasMore: items.length > limit };
};

/** Raises the ack of a received (`R#`) or sent (`S#`) message (never lowers it); answers whether it changed. */
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
 * What the phone simulator's customers sent (decisions D41; data-model §2.32): the simulator routes write
 * each customer message when it is posted, so the simulator shows both sides of a chat as the customer's
 * phone does. Items:
 * - `sk = S#<ulid>`: one sent message, the ULID its outbox item's (oldest first beside the `R#` items), with
 *   the customer's ack of it: 0 (still on the phone) until the simulated session has delivered it, then 2;
 * - a ring of SENT_MAX slots per connection keeps it bounded: `sk = SENTSEQ` counts the sends, slot
 *   `SSLOT#<n mod SENT_MAX>` names the message in it, and a send that takes a slot deletes the one before.
 * Demo data: the same TTL of 7 days.
 */
export interface SentMessage {
  sk: string;
  providerMessageId: string;
  /** The chat (remote JID) it was written in. */
  chatId: string;
  /** text, image, video, audio, document, sticker or reaction. */
  type: string;
  body?: string;
  mediaKey?: string;
  mimetype?: string;
  filename?: string;
  /** A reply: the message it quotes. */
  quotedProviderMessageId?: string;
  /** A reaction: its emoji (empty: the reaction taken back) and the message it reacts to. */
  emoji?: string;
  targetProviderMessageId?: string;
  ack: number;
  sentAt: string;
}

/** Sent messages kept per connection (the oldest go first). */
export const SENT_MAX = 500;

const slotKey = (seq: number, max: number): string => `SSLOT#${String((seq - 1) % max).padStart(4, '0')}`;

const toSent = (item: Record<string, unknown>): SentMessage => {
  const { pk: _pk, type: _t, ttl: _ttl, companyId: _c, whatsappId: _w, kind, ...rest } = item;
  return { ...(rest as unknown as SentMessage), type: String(kind) };
};

/**
 * Records what a customer sent (ack 0), under `S#<ulid>`, and drops the oldest beyond `max` (SENT_MAX; a
 * connection keeps one `max` for good, as the slots are numbered by it).
 */
export const recordSent = async (
  companyId: number,
  whatsappId: number,
  ulid: string,
  message: Omit<SentMessage, 'sk' | 'ack' | 'sentAt'>,
  { now = Date.now(), max = SENT_MAX }: { now?: number; max?: number } = {},
): Promise<SentMessage> => {
  const pk = simulatorPhonePartition(companyId, whatsappId);
  const sk = `S#${ulid}`;
  const ttl = Math.floor(now / 1000) + TTL_SECONDS;
  const sent: SentMessage = { ...message, sk, ack: 0, sentAt: new Date(now).toISOString() };
  const { type, ...rest } = message;
  const counted = await mapDynamoErrors(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk, sk: 'SENTSEQ' },
        UpdateExpression: 'ADD seq :one SET #type = :type, #ttl = :ttl',
        ExpressionAttributeNames: { '#type': 'type', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':one': 1, ':type': 'SIMSENTSEQ', ':ttl': ttl },
        ReturnValues: 'UPDATED_NEW',
      }),
    ),
  );
  await mapDynamoErrors(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { pk, sk, type: 'SIMSENT', kind: type, companyId, whatsappId, ...rest, ack: 0, sentAt: sent.sentAt, ttl },
      }),
    ),
  );
  const slot = await mapDynamoErrors(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { pk, sk: slotKey(Number(counted.Attributes?.seq), max), type: 'SIMSENTSLOT', sent: sk, ttl },
        ReturnValues: 'ALL_OLD',
      }),
    ),
  );
  const evicted = slot.Attributes?.sent as string | undefined;
  if (evicted && evicted !== sk) {
    await mapDynamoErrors(() => db().send(new DeleteCommand({ TableName: tableName(), Key: { pk, sk: evicted } })));
  }
  return sent;
};

/** What the customers sent, oldest first, a page at a time (`after`: the last ULID seen, of either side). */
export const listSent = async (
  companyId: number,
  whatsappId: number,
  options: { after?: string; limit?: number } = {},
): Promise<{ messages: SentMessage[]; hasMore: boolean }> => {
  const limit = options.limit ?? 50;
  const lower = `S#${options.after ?? ''}`;
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lower AND :upper',
        ExpressionAttributeValues: {
          ':pk': simulatorPhonePartition(companyId, whatsappId),
          ':lower': lower,
          ':upper': 'S#~',
        },
        ConsistentRead: true,
        // BETWEEN is inclusive: the item the cursor names (if sent) comes back first and is dropped.
        Limit: limit + 2,
      }),
    ),
  );
  const items = (out.Items ?? []).filter((i) => i.sk !== lower).map(toSent);
  return { messages: items.slice(0, limit), hasMore: items.length > limit };
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

/**
 * The simulated phone's address book (decisions D148): the people `POST /contacts/import` reads from the
 * phone. One item (`sk = ADDRESSBOOK`, at most PHONE_ADDRESS_BOOK_MAX entries), replaced as a whole.
 */
export interface PhoneAddressBookEntry {
  number: string;
  name?: string;
}

export const PHONE_ADDRESS_BOOK_MAX = 2_000;

export const setPhoneAddressBook = async (
  companyId: number,
  whatsappId: number,
  entries: readonly PhoneAddressBookEntry[],
  now = Date.now(),
): Promise<void> => {
  await mapDynamoErrors(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          pk: simulatorPhonePartition(companyId, whatsappId),
          sk: 'ADDRESSBOOK',
          type: 'SIMADDRESSBOOK',
          entries,
          ttl: Math.floor(now / 1000) + TTL_SECONDS,
        },
      }),
    ),
  );
};

/** The phone's address book as set, or null when none was set. */
export const getPhoneAddressBook = async (
  companyId: number,
  whatsappId: number,
): Promise<PhoneAddressBookEntry[] | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new GetCommand({
        TableName: tableName(),
        Key: { pk: simulatorPhonePartition(companyId, whatsappId), sk: 'ADDRESSBOOK' },
        ConsistentRead: true,
      }),
    ),
  );
  return out.Item ? (out.Item.entries as PhoneAddressBookEntry[]) : null;
};
