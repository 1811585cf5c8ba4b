import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../shared/errors';
import { db, tableName } from './client';
import { transactWrite } from './transactions';
import { BUSY, withRetry } from '../shared/retry';
import { contactPartition } from './contact-repository';
import { mapDynamoErrors } from './errors';
import { indexMessageWords } from './message-search-repository';
import { errorFields, logger } from '../shared/logger';
import { queryAll, queryPage, type Page } from './query-page';
import { company, pad } from './keys';
import { ticketKeys, ticketListSortKey, ticketPartition } from './ticket-repository';

/**
 * Messages and inbound idempotency (docs/data-model.md §2.17). Items:
 * - message `pk = C#<c>#T#<pad ticketId>, sk = MSG#<ulid>` — a ticket's messages are one base-table Query;
 *   on gsi3 `C#<c>#CT#<pad contactId>#M` → `<ulid>`, a contact's history across tickets;
 * - provider id `pk = C#<c>#WAMID#<pad whatsappId>#<providerMessageId>, sk = WAMID` (ticketId, ulid,
 *   contactId; ttl 90 days): where the provider's message landed, so a re-delivery, an edit, a delete, an
 *   ack or a quote finds it with one GetItem.
 * The wire id of a message is `<ticketId>-<ulid>`.
 */
export interface QuotedSnapshot {
  id: string;
  body: string;
  mediaType: string;
  mediaKey?: string;
  fromMe: boolean;
  contactName?: string;
}

export interface StoredMessage {
  ulid: string;
  companyId: number;
  ticketId: number;
  contactId: number;
  whatsappId: number;
  body: string;
  fromMe: boolean;
  isPrivate: boolean;
  isDeleted: boolean;
  isEdited: boolean;
  isForwarded: boolean;
  mediaType: string;
  mediaKey?: string;
  mimetype?: string;
  filename?: string;
  size?: number;
  vCard?: string;
  /** What rendering needs beyond the body (location, poll, list, call, voice note…), as a JSON string. */
  dataJson?: string;
  quotedMsgId?: string;
  quotedMsg?: QuotedSnapshot;
  /** The ticket's queue when the message was written (history filters by it). */
  queueId: number | null;
  /** 0 waiting to be sent … 5 played (spec §4); contact messages are stored with 0 and never acked. */
  ack: number;
  createdAt: string;
  providerId?: string;
  providerTimestamp?: string;
  /** Group messages: who wrote. */
  participant?: { number?: string; lid?: string; name?: string };
  /** The attendant who sent it (outbound), null for the contact, the phone or the system. */
  userId?: number | null;
  /** Written by the system, not a person: which automatic reply it is. */
  automatic?: 'greeting' | 'outOfHours' | 'vacation' | 'chatBot';
  /** Automatic replies: the provider id of the contact's message that caused it. */
  triggeredBy?: string;
  editedAt?: string;
  /** The send failed after its retries (decisions D41): the spec's `ERR_SENDING_WAPP_MSG`. */
  sendError?: string;
  /** The audio's text, once someone asked for it (GET /messages/transcribeAudio, decisions D53). */
  transcribedText?: string;
  /** When the attendant deleted it (isDeleted). */
  deletedAt?: string;
}

export interface ProviderRef {
  ticketId: number;
  ulid: string;
  contactId: number;
}

export const messageWireId = (ticketId: number, ulid: string): string => `${ticketId}-${ulid}`;
export const messageSortKey = (ulid: string): string => `MSG#${ulid}`;
export const messageKeys = (companyId: number, ticketId: number, ulid: string) => ({
  pk: ticketPartition(companyId, ticketId),
  sk: messageSortKey(ulid),
});
export const messageHistoryKeys = (companyId: number, contactId: number, ulid: string) => ({
  gsi3pk: `${contactPartition(companyId, contactId)}#M`,
  gsi3sk: ulid,
});
export const providerRefKeys = (companyId: number, whatsappId: number, providerId: string) => ({
  pk: `${company(companyId)}#WAMID#${pad(whatsappId)}#${providerId}`,
  sk: 'WAMID',
});

/** 90 days (data-model §1.11): long enough for acks, edits, deletes and quotes of a message. */
export const PROVIDER_REF_TTL_SECONDS = 90 * 86_400;

const toMessage = (item: Record<string, unknown>): StoredMessage => {
  const { pk: _pk, sk: _sk, gsi3pk: _a, gsi3sk: _b, type: _t, ...rest } = item;
  return rest as unknown as StoredMessage;
};

