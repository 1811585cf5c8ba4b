import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ScheduleEntry } from '../contracts/queues';
import { Conflict } from '../shared/errors';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { createItemsTogether } from './create-items';
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

export type NewQueue = Pick<Queue, 'name' | 'color'> & Partial<Omit<Queue, 'id' | 'companyId' | 'name' | 'color'>>;

export const createQueue = async (companyId: number, input: NewQueue): Promise<Queue> => {
  const id = await nextId(companyId, 'queue');
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
    ...input,
    id,
    companyId,
    createdAt: now,
    updatedAt: now,
  };
  await createItemsTogether(
    [
      { ...queueColorKeys(companyId, queue.color), queueId: id },
      { ...queueKeys(companyId, id), ...queue },
    ],
    () => new Conflict('ERR_QUEUE_COLOR_ALREADY_EXISTS', 'Queue colour already in use'),
  );
  return queue;
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
  return (out.Items ?? []).map((item) => {
    const { pk: _pk, sk: _sk, ...rest } = item;
    return rest as Queue;
  });
};
