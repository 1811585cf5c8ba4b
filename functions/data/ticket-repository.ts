import { randomUUID } from 'node:crypto';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../shared/errors';
import type { TicketChannel, TicketStatus } from '../contracts/tickets';
import { db, tableName } from './client';
import { transactWrite } from './transactions';
import { consistentGet, consistentGetAhead, type ReadAhead } from './consistent-reads';
import { contactPartition } from './contact-repository';
import { tagCountDowns } from './tag-repository';
import { nextId } from './counter-repository';
import { mapDynamoErrors } from './errors';
import { company, fnv1a, pad } from './keys';
import { newUlid } from './ulids';
import {
  getTrackingItem,
  statsForCreate,
  statsForDelete,
  statsForTransition,
  type TrackingStats,
} from './ticket-stats';
import { queryDueBucket } from './due-index';

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
export type { TicketChannel, TicketStatus } from '../contracts/tickets';

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
  /**
   * The chatbot's place (decisions D91): the stage (`queues` menu or the queue's `chatbot`), the option path
   * in the queue's tree, and the provider id of the customer message it last answered (a redelivery of that
   * message changes nothing). Internal: never on the wire.
   */
  botStage?: 'queues' | 'chatbot' | null;
  botPath?: number[];
  botTrigger?: string;
  /** The contact's rating, 1–5 on the wire (from the 0–10 score kept on TRACKING), once given. */
  userRating?: number | null;
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

export const toTicket = (item: Record<string, unknown>): Ticket => {
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
  const item = await consistentGet(ticketKeys(companyId, id));
  return item ? toTicket(item) : null;
};

/** The contact's not-closed ticket on a connection (the guard, read consistently), or null. */
export const getOpenTicketId = async (
  companyId: number,
  contactId: number,
  whatsappId: number,
  readAhead?: ReadAhead,
): Promise<number | null> => {
  const item = await consistentGetAhead(openTicketGuardKeys(companyId, contactId, whatsappId), readAhead);
  return item ? Number(item.ticketId) : null;
};

/** Starts reading a contact's open-ticket guard, for `getOpenTicketId` with `readAhead`. */
export const readOpenTicketAhead = (
  readAhead: ReadAhead,
  companyId: number,
  contactId: number,
  whatsappId: number,
): void => readAhead.prefetch(openTicketGuardKeys(companyId, contactId, whatsappId));

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
  // Counted at creation (decisions D108): startedAt when an attendant creates it already taken.
  const startedAt = ticket.userId !== null && ticket.status !== 'pending' ? at : undefined;
  const stats = await statsForCreate(companyId, { ...ticket, origin, createdAt: at, startedAt });
  const put = (Item: Record<string, unknown>, guard = true) => ({
    Put: { TableName: tableName(), Item, ...(guard ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}) },
  });
  await transactWrite(
    [
      {
        Put: {
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
        // The ticket timers (decisions D95): a new ticket is looked at by the next tick, which arms its deadlines.
        changedAt: at,
        ...(ticket.status === 'closed' ? {} : { nextTimerAt: at, ...timerKeys(companyId, id, at) }),
        ...(startedAt ? { startedAt } : {}),
        ...stats.marks,
      }),
      put({ ...ticketUuidKeys(companyId, ticket.uuid), type: 'TUUID', companyId, ticketId: id }),
      ...liveCountUpdates(companyId, null, ticket),
      ...stats.updates,
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
    (failure) =>
      new OtherOpenTicket(
        failure.reasons?.[0] === 'ConditionalCheckFailed' && failure.item?.ticketId !== undefined
          ? Number(failure.item.ticketId)
          : null,
      ),
  );
  return ticket;
};

/** Live counts (data-model §2.30 `C#<c>#STATS#NOW`): tickets per queue × status and attendant × status. */
export const liveCountsPartition = (companyId: number): string => `${company(companyId)}#STATS#NOW`;
export const queueCountKey = (queueId: number | null, status: TicketStatus): string =>
  `Q#${pad(queueId ?? 0)}#${status}`;
export const userCountKey = (userId: number, status: TicketStatus): string => `U#${pad(userId)}#${status}`;

type CountedTicket = Pick<Ticket, 'queueId' | 'userId' | 'status'>;
const countKeysOf = (t: CountedTicket): string[] => [
  queueCountKey(t.queueId, t.status),
  ...(t.userId === null ? [] : [userCountKey(t.userId, t.status)]),
];