export const getProviderRef = async (
  companyId: number,
  whatsappId: number,
  providerId: string,
): Promise<ProviderRef | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new GetCommand({
        TableName: tableName(),
        Key: providerRefKeys(companyId, whatsappId, providerId),
        ConsistentRead: true,
      }),
    ),
  );
  return out.Item
    ? { ticketId: Number(out.Item.ticketId), ulid: String(out.Item.ulid), contactId: Number(out.Item.contactId) }
    : null;
};

/**
 * Pins where a provider message goes (step 1 of the inbound protocol): the first writer wins and every later
 * one — a re-delivery, a retry after a crash — is told where it went (`claimed: false`).
 */
export const claimProviderRef = async (
  companyId: number,
  whatsappId: number,
  providerId: string,
  ref: ProviderRef,
  now = Date.now(),
): Promise<{ ref: ProviderRef; claimed: boolean }> => {
  try {
    await mapDynamoErrors(
      () =>
        db().send(
          new PutCommand({
            TableName: tableName(),
            Item: {
              ...providerRefKeys(companyId, whatsappId, providerId),
              type: 'WAMID',
              companyId,
              whatsappId,
              providerId,
              ...ref,
              ttl: Math.floor(now / 1000) + PROVIDER_REF_TTL_SECONDS,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      (failure) =>
        new TakenRef(
          failure.item
            ? {
                ticketId: Number(failure.item.ticketId),
                ulid: String(failure.item.ulid),
                contactId: Number(failure.item.contactId),
              }
            : null,
        ),
    );
    return { ref, claimed: true };
  } catch (err) {
    if (!(err instanceof TakenRef)) throw err;
    return { ref: err.ref ?? (await getProviderRef(companyId, whatsappId, providerId)) ?? ref, claimed: false };
  }
};

class TakenRef extends Conflict {
  constructor(readonly ref: ProviderRef | null) {
    super('ERR_CONFLICT', 'provider id already stored');
  }
}

export interface TicketMessageUpdate {
  lastMessage: string;
  updatedAt: string;
  /** increment: a contact's message; reset: someone answered (all read); keep: the system wrote. */
  unread: 'increment' | 'reset' | 'keep';
  /**
   * An old message (the import of old messages, decisions D78): it may be older than what the ticket shows,
   * so the ticket's last message and list position move only when it is the newest; never its unread count.
   */
  onlyIfLatest?: boolean;
}

/**
 * Stores a message and moves its ticket (lastMessage, updatedAt, unread count, list positions) in one
 * transaction, so the two can never disagree: a message stored twice is impossible (the message's key is
 * pinned by its provider id and written only if absent), and a redelivered event changes nothing
 * (`duplicate`). `ticket-gone` when the ticket was deleted meanwhile. Transaction conflicts (a transition
 * on the same ticket in the same instant) are retried here with jitter.
 */
export const storeMessage = async (
  message: StoredMessage,
  ticket: TicketMessageUpdate,
): Promise<'stored' | 'duplicate' | 'ticket-gone'> => {
  const { companyId, ticketId, ulid } = message;
  const sk = messageSortKey(ulid);
  const listSortKey = ticketListSortKey(ticket.updatedAt, ticketId);
  const unread =
    ticket.unread === 'increment'
      ? ' ADD unreadMessages :one'
      : ticket.unread === 'reset'
        ? ', unreadMessages = :zero, readUpTo = :sk'
        : '';
  if (ticket.onlyIfLatest) return storeOldMessage(message, ticket);
  try {
    // A transition holding the ticket in another transaction at the same moment is retried with jitter.
    await withRetry(BUSY, () =>
      transactWrite(
        [
          {
            Put: {
              Item: {
                ...messageKeys(companyId, ticketId, ulid),
                ...messageHistoryKeys(companyId, message.contactId, ulid),
                type: 'MSG',
                ...message,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              Key: ticketKeys(companyId, ticketId),
              UpdateExpression:
                'SET lastMessage = :last, updatedAt = :at, lastMsgSk = :sk, gsi1sk = :list, gsi2sk = :list' +
                // The contact's latest message opens Meta's 24-hour reply window (decisions D40).
                (ticket.unread === 'increment' ? ', lastInboundAt = :at' : '') +
                unread,
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: {
                ':last': ticket.lastMessage,
                ':at': ticket.updatedAt,
                ':sk': sk,
                ':list': listSortKey,
                ...(ticket.unread === 'increment' ? { ':one': 1 } : {}),
                ...(ticket.unread === 'reset' ? { ':zero': 0 } : {}),
              },
            },
          },
        ],
        (failure) => new StoreRefused(failure.reasons?.[0] === 'ConditionalCheckFailed' ? 'duplicate' : 'ticket-gone'),
      ),
    );
  } catch (err) {
    if (err instanceof StoreRefused) return err.outcome;
    throw err;
  }
  await indexStoredWords(companyId, [message]);
  return 'stored';
};

/**
 * `storeMessage` of an old message: the message (conditional on being new) with a check that the ticket
 * exists, then the ticket's last message and list position only if this message is its newest.
 */
const storeOldMessage = async (
  message: StoredMessage,
  ticket: TicketMessageUpdate,
): Promise<'stored' | 'duplicate' | 'ticket-gone'> => {
  const { companyId, ticketId, ulid } = message;
  const sk = messageSortKey(ulid);
  try {
    await transactWrite(
      [
        {
          Put: {
            Item: {
              ...messageKeys(companyId, ticketId, ulid),
              ...messageHistoryKeys(companyId, message.contactId, ulid),
              type: 'MSG',
              ...message,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          ConditionCheck: {
            Key: ticketKeys(companyId, ticketId),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
      ],
      (failure) => new StoreRefused(failure.reasons?.[0] === 'ConditionalCheckFailed' ? 'duplicate' : 'ticket-gone'),
    );
  } catch (err) {
    if (err instanceof StoreRefused) return err.outcome;
    throw err;
  }
  const listSortKey = ticketListSortKey(ticket.updatedAt, ticketId);
  try {
    await mapDynamoErrors(
      () =>
        db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: ticketKeys(companyId, ticketId),
            UpdateExpression:
              'SET lastMessage = :last, updatedAt = :at, lastMsgSk = :sk, gsi1sk = :list, gsi2sk = :list',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastMsgSk) OR lastMsgSk < :sk)',
            ExpressionAttributeValues: {
              ':last': ticket.lastMessage,
              ':at': ticket.updatedAt,
              ':sk': sk,
              ':list': listSortKey,
            },
          }),
        ),
      () => new StoreRefused('duplicate'),
    );
  } catch (err) {
    if (!(err instanceof StoreRefused)) throw err; // a newer message is the ticket's last: it stays
  }
  await indexStoredWords(companyId, [message]);
  return 'stored';
};

class StoreRefused extends Conflict {
  constructor(readonly outcome: 'duplicate' | 'ticket-gone') {
    super('ERR_CONFLICT', outcome);
  }
}

export const getMessage = async (companyId: number, ticketId: number, ulid: string): Promise<StoredMessage | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new GetCommand({ TableName: tableName(), Key: messageKeys(companyId, ticketId, ulid), ConsistentRead: true }),
    ),
  );
  return out.Item ? toMessage(out.Item) : null;
};

/** A ticket's messages, oldest first (tests and small tickets; the API pages newest first). */
export const listTicketMessages = async (companyId: number, ticketId: number): Promise<StoredMessage[]> =>
  (
    await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :msg)',
      ExpressionAttributeValues: { ':pk': ticketPartition(companyId, ticketId), ':msg': 'MSG#' },
      ConsistentRead: true,
    })
  ).map(toMessage);

