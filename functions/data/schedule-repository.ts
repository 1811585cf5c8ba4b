import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '../shared/errors';
import type { ScheduleStatus } from '../contracts/schedules';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { mapDynamoErrors } from './errors';
import { company, fnv1a, pad, searchForm } from './keys';
import { queryPage, type Page } from './query-page';
import { TIMER_SHARDS } from './ticket-repository';
import { queryDueBucket } from './due-index';

/**
 * Scheduled message (docs/data-model.md §2.21, §3.10; decisions D118–D119):
 * `pk = C#<c>#SCHEDULE, sk = SCHEDULE#<pad id>`, with
 * - gsi1 `C#<c>#SCHEDULE` → `<searchForm contact name>#<pad id>`: the list searched by contact name;
 * - gsi2 `C#<c>#SCHEDULE#SENDAT` → `<sendAtLocal>#<pad id>`: the list by send time on the company's clock,
 *   so a calendar month or day is a prefix (`2026-11`, `2026-11-27`);
 * - gsi4 `DUE#SCHEDULE#<hour of dueAt>#<shard>` → `<dueAt>#<pad c>#<pad id>` while PENDENTE: the minute
 *   tick reads an hour bucket up to now (`sk <= now`), so a pending schedule is read on every run until it
 *   is handled, and an outage is caught up by reading the hours missed.
 * Every state change of the sender is a whole-item Put conditional on the claim it holds (`claimToken`).
 */
export interface Schedule {
  id: number;
  companyId: number;
  body: string;
  contactId: number;
  contactName: string;
  contactNumber: string;
  /** The current occurrence, ISO UTC. */
  sendAt: string;
  /** The same on the company's clock (`YYYY-MM-DDTHH:mm`). */
  sendAtLocal: string;
  /** The first occurrence's local wall time, what the recurrence counts from. */
  startLocal: string;
  /** Index of the current occurrence in the recurrence (0 first). */
  occurrenceIndex: number;
  status: ScheduleStatus;
  sentAt: string | null;
  openTicket: 'enabled' | 'disabled';
  ticketUserId: number | null;
  queueId: number | null;
  statusTicket: 'open' | 'pending' | 'closed';
  intervalo: number;
  valorIntervalo: number;
  enviarQuantasVezes: number;
  tipoDias: number;
  assinar: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  mediaType: string | null;
  mediaSize: number | null;
  whatsappId: number | null;
  userId: number;
  sentCount: number;
  missedCount: number;
  lastError: string | null;
  /** The ticket the last occurrence went to, and that occurrence's `sendAt`. */
  ticketId: number | null;
  ticketFor: string | null;
  /** When the sender should look at it next (the occurrence, a governor deferral, a claim's lease end). */
  dueAt: string | null;
  /** The governor held the occurrence until then (lateness counts from here, D119). */
  heldUntil: string | null;
  claimedAt: string | null;
  claimToken: string | null;
  createdAt: string;
  updatedAt: string;
}

export const schedulePartition = (companyId: number): string => `${company(companyId)}#SCHEDULE`;
export const scheduleKeys = (companyId: number, id: number) => ({
  pk: schedulePartition(companyId),
  sk: `SCHEDULE#${pad(id)}`,
});
export const dueSchedulePartition = (hour: string, shard: number): string => `DUE#SCHEDULE#${hour}#${shard}`;

/** Fields stored only when set, so conditions can say `attribute_not_exists(claimToken)`. */
const NULLABLE = [
  'sentAt',
  'ticketUserId',
  'queueId',
  'mediaPath',
  'mediaName',
  'mediaType',
  'mediaSize',
  'whatsappId',
  'lastError',
  'ticketId',
  'ticketFor',
  'dueAt',
  'heldUntil',
  'claimedAt',
  'claimToken',
] as const satisfies readonly (keyof Schedule)[];

const toItem = (s: Schedule): Record<string, unknown> => ({
  ...scheduleKeys(s.companyId, s.id),
  type: 'SCHEDULE',
  ...Object.fromEntries(Object.entries(s).filter(([, v]) => v !== null)),
  gsi1pk: schedulePartition(s.companyId),
  gsi1sk: `${searchForm(s.contactName) || '~'}#${pad(s.id)}`,
  gsi2pk: `${schedulePartition(s.companyId)}#SENDAT`,
  gsi2sk: `${s.sendAtLocal}#${pad(s.id)}`,
  ...(s.status === 'PENDENTE' && s.dueAt
    ? {
        gsi4pk: dueSchedulePartition(s.dueAt.slice(0, 13), fnv1a(`${s.companyId}#${s.id}`) % TIMER_SHARDS),
        gsi4sk: `${s.dueAt}#${pad(s.companyId)}#${pad(s.id)}`,
      }
    : {}),
});