/**
 * The live-count moves of a change from `before` to `after` (either null for a create or a delete), as
 * transaction items: ADD −1 on the old keys and +1 on the new ones, nothing for keys both share. Counts are
 * moved in the same transaction as the ticket, so they are exact (decisions D43).
 */
export const liveCountUpdates = (companyId: number, before: CountedTicket | null, after: CountedTicket | null) => {
  const delta = new Map<string, number>();
  for (const k of before ? countKeysOf(before) : []) delta.set(k, (delta.get(k) ?? 0) - 1);
  for (const k of after ? countKeysOf(after) : []) delta.set(k, (delta.get(k) ?? 0) + 1);
  return [...delta]
    .filter(([, n]) => n !== 0)
    .map(([sk, n]) => ({
      Update: {
        TableName: tableName(),
        Key: { pk: liveCountsPartition(companyId), sk },
        UpdateExpression: 'SET #type = :type ADD n :n',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':type': 'LIVE_COUNT', ':n': n },
      },
    }));
};

/** The live counts for these keys (`queueCountKey`/`userCountKey`), missing ones as 0. */
export const getLiveCounts = async (companyId: number, keys: readonly string[]): Promise<Map<string, number>> => {
  const counts = new Map<string, number>(keys.map((k) => [k, 0]));
  const unique = [...new Set(keys)];
  for (let i = 0; i < unique.length; i += 100) {
    let pending: Record<string, unknown>[] = unique
      .slice(i, i + 100)
      .map((sk) => ({ pk: liveCountsPartition(companyId), sk }));
    for (let attempt = 0; pending.length > 0 && attempt < 8; attempt += 1) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      const out = await mapDynamoErrors(() =>
        db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } })),
      );
      for (const item of out.Responses?.[tableName()] ?? []) counts.set(String(item.sk), Math.max(0, Number(item.n)));
      pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return counts;
};

const logItem = (ticket: Pick<Ticket, 'companyId' | 'id'>, entry: TicketLogEntry, time: number) => ({
  Put: {
    TableName: tableName(),
    Item: {
      pk: ticketPartition(ticket.companyId, ticket.id),
      sk: `LOG#${newUlid(time)}`,
      type: 'TICKET_LOG',
      companyId: ticket.companyId,
      ticketId: ticket.id,
      logType: entry.type,
      userId: entry.userId,
      queueId: entry.queueId,
      createdAt: entry.createdAt,
    },
  },
});

export interface TicketChange {
  status: TicketStatus;
  userId: number | null;
  queueId: number | null;
  /** Extra ticket fields the transition sets (amountUsedBotQueues, useIntegration, isBot, ...). */
  fields?: Partial<
    Pick<
      Ticket,
      | 'amountUsedBotQueues'
      | 'useIntegration'
      | 'isBot'
      | 'integrationId'
      | 'promptId'
      | 'userRating'
      | 'botStage'
      | 'botPath'
      | 'botTrigger'
      | 'firstProviderId'
    >
  >;
  /**
   * The ticket's timer: when it fires, on TRACKING and in the due index (gsi4 `DUE#TIMER#<minute>#<s>`).
   * Without it a transition arms the timer at once, so the next tick plans the ticket's deadlines in its new
   * state (decisions D95). A close always clears it.
   */
  timerAt?: string;
  /** The contact's 0–10 score, kept on TRACKING with its time. */
  rating?: number;
  /** Log entries, in order (`userId` null for the system). */
  logs: Omit<TicketLogEntry, 'createdAt'>[];
}

/** The ticket changed (or is gone) since the caller read it: `current` is what it is now, if anything. */
/** Due-timer shards (data-model §1.5 gsi4): ticks read all of them. */
export const TIMER_SHARDS = 8;
export const dueTimerPartition = (minute: string, shard: number): string => `DUE#TIMER#${minute}#${shard}`;
const timerKeys = (companyId: number, id: number, at: string) => ({
  gsi4pk: dueTimerPartition(at.slice(0, 16), fnv1a(`${companyId}#${id}`) % TIMER_SHARDS),
  gsi4sk: `${pad(companyId)}#${pad(id)}`,
});