/**
 * One conditional update of a stored message; answers the message afterwards, or null when the message is
 * missing or the condition says there is nothing to change.
 */
const updateMessage = async (
  companyId: number,
  ref: Pick<ProviderRef, 'ticketId' | 'ulid'>,
  update: { expression: string; condition: string; values: Record<string, unknown>; names?: Record<string, string> },
): Promise<StoredMessage | null> => {
  try {
    const out = await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: messageKeys(companyId, ref.ticketId, ref.ulid),
          UpdateExpression: update.expression,
          ConditionExpression: `attribute_exists(pk) AND (${update.condition})`,
          ExpressionAttributeValues: update.values,
          ...(update.names ? { ExpressionAttributeNames: update.names } : {}),
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return out.Attributes ? toMessage(out.Attributes) : null;
  } catch (err) {
    if (err instanceof Conflict) return null;
    throw err;
  }
};

/** The sender edited the text (a repeated edit with the same text changes nothing). */
export const applyEdit = (companyId: number, ref: ProviderRef, body: string, at: string) =>
  updateMessage(companyId, ref, {
    expression: 'SET body = :body, isEdited = :true, editedAt = :at',
    condition: 'body <> :body OR isEdited <> :true',
    values: { ':body': body, ':true': true, ':at': at },
  });

