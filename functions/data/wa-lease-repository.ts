import {
  BatchGetCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { DomainError } from '../shared/errors';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';
import { company, pad } from './keys';

/**
 * WhatsApp worker heartbeats and connection leases (docs/data-model.md §2.10).
 * - worker `pk = WORKER, sk = <taskId>` (heartbeatAt, expiresAt as epoch ms, dead, deadAt, pid, host): one
 *   heartbeat per worker, not per lease, so 10k connections do not cost 1,000 writes a second. A worker
 *   whose `expiresAt` passed can never renew (the renewal requires `expiresAt > now`), so "expired" is final
 *   and its leases may be taken.
 * - lease `pk = C#<c>#WHATSAPP#<pad id>, sk = LEASE` (holder, fence, acquiredAt, handledCommandAt), on gsi3
 *   `WAHOLDER#<holder>` → `<pad c>#<pad id>` while held: a worker that finds a dead one Queries what it held.
 *   `fence` grows with every new holder; the holder's writes (session state, credentials) are conditional
 *   on it, so a worker that lost a lease cannot write over the next holder.
 *   `handledCommandAt` is the connection's `sessionCommandAt` the holder last carried out (decisions D24):
 *   a newer one on the connection is a command still to do, whoever holds the lease by then.
 */
export interface WorkerRecord {
  taskId: string;
  heartbeatAt: number;
  expiresAt: number;
  dead: boolean;
  deadAt?: number;
  startedAt: number;
  pid?: number;
  host?: string;
}

export interface Lease {
  companyId: number;
  whatsappId: number;
  holder: string | null;
  fence: number;
  acquiredAt?: string;
  handledCommandAt: string | null;
}

export const WORKER_PARTITION = 'WORKER';
export const workerKeys = (taskId: string) => ({ pk: WORKER_PARTITION, sk: taskId });
export const leaseKeys = (companyId: number, whatsappId: number) => ({
  pk: `${company(companyId)}#WHATSAPP#${pad(whatsappId)}`,
  sk: 'LEASE',
});
export const holderIndexKeys = (taskId: string, companyId: number, whatsappId: number) => ({
  gsi3pk: `WAHOLDER#${taskId}`,
  gsi3sk: `${pad(companyId)}#${pad(whatsappId)}`,
});

/** A worker is gone when marked dead or when its heartbeat expired (it can never renew after that). */
export const isWorkerDead = (worker: WorkerRecord | null, now = Date.now()): boolean =>
  !worker || worker.dead || worker.expiresAt <= now;

/** A condition of this module failed; callers get `false`/`null`. Never leaves this module. */
class Refused extends DomainError {
  constructor() {
    super(409, 'ERR_CONFLICT', 'condition failed');
  }
}

/** Runs a conditional write; false when its condition failed. */
const conditional = async (write: () => Promise<unknown>): Promise<boolean> => {
  try {
    await mapDynamoErrors(write, () => new Refused());
    return true;
  } catch (err) {
    if (err instanceof Refused) return false;
    throw err;
  }
};

const toWorker = (item: Record<string, unknown>): WorkerRecord => ({
  taskId: String(item.sk),
  heartbeatAt: Number(item.heartbeatAt),
  expiresAt: Number(item.expiresAt),
  dead: item.dead === true,
  ...(item.deadAt !== undefined ? { deadAt: Number(item.deadAt) } : {}),
  startedAt: Number(item.startedAt),
  ...(item.pid !== undefined ? { pid: Number(item.pid) } : {}),
  ...(item.host !== undefined ? { host: String(item.host) } : {}),
});

const toLease = (item: Record<string, unknown>): Lease => ({
  companyId: Number(item.companyId),
  whatsappId: Number(item.whatsappId),
  holder: typeof item.holder === 'string' ? item.holder : null,
  fence: Number(item.fence ?? 0),
  ...(item.acquiredAt !== undefined ? { acquiredAt: String(item.acquiredAt) } : {}),
  handledCommandAt: typeof item.handledCommandAt === 'string' ? item.handledCommandAt : null,
});

// ---------------------------------------------------------------------------------------------------------
// Workers

/** Registers a new worker with its first heartbeat. */
export const registerWorker = async (
  taskId: string,
  leaseMs: number,
  info: { pid?: number; host?: string } = {},
): Promise<WorkerRecord> => {
  const now = Date.now();
  const item = {
    ...workerKeys(taskId),
    type: 'WORKER',
    heartbeatAt: now,
    expiresAt: now + leaseMs,
    startedAt: now,
    ...info,
  };
  await mapDynamoErrors(() =>
    db().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' })),
  );
  return toWorker(item);
};

/**
 * Renews a live worker's heartbeat. Null when the worker is no longer alive (expired or marked dead):
 * others may already hold its connections, so it must close every session.
 */
export const renewWorker = async (taskId: string, leaseMs: number): Promise<{ expiresAt: number } | null> => {
  const now = Date.now();
  const ok = await conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: workerKeys(taskId),
        UpdateExpression: 'SET heartbeatAt = :now, expiresAt = :expires',
        ConditionExpression: 'attribute_exists(pk) AND expiresAt > :now AND attribute_not_exists(dead)',
        ExpressionAttributeValues: { ':now': now, ':expires': now + leaseMs },
      }),
    ),
  );
  return ok ? { expiresAt: now + leaseMs } : null;
};