/** The TRACKING half of a transition: status, people, times, the timer and the rating. */
const trackingUpdate = (
  companyId: number,
  id: number,
  next: Ticket,
  o: { closing: boolean; reopening: boolean; opening: boolean; at: string; change: TicketChange; stats: TrackingStats },
) => {
  const sets = ['#status = :status', 'userId = :user', 'queueId = :queue', 'changedAt = :at'];
  const removes: string[] = [];
  const values: Record<string, unknown> = {
    ':status': next.status,
    ':user': next.userId,
    ':queue': next.queueId,
    ':at': o.at,
  };
  if (o.closing) sets.push('finishedAt = :at');
  if (o.opening) sets.push('startedAt = if_not_exists(startedAt, :at)');
  if (o.reopening) removes.push('finishedAt');
  if (next.status === 'closed') {
    removes.push('nextTimerAt', 'gsi4pk', 'gsi4sk');
  } else {
    // Decisions D95: the caller's deadline, or "now" — the next tick plans the ticket in its new state.
    const timerAt = o.change.timerAt ?? o.at;
    const keys = timerKeys(companyId, id, timerAt);
    sets.push('nextTimerAt = :timer', 'gsi4pk = :g4pk', 'gsi4sk = :g4sk');
    Object.assign(values, { ':timer': timerAt, ':g4pk': keys.gsi4pk, ':g4sk': keys.gsi4sk });
  }
  if (o.change.rating !== undefined) {
    sets.push('rating = :rating', 'ratingAt = :ratedAt');
    Object.assign(values, { ':rating': o.change.rating, ':ratedAt': o.at });
  }
  sets.push(...o.stats.sets);
  removes.push(...o.stats.removes);
  Object.assign(values, o.stats.values);
  return {
    Update: {
      TableName: tableName(),
      Key: trackingKeys(companyId, id),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: o.stats.condition,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: values,
    },
  };
};

/** Tickets whose timer falls in this minute (`yyyy-mm-ddThh:mm`, UTC): every shard, every page. */
export const listDueTimers = async (minute: string): Promise<{ companyId: number; ticketId: number; at: string }[]> =>
  (
    await queryDueBucket({
      shards: TIMER_SHARDS,
      partition: (shard) => dueTimerPartition(minute, shard),
      projection: 'companyId, ticketId, nextTimerAt',
    })
  ).map((i) => ({ companyId: Number(i.companyId), ticketId: Number(i.ticketId), at: String(i.nextTimerAt) }));

/** What the timers keep on TRACKING (decisions D95): the armed time, the last transition, the notice mark. */
export interface TicketTimerState {
  nextTimerAt: string | null;
  /** The last transition (or the creation): state timers (bot, redirect, NPS) count from it. */
  changedAt: string | null;
  /** The customer silence (their last message's time) the inactivity notice was sent for. */
  inactiveFor: string | null;
}

export const getTicketTimerState = async (companyId: number, id: number): Promise<TicketTimerState | null> => {
  const item = await consistentGet(trackingKeys(companyId, id));
  if (!item) return null;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return { nextTimerAt: text(item.nextTimerAt), changedAt: text(item.changedAt), inactiveFor: text(item.inactiveFor) };
};

/**
 * Moves (or, with `next` null, removes) a ticket's timer, conditional on it still being the one the tick
 * read (`seen`): a transition that re-armed it meanwhile wins. `inactiveFor` records, in the same write,
 * the silence an inactivity notice was sent for. Answers false when the timer had moved on.
 */
export const rearmTicketTimer = async (
  companyId: number,
  id: number,
  seen: string,
  next: string | null,
  inactiveFor?: string,
): Promise<boolean> => {
  const sets: string[] = [];
  const values: Record<string, unknown> = { ':seen': seen };
  if (next !== null) {
    const keys = timerKeys(companyId, id, next);
    sets.push('nextTimerAt = :next', 'gsi4pk = :g4pk', 'gsi4sk = :g4sk');
    Object.assign(values, { ':next': next, ':g4pk': keys.gsi4pk, ':g4sk': keys.gsi4sk });
  }
  if (inactiveFor !== undefined) {
    sets.push('inactiveFor = :inactive');
    values[':inactive'] = inactiveFor;
  }
  const update =
    (sets.length ? `SET ${sets.join(', ')}` : '') + (next === null ? ' REMOVE nextTimerAt, gsi4pk, gsi4sk' : '');
  try {
    await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: trackingKeys(companyId, id),
          UpdateExpression: update.trim(),
          ConditionExpression: 'nextTimerAt = :seen',
          ExpressionAttributeValues: values,
        }),
      ),
    );
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};

export class TicketChanged extends Conflict {
  constructor() {
    super('ERR_CONFLICT', 'The ticket changed meanwhile, reload it');
  }
}

/**
 * Moves a ticket to a new status / attendant / queue in one transaction, conditional on the status and
 * version the caller read (data-model §2.14), so of two attendants accepting the same pending ticket
 * exactly one commits and the other gets `TicketChanged`. Closing removes the contact's open-ticket guard
 * and records `LAST#<w>`; reopening a closed ticket puts the guard back (`OtherOpenTicket` when the contact
 * has another not-closed ticket on the connection). The tracking record, the log entries and the live
 * counts move in the same transaction. `updatedAt` becomes now: a transition puts the ticket on top.
 */