/** The contact deleted the message for everyone. */
export const applyDelete = (companyId: number, ref: ProviderRef) =>
  updateMessage(companyId, ref, {
    expression: 'SET isDeleted = :true',
    condition: 'isDeleted <> :true',
    values: { ':true': true },
  });

/** Raises the ack; an ack that is not higher than the stored one changes nothing (acks never go down). */
export const raiseAck = (companyId: number, ref: Pick<ProviderRef, 'ticketId' | 'ulid'>, ack: number) =>
  updateMessage(companyId, ref, {
    expression: 'SET ack = :ack',
    condition: 'attribute_not_exists(ack) OR ack < :ack',
    values: { ':ack': ack },
  });

/**
 * Keeps the ticket's lastMessage in step when its latest message was edited or deleted; nothing happens
 * when another message is the latest by now.
 */
export const refreshLastMessage = async (
  companyId: number,
  ref: Pick<ProviderRef, 'ticketId' | 'ulid'>,
  lastMessage: string,
): Promise<boolean> => {
  try {
    await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: ticketKeys(companyId, ref.ticketId),
          UpdateExpression: 'SET lastMessage = :last',
          ConditionExpression: 'lastMsgSk = :sk',
          ExpressionAttributeValues: { ':last': lastMessage, ':sk': messageSortKey(ref.ulid) },
        }),
      ),
    );
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};

/**
 * Marks an outbound message whose send failed after its retries (decisions D41). Only a message still
 * waiting (ack 0, no error yet) changes; the ack stays 0 (the spec's range is 0–5), the error shows it.
 */
export const markSendFailed = (companyId: number, ref: Pick<ProviderRef, 'ticketId' | 'ulid'>, code: string) =>
  updateMessage(companyId, ref, {
    expression: 'SET sendError = :code',
    condition: 'ack = :zero AND attribute_not_exists(sendError)',
    values: { ':code': code, ':zero': 0 },
  });

// ------------------------------------------------------------------------------- the messages API
// (issue 5 item 3; decisions D50–D54). Reads page newest first; attendant edits and deletes are
// conditional on the rules the service checked, so a race cannot slip past them.

/** A ticket's messages, newest first, one page (base-table Query, strongly consistent: a sender sees its send). */
export const listTicketMessagesPage = async (
  companyId: number,
  ticketId: number,
  page: { limit: number; cursor?: string | undefined },
): Promise<Page<StoredMessage>> => {
  const out = await queryPage({
    scope: `messages:${companyId}:${ticketId}`,
    partition: ticketPartition(companyId, ticketId),
    sortPrefix: 'MSG#',
    descending: true,
    limit: page.limit,
    cursor: page.cursor,
  });
  return { ...out, items: out.items.map(toMessage) };
};

/**
 * A contact's whole history across tickets (allHistoric), newest first: gsi3 `C#<c>#CT#<contactId>#M`.
 * `queueIds` keeps messages written while their ticket was in one of those queues, without a queue, or of
 * `ticketId` (the ticket being read, whatever its queue); filtering spends the read budget (data-model §1.7).
 */
export const listContactHistoryPage = async (
  companyId: number,
  contactId: number,
  page: { limit: number; cursor?: string | undefined; queueIds?: readonly number[] | undefined; ticketId: number },
): Promise<Page<StoredMessage>> => {
  const queues = [...new Set(page.queueIds ?? [])].slice(0, 100);
  const filter =
    page.queueIds === undefined
      ? undefined
      : {
          expression: [
            'attribute_not_exists(queueId)',
            'attribute_type(queueId, :null)',
            'ticketId = :ticket',
            ...(queues.length > 0 ? [`queueId IN (${queues.map((_, i) => `:q${i}`).join(', ')})`] : []),
          ].join(' OR '),
          values: {
            ':null': 'NULL',
            ':ticket': page.ticketId,
            ...Object.fromEntries(queues.map((q, i) => [`:q${i}`, q])),
          },
        };
  const out = await queryPage({
    scope: `history:${companyId}:${contactId}:${page.queueIds === undefined ? '*' : [...queues].sort().join(',')}`,
    index: 'gsi3',
    partition: messageHistoryKeys(companyId, contactId, '').gsi3pk,
    descending: true,
    limit: page.limit,
    cursor: page.cursor,
    ...(filter ? { filter } : {}),
  });
  return { ...out, items: out.items.map(toMessage) };
};

/**
 * The attendant's edit (core §4: own messages, within 15 minutes): conditional on the message being theirs,
 * sent by a person (`fromMe`), not deleted and younger than `createdAfter`. Null when the condition fails.
 */