/**
 * Declares a worker dead now (a graceful stop, or a sweep that found its heartbeat expired): from then on
 * its leases may be taken over. `onlyIfExpired` makes the sweep's mark conditional on the heartbeat having
 * expired. True when this call marked it.
 */
export const markWorkerDead = async (taskId: string, options: { onlyIfExpired?: boolean } = {}): Promise<boolean> => {
  const now = Date.now();
  return conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: workerKeys(taskId),
        UpdateExpression: options.onlyIfExpired
          ? 'SET dead = :true, deadAt = :now'
          : 'SET dead = :true, deadAt = :now, expiresAt = :now',
        ConditionExpression: options.onlyIfExpired
          ? 'attribute_exists(pk) AND attribute_not_exists(dead) AND expiresAt <= :now'
          : 'attribute_exists(pk) AND attribute_not_exists(dead)',
        ExpressionAttributeValues: { ':true': true, ':now': now },
      }),
    ),
  );
};

/** One worker (consistent), or null. */
export const getWorker = async (taskId: string): Promise<WorkerRecord | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: workerKeys(taskId), ConsistentRead: true })),
  );
  return out.Item ? toWorker(out.Item) : null;
};

/** Every registered worker, live and dead (consistent): tens of items, read by the sweep. */
export const listWorkers = async (): Promise<WorkerRecord[]> => {
  const workers: WorkerRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': WORKER_PARTITION },
          ConsistentRead: true,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    workers.push(...(out.Items ?? []).map(toWorker));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return workers;
};

/** Removes a dead worker's tombstone (once nothing it held is left). */
export const deleteDeadWorker = async (taskId: string): Promise<boolean> =>
  conditional(() =>
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: workerKeys(taskId),
        ConditionExpression: 'dead = :true',
        ExpressionAttributeValues: { ':true': true },
      }),
    ),
  );

// ---------------------------------------------------------------------------------------------------------
// Leases

/** The connections a worker holds, from gsi3 `WAHOLDER#<taskId>` (eventually consistent). */
export const listHeldLeases = async (taskId: string): Promise<{ companyId: number; whatsappId: number }[]> => {
  const held: { companyId: number; whatsappId: number }[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi3',
          KeyConditionExpression: 'gsi3pk = :pk',
          ExpressionAttributeValues: { ':pk': `WAHOLDER#${taskId}` },
          ProjectionExpression: 'companyId, whatsappId',
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    held.push(...(out.Items ?? []).map((i) => ({ companyId: Number(i.companyId), whatsappId: Number(i.whatsappId) })));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return held;
};

/** One connection's lease (consistent), or null when none was ever taken. */
export const getLease = async (companyId: number, whatsappId: number): Promise<Lease | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: leaseKeys(companyId, whatsappId), ConsistentRead: true })),
  );
  return out.Item ? toLease(out.Item) : null;
};

