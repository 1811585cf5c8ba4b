import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ScheduleEntry } from '../contracts/queues';
import { Conflict, Forbidden } from '../shared/errors';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { consistentGet } from './consistent-reads';
import { transactWrite } from './transactions';
import type { ChatbotOption } from '../contracts/queues';
import { mapDynamoErrors } from './errors';
import { company, pad } from './keys';

export type { ScheduleEntry } from '../contracts/queues';

/**
 * Queue (department): `pk = C#<c>#QUEUE, sk = QUEUE#<pad id>`. The spec's unique colour per company is a
 * guard item `pk = C#<c>#QUEUECOLOR, sk = <lower-cased colour>` written in the same transaction.
 */
export interface Queue {
  id: number;
  companyId: number;
  name: string;
  color: string;
  orderQueue: number | null;
  greetingMessage: string;
  outOfHoursMessage: string;
  closeTicket: boolean;
  ativarRoteador: boolean;
  tempoRoteador: number;
  integrationId: number | null;
  fileListId: number | null;
  schedules: ScheduleEntry[];
  /** The chatbot option tree (functions/core/queues/chatbot-tree.ts), stored whole with its queue. */
  chatbots: ChatbotOption[];
  /** Bumped by every update: the condition of the next one (optimistic concurrency). */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export const queueKeys = (companyId: number, id: number) => ({
  pk: `${company(companyId)}#QUEUE`,
  sk: `QUEUE#${pad(id)}`,
});
/** `#ABC` and `#aabbcc` are one colour: the guard compares the lower-case six-digit form. */
export const normalizeColor = (color: string): string => {
  const c = color.trim().toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(c);
  return short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}` : c;
};

export const queueColorKeys = (companyId: number, color: string) => ({
  pk: `${company(companyId)}#QUEUECOLOR`,
  sk: normalizeColor(color),
});

export type NewQueue = Pick<Queue, 'name' | 'color'> &
  Partial<Omit<Queue, 'id' | 'companyId' | 'name' | 'color' | 'version' | 'createdAt' | 'updatedAt'>>;

/** Plan usage: how many queues the company has (`n`), moved in the create and delete transactions. */
export const queueUsageKeys = (companyId: number) => ({ pk: `${company(companyId)}#USAGE`, sk: 'queues' });

const colorTaken = () => new Conflict('ERR_QUEUE_COLOR_ALREADY_EXISTS', 'Queue colour already in use');

/**
 * Creates a queue with its colour guard, counted against the plan's queue limit (`maxQueues`), all or
 * nothing: 409 ERR_QUEUE_COLOR_ALREADY_EXISTS when the colour is taken, 403 ERR_PLAN_LIMIT_QUEUES when the
 * plan is full — also when two admins create the last allowed queue at the same moment.
 */
export const createQueue = async (
  companyId: number,
  input: NewQueue,
  options: { maxQueues?: number; id?: number } = {},
): Promise<Queue> => {
  const id = options.id ?? (await nextId(companyId, 'queue'));
  const now = new Date().toISOString();
  const queue: Queue = {
    orderQueue: null,
    greetingMessage: '',
    outOfHoursMessage: '',
    closeTicket: false,
    ativarRoteador: false,
    tempoRoteador: 0,
    integrationId: null,
    fileListId: null,
    schedules: [],
    chatbots: [],
    ...input,
    id,
    companyId,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  const limited = options.maxQueues !== undefined;
  await transactWrite(
    [
      {
        Update: {
          Key: queueUsageKeys(companyId),
          UpdateExpression: 'ADD n :one',
          ...(limited ? { ConditionExpression: 'attribute_not_exists(n) OR n < :max' } : {}),
          ExpressionAttributeValues: { ':one': 1, ...(limited ? { ':max': options.maxQueues } : {}) },
        },
      },
      {
        Put: {
          Item: { ...queueColorKeys(companyId, queue.color), queueId: id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          Item: { ...queueKeys(companyId, id), type: 'QUEUE', ...queue },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    (failure) =>
      failure.reasons?.[0] === 'ConditionalCheckFailed'
        ? new Forbidden('ERR_PLAN_LIMIT_QUEUES', 'The plan allows no more queues', { limit: options.maxQueues })
        : failure.reasons?.[1] === 'ConditionalCheckFailed'
          ? colorTaken()
          : new Conflict('ERR_CONFLICT', 'Queue id taken, try again'),
  );
  return queue;
};

const toQueue = (item: Record<string, unknown>): Queue => {
  const { pk: _pk, sk: _sk, type: _type, ...rest } = item;
  const queue = rest as unknown as Queue;
  return { ...queue, chatbots: queue.chatbots ?? [], version: queue.version ?? 1 };
};

export const getQueue = async (companyId: number, id: number): Promise<Queue | null> => {
  const item = await consistentGet(queueKeys(companyId, id));
  return item ? toQueue(item) : null;
};

export type QueueChanges = Partial<Omit<Queue, 'id' | 'companyId' | 'version' | 'createdAt' | 'updatedAt'>>;

/**
 * Changes a queue read at `current.version`: a plain Conflict (ERR_CONFLICT, retried by CHANGED_MEANWHILE)
 * when someone else changed or deleted it meanwhile. A new colour moves the guard in the same transaction
 * (409 ERR_QUEUE_COLOR_ALREADY_EXISTS when taken).
 */
export const updateQueue = async (current: Queue, changes: QueueChanges): Promise<Queue> => {
  const next: Queue = { ...current, ...changes, version: current.version + 1, updatedAt: new Date().toISOString() };
  const recolored = normalizeColor(next.color) !== normalizeColor(current.color);
  const { companyId, id } = current;
  await transactWrite(
    [
      {
        Put: {
          Item: { ...queueKeys(companyId, id), type: 'QUEUE', ...next },
          ConditionExpression: 'attribute_exists(pk) AND (version = :v OR attribute_not_exists(version))',
          ExpressionAttributeValues: { ':v': current.version },
        },
      },
      ...(recolored
        ? [
            {
              Put: {
                Item: { ...queueColorKeys(companyId, next.color), queueId: id },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Delete: {
                Key: queueColorKeys(companyId, current.color),
                ConditionExpression: 'queueId = :id',
                ExpressionAttributeValues: { ':id': id },
              },
            },
          ]
        : []),
    ],
    (failure) => (failure.reasons?.[1] === 'ConditionalCheckFailed' ? colorTaken() : new Conflict()),
  );
  return next;
};

/** Deletes a queue read at `current.version`, its colour guard and its count against the plan. */
export const deleteQueue = async (current: Queue): Promise<void> => {
  const { companyId, id } = current;
  await transactWrite(
    [
      {
        Delete: {
          Key: queueKeys(companyId, id),
          ConditionExpression: 'version = :v OR attribute_not_exists(version)',
          ExpressionAttributeValues: { ':v': current.version },
        },
      },
      {
        Delete: {
          Key: queueColorKeys(companyId, current.color),
          ConditionExpression: 'attribute_not_exists(pk) OR queueId = :id',
          ExpressionAttributeValues: { ':id': id },
        },
      },
      {
        Update: {
          Key: queueUsageKeys(companyId),
          UpdateExpression: 'ADD n :minus',
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
    ],
    () => new Conflict(),
  );
};

export const listQueues = async (companyId: number): Promise<Queue[]> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `${company(companyId)}#QUEUE` },
      }),
    ),
  );
  return (out.Items ?? []).map(toQueue);
};