export const editOwnMessage = (
  companyId: number,
  ref: Pick<ProviderRef, 'ticketId' | 'ulid'>,
  edit: { userId: number; body: string; createdAfter: string; at: string },
) =>
  updateMessage(companyId, ref, {
    expression: 'SET body = :body, isEdited = :true, editedAt = :at',
    condition: 'fromMe = :true AND userId = :me AND createdAt > :after AND isDeleted <> :true',
    values: { ':body': edit.body, ':true': true, ':at': edit.at, ':me': edit.userId, ':after': edit.createdAfter },
  });

/**
 * The attendant's delete (core §4: own messages only): kept, marked deleted; `erase` (the LGPD pair) also
 * removes its content. Null when the condition fails.
 */
export const deleteOwnMessage = (
  companyId: number,
  ref: Pick<ProviderRef, 'ticketId' | 'ulid'>,
  userId: number,
  at: string,
  erase = false,
) =>
  updateMessage(companyId, ref, {
    expression:
      'SET isDeleted = :true, deletedAt = :at' +
      (erase ? ', body = :empty REMOVE mediaKey, vCard, dataJson, quotedMsg, transcribedText, filename' : ''),
    condition: 'fromMe = :true AND userId = :me AND isDeleted <> :true',
    values: { ':true': true, ':me': userId, ':at': at, ...(erase ? { ':empty': '' } : {}) },
  });

/** Caches a transcription on the message (the search postings pick it up later, data-model §2.18). */
export const setTranscription = (companyId: number, ref: Pick<ProviderRef, 'ticketId' | 'ulid'>, text: string) =>
  updateMessage(companyId, ref, {
    expression: 'SET transcribedText = :text',
    condition: 'attribute_not_exists(transcribedText) OR transcribedText <> :text',
    values: { ':text': text },
  });

/**
 * The attendant opened the ticket: everything up to its latest message is read (`unreadMessages = 0`,
 * `readUpTo = lastMsgSk`, data-model §2.14). False when there was nothing unread (no write happened).
 */
export const markTicketRead = async (companyId: number, ticketId: number): Promise<boolean> => {
  try {
    await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: ticketKeys(companyId, ticketId),
          UpdateExpression: 'SET unreadMessages = :zero, readUpTo = lastMsgSk',
          ConditionExpression:
            'attribute_exists(lastMsgSk) AND (unreadMessages > :zero OR attribute_not_exists(readUpTo) OR readUpTo < lastMsgSk)',
          ExpressionAttributeValues: { ':zero': 0 },
        }),
      ),
    );
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};

/** Company message counts by day (data-model §2.30 `C#<c>#STATS#DAY / <day>`: msgFromMe, msgFromContact). */
export const messageDayKeys = (companyId: number, day: string) => ({ pk: `${company(companyId)}#STATS#DAY`, sk: day });

export const countMessageOfDay = async (companyId: number, day: string, fromMe: boolean): Promise<void> => {
  await mapDynamoErrors(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageDayKeys(companyId, day),
        UpdateExpression: 'SET #type = :type, companyId = :c ADD #n :one',
        ExpressionAttributeNames: { '#type': 'type', '#n': fromMe ? 'msgFromMe' : 'msgFromContact' },
        ExpressionAttributeValues: { ':type': 'STATS_DAY', ':c': companyId, ':one': 1 },
      }),
    ),
  );
};

/** Σ msgFromMe (or msgFromContact) over the days `from`..`to` (yyyy-mm-dd, inclusive): O(days). */
export const sumMessageDays = async (companyId: number, from: string, to: string, fromMe: boolean): Promise<number> => {
  let total = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': messageDayKeys(companyId, '').pk, ':from': from, ':to': to },
          ProjectionExpression: fromMe ? 'msgFromMe' : 'msgFromContact',
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    for (const item of out.Items ?? []) total += Number(item[fromMe ? 'msgFromMe' : 'msgFromContact'] ?? 0);
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return total;
};

/**
 * Search postings for messages just stored (decisions D47), best effort: the message is stored whatever
 * happens here, and a failure is logged — retrying the store would find it a duplicate and index nothing.
 */
export const indexStoredWords = async (
  companyId: number,
  messages: readonly Pick<StoredMessage, 'ticketId' | 'body' | 'createdAt'>[],
): Promise<void> => {
  const texts = messages.filter((m) => m.body.trim() !== '');
  if (texts.length === 0) return;
  try {
    await indexMessageWords(companyId, texts);
  } catch (err) {
    logger.warn('message words not indexed', { companyId, ...errorFields(err) });
  }
};