export const transitionTicket = async (ticket: Ticket, change: TicketChange, now = new Date()): Promise<Ticket> => {
  const at = now.toISOString();
  const next: Ticket = {
    ...ticket,
    ...change.fields,
    status: change.status,
    userId: change.userId,
    queueId: change.queueId,
    updatedAt: at,
    version: ticket.version + 1,
  };
  const { companyId, id } = ticket;
  const lists = ticketListKeys(next);
  const fields = Object.entries(change.fields ?? {});
  const closing = ticket.status !== 'closed' && next.status === 'closed';
  const reopening = ticket.status === 'closed' && next.status !== 'closed';
  const opening = next.userId !== null && next.userId !== ticket.userId && next.status !== 'closed';
  const tracking = await getTrackingItem(companyId, id);
  const stats: TrackingStats = tracking
    ? await statsForTransition(companyId, tracking, next, { opening, reopening, at, rating: change.rating })
    : { sets: [], removes: [], values: {}, condition: 'attribute_not_exists(statsDay)', updates: [] };
  const guard = reopening
    ? [
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
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
          },
        },
      ]
    : [];
  const items = [
    ...guard,
    {
      Update: {
        TableName: tableName(),
        Key: ticketKeys(companyId, id),
        UpdateExpression:
          'SET #status = :status, userId = :user, queueId = :queue, updatedAt = :at, version = :next, ' +
          'gsi1pk = :g1pk, gsi1sk = :g1sk' +
          (lists.gsi2pk ? ', gsi2pk = :g2pk, gsi2sk = :g2sk' : '') +
          fields.map(([k]) => `, #f_${k} = :f_${k}`).join('') +
          (lists.gsi2pk ? '' : ' REMOVE gsi2pk, gsi2sk'),
        ConditionExpression: '#status = :from AND version = :v',
        ExpressionAttributeNames: {
          '#status': 'status',
          ...Object.fromEntries(fields.map(([k]) => [`#f_${k}`, k])),
        },
        ExpressionAttributeValues: {
          ':status': next.status,
          ':user': next.userId,
          ':queue': next.queueId,
          ':at': at,
          ':next': next.version,
          ':g1pk': lists.gsi1pk,
          ':g1sk': lists.gsi1sk,
          ':from': ticket.status,
          ':v': ticket.version,
          ...(lists.gsi2pk ? { ':g2pk': lists.gsi2pk, ':g2sk': lists.gsi2sk } : {}),
          ...Object.fromEntries(fields.map(([k, v]) => [`:f_${k}`, v])),
        },
      },
    },
    ...(closing
      ? [
          {
            Delete: {
              TableName: tableName(),
              Key: openTicketGuardKeys(companyId, ticket.contactId, ticket.whatsappId),
              ConditionExpression: 'attribute_not_exists(pk) OR ticketId = :id',
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
        ]
      : []),
    trackingUpdate(companyId, id, next, { closing, reopening, opening, at, change, stats }),
    ...change.logs.map((entry, i) => logItem(ticket, { ...entry, createdAt: at }, now.getTime() + i)),
    ...liveCountUpdates(companyId, ticket, next),
    ...stats.updates,
  ];
  await transactWrite(items, (failure) =>
    reopening && failure.reasons?.[0] === 'ConditionalCheckFailed'
      ? new OtherOpenTicket(failure.item?.ticketId === undefined ? null : Number(failure.item.ticketId))
      : new TicketChanged(),
  );
  return next;
};

/**
 * Ids of up to `limit` tickets in one queue × status list (gsi1, the list's own partition): a deleted
 * queue's tickets are found this way, a page at a time, as each one leaves the list.
 */
export const listQueueTicketIds = async (
  companyId: number,
  queueId: number,
  status: TicketStatus,
  limit: number,
): Promise<number[]> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: {
          ':pk': ticketListKeys({ companyId, id: 0, queueId, userId: null, status, updatedAt: '' }).gsi1pk,
        },
        ProjectionExpression: 'id',
        Limit: limit,
      }),
    ),
  );
  return (out.Items ?? []).map((i) => Number(i.id));
};