/** Several leases (consistent), keyed `<companyId>#<whatsappId>`. */
export const getLeases = async (
  connections: readonly { companyId: number; whatsappId: number }[],
): Promise<Map<string, Lease>> => {
  const found = new Map<string, Lease>();
  for (let i = 0; i < connections.length; i += 100) {
    let pending: Record<string, unknown>[] = connections
      .slice(i, i + 100)
      .map((c) => leaseKeys(c.companyId, c.whatsappId));
    for (let round = 0; pending.length > 0; round += 1) {
      if (round >= 6) throw new Error('BatchGet left leases unprocessed after retries');
      const request = pending;
      const out = await mapDynamoErrors(() =>
        db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: request, ConsistentRead: true } } })),
      );
      for (const item of out.Responses?.[tableName()] ?? []) {
        const lease = toLease(item);
        found.set(`${lease.companyId}#${lease.whatsappId}`, lease);
      }
      pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return found;
};

/**
 * Takes a connection's lease: only when nobody holds it, or (`from`) when it is still held by that dead
 * worker. The fence grows by one. Null when another worker was faster (never two holders).
 */
export const acquireLease = async (
  companyId: number,
  whatsappId: number,
  taskId: string,
  options: { from?: string | null } = {},
): Promise<Lease | null> => {
  const from = options.from ?? null;
  let attributes: Record<string, unknown> | undefined;
  const ok = await conditional(async () => {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: leaseKeys(companyId, whatsappId),
        UpdateExpression:
          'SET #type = :type, companyId = :c, whatsappId = :w, holder = :me, fence = if_not_exists(fence, :zero) + :one, ' +
          'acquiredAt = :now, gsi3pk = :g3pk, gsi3sk = :g3sk',
        ConditionExpression: from === null ? 'attribute_not_exists(holder)' : 'holder = :from',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ':type': 'WHATSAPP_LEASE',
          ':c': companyId,
          ':w': whatsappId,
          ':me': taskId,
          ':zero': 0,
          ':one': 1,
          ':now': new Date().toISOString(),
          ':g3pk': holderIndexKeys(taskId, companyId, whatsappId).gsi3pk,
          ':g3sk': holderIndexKeys(taskId, companyId, whatsappId).gsi3sk,
          ...(from === null ? {} : { ':from': from }),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    attributes = out.Attributes;
  });
  return ok && attributes ? toLease(attributes) : null;
};

/** Records the command the holder carried out. False when the lease is no longer this holder's. */
export const markCommandHandled = async (
  companyId: number,
  whatsappId: number,
  holder: { taskId: string; fence: number },
  commandAt: string,
): Promise<boolean> =>
  conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: leaseKeys(companyId, whatsappId),
        UpdateExpression: 'SET handledCommandAt = :at',
        ConditionExpression: 'holder = :me AND fence = :fence',
        ExpressionAttributeValues: { ':at': commandAt, ':me': holder.taskId, ':fence': holder.fence },
      }),
    ),
  );

/**
 * Lets a connection go (disconnected, logged out, QR attempts exhausted): nobody holds it until the next
 * command. The lease item stays, with its fence and the command handled last.
 */
export const releaseLease = async (
  companyId: number,
  whatsappId: number,
  holder: { taskId: string; fence: number },
  handledCommandAt?: string | null,
): Promise<boolean> =>
  conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: leaseKeys(companyId, whatsappId),
        UpdateExpression: `REMOVE holder, gsi3pk, gsi3sk${handledCommandAt ? ' SET handledCommandAt = :at' : ''}`,
        ConditionExpression: 'holder = :me AND fence = :fence',
        ExpressionAttributeValues: {
          ':me': holder.taskId,
          ':fence': holder.fence,
          ...(handledCommandAt ? { ':at': handledCommandAt } : {}),
        },
      }),
    ),
  );

/** Removes the lease of a deleted connection, as its holder (or when nobody holds it). */
export const deleteLease = async (
  companyId: number,
  whatsappId: number,
  holder: { taskId: string; fence: number } | null,
): Promise<boolean> =>
  conditional(() =>
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: leaseKeys(companyId, whatsappId),
        ...(holder
          ? {
              ConditionExpression: 'holder = :me AND fence = :fence',
              ExpressionAttributeValues: { ':me': holder.taskId, ':fence': holder.fence },
            }
          : { ConditionExpression: 'attribute_not_exists(holder)' }),
      }),
    ),
  );