const toSchedule = (item: Record<string, unknown>): Schedule => {
  const {
    pk: _a,
    sk: _b,
    type: _t,
    gsi1pk: _c,
    gsi1sk: _d,
    gsi2pk: _e,
    gsi2sk: _f,
    gsi4pk: _g,
    gsi4sk: _h,
    ...rest
  } = item;
  const nulls = Object.fromEntries(NULLABLE.map((k) => [k, null]));
  return { ...nulls, ...rest } as unknown as Schedule;
};

export const scheduleNotFound = () => new NotFound('ERR_NO_SCHEDULE_FOUND', 'Schedule not found');

export const newScheduleId = (companyId: number): Promise<number> => nextId(companyId, 'schedule');

export const getSchedule = async (companyId: number, id: number): Promise<Schedule | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: scheduleKeys(companyId, id), ConsistentRead: true })),
  );
  return out.Item ? toSchedule(out.Item) : null;
};

export interface WriteCondition {
  expression: string;
  values?: Record<string, unknown>;
  names?: Record<string, string>;
}

/** Puts the whole schedule if `condition` holds; Conflict (ERR_CONFLICT) otherwise. */
export const putSchedule = async (s: Schedule, condition: WriteCondition): Promise<void> => {
  await mapDynamoErrors(
    () =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: toItem(s),
          ConditionExpression: condition.expression,
          ...(condition.values ? { ExpressionAttributeValues: condition.values } : {}),
          ...(condition.names ? { ExpressionAttributeNames: condition.names } : {}),
        }),
      ),
    () => new Conflict('ERR_CONFLICT', 'The schedule changed meanwhile, reload it'),
  );
};

/** A new schedule: its id must be free. */
export const createSchedule = (s: Schedule): Promise<void> =>
  putSchedule(s, { expression: 'attribute_not_exists(pk)' });

/** A person's edit: as read, never once done (`sentAt`), never while an occurrence is being sent. */
export const updateScheduleAsRead = (current: Schedule, next: Schedule): Promise<void> =>
  putSchedule(next, {
    expression: 'updatedAt = :seen AND attribute_not_exists(sentAt) AND attribute_not_exists(claimToken)',
    values: { ':seen': current.updatedAt },
  });

/** The sender's write while it holds the claim `token`. */
export const saveClaimedSchedule = (next: Schedule, token: string): Promise<void> =>
  putSchedule(next, { expression: 'claimToken = :token', values: { ':token': token } });

export const deleteSchedule = async (current: Schedule): Promise<void> => {
  await mapDynamoErrors(
    () =>
      db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: scheduleKeys(current.companyId, current.id),
          ConditionExpression: 'updatedAt = :seen',
          ExpressionAttributeValues: { ':seen': current.updatedAt },
        }),
      ),
    () => new Conflict('ERR_CONFLICT', 'The schedule changed meanwhile, reload it'),
  );
};

/**
 * A page of the company's schedules: by contact name prefix (`search`), or by local send time — the
 * newest first, or within a local `period` prefix (`2026-11`, `2026-11-27`) oldest first. O(page).
 */
export const listSchedules = async (
  companyId: number,
  q: {
    search?: string | undefined;
    period?: string | undefined;
    userId?: number | undefined;
    limit: number;
    cursor?: string | undefined;
  },
): Promise<Page<Schedule>> => {
  const filter =
    q.userId === undefined
      ? undefined
      : { expression: '#userId = :me', names: { '#userId': 'userId' }, values: { ':me': q.userId } };
  const partition = schedulePartition(companyId);
  const page = q.search
    ? await queryPage<Record<string, unknown>>({
        scope: `${partition}#S#${q.userId ?? ''}#${searchForm(q.search)}`,
        index: 'gsi1',
        partition,
        sortPrefix: searchForm(q.search),
        limit: q.limit,
        cursor: q.cursor,
        ...(filter ? { filter } : {}),
      })
    : await queryPage<Record<string, unknown>>({
        scope: `${partition}#T#${q.userId ?? ''}#${q.period ?? ''}`,
        index: 'gsi2',
        partition: `${partition}#SENDAT`,
        sortPrefix: q.period,
        limit: q.limit,
        cursor: q.cursor,
        descending: q.period === undefined,
        ...(filter ? { filter } : {}),
      });
  return { ...page, items: page.items.map(toSchedule) };
};

export interface DueSchedule {
  companyId: number;
  id: number;
  sendAt: string;
  dueAt: string;
}

/** Pending schedules due by `until` in one hour bucket (`YYYY-MM-DDTHH`, UTC): every shard, every page. */
export const listDueSchedules = async (hour: string, until: string): Promise<DueSchedule[]> =>
  (
    await queryDueBucket({
      shards: TIMER_SHARDS,
      partition: (shard) => dueSchedulePartition(hour, shard),
      projection: 'companyId, id, sendAt, dueAt',
      until: `${until}~`,
    })
  ).map((i) => ({
    companyId: Number(i.companyId),
    id: Number(i.id),
    sendAt: String(i.sendAt),
    dueAt: String(i.dueAt),
  }));
