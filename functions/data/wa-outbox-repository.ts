import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';
import { company, pad } from './keys';

/**
 * A WhatsApp connection's outbox (docs/data-model.md §2.31; decisions D41): the work only the worker
 * holding the connection's lease can do, in the order it must be done. Items:
 * `pk = C#<c>#WAOUT#<pad whatsappId>, sk = <ulid>`:
 * - `send`: one `OutboundSend` (D34), written by the outbound job; `sk` is the message's own ULID, so a
 *   chat's sends sort in message order and a retried job rewrites the same item;
 * - `change`: an edit or delete of a sent message (`OutboundChange`, decisions D75), `sk = <ulid>#E<time>`
 *   or `<ulid>#D`, after the message's own send;
 * - `simulate`: something the phone simulator's customer does (a message, a reaction, reading), written
 *   by the simulator routes (D36, WHATSAPP_DRIVER=simulator only).
 * The holder reads the partition oldest first, carries each item out and deletes it. A failed attempt
 * stays with `attempts` and `notBefore` (the retry's earliest time).
 */
export type OutboxKind = 'send' | 'change' | 'simulate' | 'check' | 'phone-contacts';

export interface OutboxItem {
  companyId: number;
  whatsappId: number;
  sk: string;
  kind: OutboxKind;
  /** The send (OutboundSend) or the simulator action, as written. */
  payload: Record<string, unknown>;
  attempts: number;
  /** Epoch ms before which a failed item is not tried again. */
  notBefore: number;
  createdAt: string;
}

export const outboxPartition = (companyId: number, whatsappId: number): string =>
  `${company(companyId)}#WAOUT#${pad(whatsappId)}`;

const toItem = (item: Record<string, unknown>): OutboxItem => ({
  companyId: Number(item.companyId),
  whatsappId: Number(item.whatsappId),
  sk: String(item.sk),
  kind: item.kind as OutboxKind,
  payload: item.payload as Record<string, unknown>,
  attempts: Number(item.attempts ?? 0),
  notBefore: Number(item.notBefore ?? 0),
  createdAt: String(item.createdAt),
});

/**
 * Writes an outbox item (idempotent: the same key rewrites the same item, keeping its attempts when it
 * exists). Answers nothing: the holder is woken separately.
 */
export const putOutboxItem = async (
  companyId: number,
  whatsappId: number,
  sk: string,
  kind: OutboxKind,
  payload: Record<string, unknown>,
): Promise<void> => {
  await mapDynamoErrors(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: outboxPartition(companyId, whatsappId), sk },
        UpdateExpression:
          'SET #type = :type, companyId = :c, whatsappId = :w, kind = :kind, payload = :payload, ' +
          'attempts = if_not_exists(attempts, :zero), notBefore = if_not_exists(notBefore, :zero), ' +
          'createdAt = if_not_exists(createdAt, :now)',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ':type': 'WAOUT',
          ':c': companyId,
          ':w': whatsappId,
          ':kind': kind,
          ':payload': payload,
          ':zero': 0,
          ':now': new Date().toISOString(),
        },
      }),
    ),
  );
};

/** The oldest items of a connection's outbox (strongly consistent: a wake-up follows the write). */
export const listOutbox = async (companyId: number, whatsappId: number, limit = 25): Promise<OutboxItem[]> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': outboxPartition(companyId, whatsappId) },
        ConsistentRead: true,
        Limit: limit,
      }),
    ),
  );
  return (out.Items ?? []).map(toItem);
};

export const deleteOutboxItem = async (item: Pick<OutboxItem, 'companyId' | 'whatsappId' | 'sk'>): Promise<void> => {
  await mapDynamoErrors(() =>
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: { pk: outboxPartition(item.companyId, item.whatsappId), sk: item.sk },
      }),
    ),
  );
};

/** Records a failed attempt (or, with `spendAttempt: false`, a wait that is not one) and when to try again. */
export const deferOutboxItem = async (
  item: OutboxItem,
  notBefore: number,
  options: { spendAttempt?: boolean } = {},
): Promise<void> => {
  const attempts = options.spendAttempt === false ? item.attempts : item.attempts + 1;
  await mapDynamoErrors(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: outboxPartition(item.companyId, item.whatsappId), sk: item.sk },
        UpdateExpression: 'SET attempts = :attempts, notBefore = :nb',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':attempts': attempts, ':nb': notBefore },
      }),
    ),
  ).catch(() => undefined);
};

/**
 * Changes the holder carried out (decisions D75): `pk = C#<c>#WADONE#<pad whatsappId>, sk = <change id>`,
 * kept a day, so a retried job's change, rewritten into the outbox after it went out, is not sent again.
 */
const DONE_TTL_SECONDS = 86_400;

const donePartition = (companyId: number, whatsappId: number): string =>
  `${company(companyId)}#WADONE#${pad(whatsappId)}`;

export const isOutboxChangeDone = async (companyId: number, whatsappId: number, changeId: string): Promise<boolean> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new GetCommand({
        TableName: tableName(),
        Key: { pk: donePartition(companyId, whatsappId), sk: changeId },
        ConsistentRead: true,
      }),
    ),
  );
  return out.Item !== undefined;
};

export const markOutboxChangeDone = async (companyId: number, whatsappId: number, changeId: string): Promise<void> => {
  await mapDynamoErrors(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          pk: donePartition(companyId, whatsappId),
          sk: changeId,
          type: 'WADONE',
          ttl: Math.floor(Date.now() / 1000) + DONE_TTL_SECONDS,
        },
      }),
    ),
  );
};

/** Test and cleanup helper: the whole outbox of a connection. */
export const countOutbox = async (companyId: number, whatsappId: number): Promise<number> =>
  (await listOutbox(companyId, whatsappId, 1000)).length;
