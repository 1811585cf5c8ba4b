import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '../shared/errors';
import { db, tableName } from './client';
import { transactWrite } from './transactions';
import { connectionKeys, connectionPartition } from './connection-repository';
import { mapDynamoErrors } from './errors';
import { pad } from './keys';

/**
 * The import of a WhatsApp connection's old messages (core spec §4; decisions D78; data-model §2.33).
 * Items in the connection's own partition `C#<c>#WHATSAPP#<pad w>` (beside its Meta credentials):
 * - `IMPORT`: the running import — `startedAt`, `all` (messages handed to the pipeline so far), `done`
 *   (messages the inbound job finished), `complete` (the phone sent its last history batch), `finished`
 *   (set exactly once, by whoever sees `complete` and `done >= all` first);
 * - `IMPORTED#<pad ticketId>`: a ticket the import created, for `POST /closedimported/{id}`.
 * The connection item itself carries `statusImportMessages` ('' | preparing | running |
 * renderButtonCloseTickets) and `importStartedAt`, which the screens show.
 */
export type ImportStatus = '' | 'preparing' | 'running' | 'renderButtonCloseTickets';

export interface ImportProgress {
  startedAt: string;
  all: number;
  done: number;
  complete: boolean;
  finished?: string;
}

const importPartition = (companyId: number, whatsappId: number) =>
  `${connectionPartition(companyId)}#${pad(whatsappId)}`;
export const importKeys = (companyId: number, whatsappId: number) => ({
  pk: importPartition(companyId, whatsappId),
  sk: 'IMPORT',
});
export const importedTicketKeys = (companyId: number, whatsappId: number, ticketId: number) => ({
  pk: importPartition(companyId, whatsappId),
  sk: `IMPORTED#${pad(ticketId)}`,
});

const progressOf = (item: Record<string, unknown> | undefined): ImportProgress | null =>
  item
    ? {
        startedAt: String(item.startedAt),
        all: Number(item.all ?? 0),
        done: Number(item.done ?? 0),
        complete: item.complete === true,
        ...(typeof item.finished === 'string' ? { finished: item.finished } : {}),
      }
    : null;

/**
 * Starts (or starts again) an import: a fresh IMPORT item and the connection showing `preparing` since
 * `startedAt`, together. 404 when the connection is gone.
 */
export const beginImport = async (companyId: number, whatsappId: number, startedAt: string): Promise<void> => {
  await transactWrite(
    [
      {
        Put: {
          Item: {
            ...importKeys(companyId, whatsappId),
            type: 'IMPORT',
            startedAt,
            all: 0,
            done: 0,
            complete: false,
          },
        },
      },
      {
        Update: {
          Key: connectionKeys(companyId, whatsappId),
          UpdateExpression: 'SET statusImportMessages = :s, importStartedAt = :at, updatedAt = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':s': 'preparing', ':at': startedAt },
        },
      },
    ],
    () => new NotFound('ERR_NO_WAPP_FOUND', 'Connection not found'),
  );
};

/** The import of this connection, or null when none ever ran. */
export const getImport = async (companyId: number, whatsappId: number): Promise<ImportProgress | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: importKeys(companyId, whatsappId), ConsistentRead: true })),
  );
  return progressOf(out.Item);
};

/**
 * Moves the counters of the import begun at `startedAt` (`all` when messages are handed to the pipeline,
 * `done` when the job finished one; `complete` when the phone sent its last batch). Null when no such
 * import runs (none, another one began since, or it finished): the caller does nothing more.
 */
export const moveImport = async (
  companyId: number,
  whatsappId: number,
  startedAt: string,
  change: { all?: number; done?: number; complete?: boolean },
): Promise<ImportProgress | null> => {
  const adds = [...(change.all ? ['#all :all'] : []), ...(change.done ? ['done :done'] : [])];
  const sets = change.complete ? ['complete = :true'] : [];
  if (adds.length === 0 && sets.length === 0) return getImport(companyId, whatsappId);
  try {
    const out = await mapDynamoErrors(
      () =>
        db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: importKeys(companyId, whatsappId),
            UpdateExpression: [adds.length ? `ADD ${adds.join(', ')}` : '', sets.length ? `SET ${sets.join(', ')}` : '']
              .filter(Boolean)
              .join(' '),
            ConditionExpression: 'startedAt = :startedAt AND attribute_not_exists(finished)',
            ExpressionAttributeNames: change.all ? { '#all': 'all' } : undefined,
            ExpressionAttributeValues: {
              ':startedAt': startedAt,
              ...(change.all ? { ':all': change.all } : {}),
              ...(change.done ? { ':done': change.done } : {}),
              ...(change.complete ? { ':true': true } : {}),
            },
            ReturnValues: 'ALL_NEW',
          }),
        ),
      () => new Conflict('ERR_CONFLICT', 'no such import'),
    );
    return progressOf(out.Attributes);
  } catch (err) {
    if (err instanceof Conflict) return null;
    throw err;
  }
};