/** Closes a ticket (resolve, ignore, close-all): `transitionTicket` to `closed` with a `closed` log entry. */
export const closeTicket = async (
  ticket: Ticket,
  options: { userId?: number | null; now?: Date; fields?: TicketChange['fields'] } = {},
): Promise<Ticket> =>
  transitionTicket(
    ticket,
    {
      status: 'closed',
      userId: ticket.userId,
      queueId: ticket.queueId,
      ...(options.fields ? { fields: options.fields } : {}),
      logs: [{ type: 'closed', userId: options.userId ?? null, queueId: ticket.queueId }],
    },
    options.now,
  );

/**
 * Deletes a ticket's live items in one transaction — TICKET, TRACKING, the uuid pointer and, unless closed,
 * the contact's open-ticket guard — with its live counts, conditional on the version the caller read.
 * Its messages and log go afterwards (`purgeTicketPartition`).
 */
export const deleteTicketItems = async (ticket: Ticket): Promise<void> => {
  const { companyId, id } = ticket;
  const stats = statsForDelete(companyId, await getTrackingItem(companyId, id));
  // The tags count the ticket no more (D100); its link items go with the partition's purge.
  const tagCounts = await tagCountDowns(companyId, ticket.tagIds ?? [], 'ticketCount');
  await transactWrite(
    [
      ...tagCounts,
      {
        Delete: {
          Key: ticketKeys(companyId, id),
          ConditionExpression: 'version = :v',
          ExpressionAttributeValues: { ':v': ticket.version },
        },
      },
      {
        Delete: {
          Key: trackingKeys(companyId, id),
          ConditionExpression: stats.condition,
          ...(Object.keys(stats.values).length ? { ExpressionAttributeValues: stats.values } : {}),
        },
      },
      ...stats.updates,
      { Delete: { Key: ticketUuidKeys(companyId, ticket.uuid) } },
      ...(ticket.status === 'closed'
        ? []
        : [
            {
              Delete: {
                Key: openTicketGuardKeys(companyId, ticket.contactId, ticket.whatsappId),
                ConditionExpression: 'attribute_not_exists(pk) OR ticketId = :id',
                ExpressionAttributeValues: { ':id': id },
              },
            },
          ]),
      ...liveCountUpdates(companyId, ticket, null),
    ],
    () => new TicketChanged(),
  );
};

/**
 * Removes what is left in a deleted ticket's partition (messages — and with them their contact-history
 * index entries —, log, tags), 25 keys per BatchWrite. O(items of the ticket), run once after a delete.
 */
export const purgeTicketPartition = async (companyId: number, ticketId: number): Promise<number> => {
  let removed = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': ticketPartition(companyId, ticketId) },
          ProjectionExpression: 'pk, sk',
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    const keys = (out.Items ?? []).map((i) => ({ pk: i.pk, sk: i.sk }));
    for (let i = 0; i < keys.length; i += 25) {
      let pending = keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
      for (let attempt = 0; pending.length > 0 && attempt < 8; attempt += 1) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
        const res = await mapDynamoErrors(() =>
          db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } })),
        );
        pending = (res.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
      }
    }
    removed += keys.length;
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return removed;
};

/**
 * Records that a user opened a ticket (`access` log entry), at most once per user per ticket per hour:
 * a marker item `ACCESS#<userId>` holds the last time, written conditionally with the entry.
 */
export const recordTicketAccess = async (
  ticket: Pick<Ticket, 'companyId' | 'id' | 'queueId'>,
  userId: number,
  now = new Date(),
): Promise<boolean> => {
  const at = now.toISOString();
  const hourAgo = new Date(now.getTime() - 3_600_000).toISOString();
  try {
    await transactWrite([
      {
        Put: {
          Item: {
            pk: ticketPartition(ticket.companyId, ticket.id),
            sk: `ACCESS#${pad(userId)}`,
            type: 'TICKET_ACCESS',
            companyId: ticket.companyId,
            at,
          },
          ConditionExpression: 'attribute_not_exists(pk) OR #at < :hourAgo',
          ExpressionAttributeNames: { '#at': 'at' },
          ExpressionAttributeValues: { ':hourAgo': hourAgo },
        },
      },
      logItem(ticket, { type: 'access', userId, queueId: ticket.queueId, createdAt: at }, now.getTime()),
    ]);
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
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

/** The contact's last closed ticket on a connection and when it closed (`LAST#<w>`), or null. */
export const getLastClosedTicket = async (
  companyId: number,
  contactId: number,
  whatsappId: number,
): Promise<{ ticketId: number; closedAt: string } | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: lastTicketKeys(companyId, contactId, whatsappId) })),
  );
  return out.Item ? { ticketId: Number(out.Item.ticketId), closedAt: String(out.Item.closedAt) } : null;
};