/**
 * Marks the import begun at `startedAt` finished when the phone sent everything and the job handled it
 * all; true for exactly one caller (the worker marking it complete and the job counting the last message
 * may both try).
 */
export const claimImportFinish = async (companyId: number, whatsappId: number, startedAt: string): Promise<boolean> => {
  try {
    await mapDynamoErrors(
      () =>
        db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: importKeys(companyId, whatsappId),
            UpdateExpression: 'SET finished = :now',
            ConditionExpression:
              'startedAt = :startedAt AND complete = :true AND done >= #all AND attribute_not_exists(finished)',
            ExpressionAttributeNames: { '#all': 'all' },
            ExpressionAttributeValues: { ':startedAt': startedAt, ':true': true, ':now': new Date().toISOString() },
          }),
        ),
      () => new Conflict('ERR_CONFLICT', 'not finished'),
    );
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};

/**
 * What the connection shows about its import. `from`: only while it shows one of these (a running import
 * never overwrites a newer state). False when the connection is gone or showed something else.
 */
export const setImportStatus = async (
  companyId: number,
  whatsappId: number,
  status: ImportStatus,
  options: { from?: readonly ImportStatus[] } = {},
): Promise<boolean> => {
  const from = options.from ?? [];
  try {
    await mapDynamoErrors(
      () =>
        db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: connectionKeys(companyId, whatsappId),
            UpdateExpression:
              status === ''
                ? 'SET statusImportMessages = :s, importStartedAt = :null, updatedAt = :now'
                : 'SET statusImportMessages = :s, updatedAt = :now',
            ConditionExpression:
              'attribute_exists(pk)' +
              (from.length ? ` AND statusImportMessages IN (${from.map((_, i) => `:f${i}`).join(', ')})` : ''),
            ExpressionAttributeValues: {
              ':s': status,
              ':now': new Date().toISOString(),
              ...(status === '' ? { ':null': null } : {}),
              ...Object.fromEntries(from.map((f, i) => [`:f${i}`, f])),
            },
          }),
        ),
      () => new Conflict('ERR_CONFLICT', 'import status moved'),
    );
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};

/** Remembers a ticket the import created (idempotent). */
export const recordImportedTicket = async (companyId: number, whatsappId: number, ticketId: number): Promise<void> => {
  await mapDynamoErrors(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...importedTicketKeys(companyId, whatsappId, ticketId), type: 'IMPORTED', ticketId },
      }),
    ),
  );
};

/** Tickets the import created, oldest id first, a page at a time (`after`: the last ticket id seen). */
export const listImportedTickets = async (
  companyId: number,
  whatsappId: number,
  options: { after?: number; limit: number },
): Promise<{ ticketIds: number[]; hasMore: boolean }> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression:
          options.after === undefined ? 'pk = :pk AND begins_with(sk, :p)' : 'pk = :pk AND sk BETWEEN :after AND :end',
        ExpressionAttributeValues: {
          ':pk': importPartition(companyId, whatsappId),
          ...(options.after === undefined
            ? { ':p': 'IMPORTED#' }
            : { ':after': `IMPORTED#${pad(options.after + 1)}`, ':end': 'IMPORTED#~' }),
        },
        Limit: options.limit,
      }),
    ),
  );
  return {
    ticketIds: (out.Items ?? []).map((i) => Number(i.ticketId)),
    hasMore: out.LastEvaluatedKey !== undefined,
  };
};

export const forgetImportedTicket = async (companyId: number, whatsappId: number, ticketId: number): Promise<void> => {
  await mapDynamoErrors(() =>
    db().send(new DeleteCommand({ TableName: tableName(), Key: importedTicketKeys(companyId, whatsappId, ticketId) })),
  );
};
