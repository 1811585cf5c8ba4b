import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { TicketStatus } from '../contracts/tickets';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';
import { company, pad } from './keys';
import { getCompanySettingsItem } from './settings-repository';

/**
 * Dashboard aggregates (docs/data-model.md §2.30; decisions D108, D109). Each ticket contributes a fixed set
 * of counters (`ticketCounters`, a pure function of its TRACKING facts) to three items of its **creation day
 * in the company's time zone**: the company day `C#<c>#STATS#DAY / <day>`, the queue day
 * `C#<c>#STATS#QUEUEDAY / <day>#<q>` and, when it has an attendant, the user day
 * `C#<c>#STATS#USERDAY / <day>#<u>`. A write that changes the facts (create, transition, delete) moves the
 * difference of the counters in the same transaction as TRACKING, conditioned on TRACKING's `statsDay`
 * (the mark that the ticket is counted): a retried or repeated write either commits once or not at all.
 */

export interface TicketFacts {
  /** The creation day and hour (00–23) in the company's zone, fixed when the ticket was first counted. */
  day: string;
  hour: number;
  createdAt: string;
  origin: 'active' | 'passive';
  isGroup: boolean;
  status: TicketStatus;
  userId: number | null;
  queueId: number | null;
  /** First time an attendant took it (a reopen or a transfer never moves it). */
  startedAt?: string | undefined;
  /** When the attendant's work ended (`workEndAt`: first move to closed or nps; older items: the close). */
  finishedAt?: string | undefined;
  /** The contact's 0–10 score. */
  rating?: number | undefined;
}

export const STATS_STATUSES: readonly TicketStatus[] = ['open', 'pending', 'closed', 'group', 'lgpd', 'nps'];

/** Seconds from `a` to `b`, never negative. */
const seconds = (a: string, b: string): number => Math.max(0, Math.round((Date.parse(b) - Date.parse(a)) / 1000));

/** The 1–5 rating the wire shows for a 0–10 score (decisions D46). */
export const ratingOutOfFive = (score: number): number => Math.max(1, Math.ceil(score / 2));

/**
 * What one ticket adds to its day items — the one definition of every counted fact (decisions D109):
 * - `created` 1; `active`/`passive` by who started it; `groups` 1 for a group; `st_<status>` 1 for its
 *   current status; `h<hh>` 1 for its creation hour;
 * - wait (`waitSum` seconds, `waitCount`): creation to the first attendant, for tickets an attendant took
 *   (a bot or an automatic message is not an attendant; a reopen keeps the first time);
 * - support (`supportSum`, `supportCount`): first attendant to the last close, for closed tickets an
 *   attendant took;
 * - rating (`rated`, `ratingSum` 0–10, `rating5Sum` 1–5, `npsPromoters` 9–10, `npsPassives` 7–8,
 *   `npsDetractors` 0–6); `closedRated` / `closedUnrated`: closed tickets an attendant took, with and
 *   without a score.
 */
export const ticketCounters = (f: TicketFacts): Record<string, number> => {
  const c: Record<string, number> = { created: 1, [f.origin]: 1, [`st_${f.status}`]: 1 };
  c[`h${String(f.hour).padStart(2, '0')}`] = 1;
  if (f.isGroup) c.groups = 1;
  const attended = f.startedAt !== undefined && !f.isGroup;
  if (attended) {
    c.waitSum = seconds(f.createdAt, f.startedAt!);
    c.waitCount = 1;
  }
  if (attended && f.status === 'closed' && f.finishedAt !== undefined) {
    c.supportSum = seconds(f.startedAt!, f.finishedAt);
    c.supportCount = 1;
  }
  if (f.rating !== undefined) {
    c.rated = 1;
    c.ratingSum = f.rating;
    c.rating5Sum = ratingOutOfFive(f.rating);
    c[f.rating >= 9 ? 'npsPromoters' : f.rating >= 7 ? 'npsPassives' : 'npsDetractors'] = 1;
  }
  if (attended && f.status === 'closed') c[f.rating === undefined ? 'closedUnrated' : 'closedRated'] = 1;
  return c;
};

export const statsDayPartition = (companyId: number) => `${company(companyId)}#STATS#DAY`;
export const statsQueueDayPartition = (companyId: number) => `${company(companyId)}#STATS#QUEUEDAY`;
export const statsUserDayPartition = (companyId: number) => `${company(companyId)}#STATS#USERDAY`;

/** The keys a ticket's counters go to. */
const statsKeysOf = (companyId: number, f: TicketFacts) => [
  { key: { pk: statsDayPartition(companyId), sk: f.day }, attrs: { day: f.day }, type: 'STATS_DAY' },
  {
    key: { pk: statsQueueDayPartition(companyId), sk: `${f.day}#${pad(f.queueId ?? 0)}` },
    attrs: { day: f.day, queueId: f.queueId ?? 0 },
    type: 'STATS_QUEUEDAY',
  },
  ...(f.userId === null
    ? []
    : [
        {
          key: { pk: statsUserDayPartition(companyId), sk: `${f.day}#${pad(f.userId)}` },
          attrs: { day: f.day, userId: f.userId },
          type: 'STATS_USERDAY',
        },
      ]),
];

/**
 * The transaction items that move a ticket's counters from `before` to `after` (either null: not counted
 * yet / deleted): per item, ADD the difference; items whose difference is all zero are left out.
 */
export const statsUpdates = (companyId: number, before: TicketFacts | null, after: TicketFacts | null) => {
  type Delta = { key: Record<string, string>; attrs: Record<string, unknown>; type: string; d: Record<string, number> };
  const deltas = new Map<string, Delta>();
  const apply = (f: TicketFacts, sign: number) => {
    const counters = ticketCounters(f);
    for (const k of statsKeysOf(companyId, f)) {
      const id = `${k.key.pk}|${k.key.sk}`;
      const entry: Delta = deltas.get(id) ?? { key: k.key, attrs: k.attrs, type: k.type, d: {} };
      for (const [name, n] of Object.entries(counters)) entry.d[name] = (entry.d[name] ?? 0) + sign * n;
      deltas.set(id, entry);
    }
  };
  if (before) apply(before, -1);
  if (after) apply(after, 1);
  return [...deltas.values()].flatMap(({ key, attrs, type, d }) => {
    const moves = Object.entries(d).filter(([, n]) => n !== 0);
    if (moves.length === 0) return [];
    const attrNames = Object.keys(attrs);
    return [
      {
        Update: {
          Key: key,
          UpdateExpression:
            `SET #type = :type, companyId = :company, ${attrNames.map((a) => `#a_${a} = :a_${a}`).join(', ')} ` +
            `ADD ${moves.map(([name]) => `#c_${name} :c_${name}`).join(', ')}`,
          ExpressionAttributeNames: {
            '#type': 'type',
            ...Object.fromEntries(attrNames.map((a) => [`#a_${a}`, a])),
            ...Object.fromEntries(moves.map(([name]) => [`#c_${name}`, name])),
          },
          ExpressionAttributeValues: {
            ':type': type,
            ':company': companyId,
            ...Object.fromEntries(attrNames.map((a) => [`:a_${a}`, attrs[a]])),
            ...Object.fromEntries(moves.map(([name, n]) => [`:c_${name}`, n])),
          },
        },
      },
    ];
  });
};

// ------------------------------------------------------------------------------------------- time zone

const validZone = (zone: unknown): zone is string => {
  if (typeof zone !== 'string' || zone === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** How long a process keeps a company's zone: a zone change reaches the counters within this time. */
export const ZONE_CACHE_MS = 60_000;
const zones = new Map<number, { until: number; zone: Promise<string> }>();

/**
 * The company's IANA zone as stored in its settings (the default of core/settings when unset), kept for
 * ZONE_CACHE_MS so ticket and contact creates do not each read the settings item (decisions D108).
 */
export const storedTimeZone = (companyId: number, now = Date.now()): Promise<string> => {
  const cached = zones.get(companyId);
  if (cached && cached.until > now) return cached.zone;
  const zone = getCompanySettingsItem(companyId).then((item) =>
    validZone(item.timezone) ? item.timezone : 'America/Sao_Paulo',
  );
  zones.set(companyId, { until: now + ZONE_CACHE_MS, zone });
  zone.catch(() => zones.delete(companyId));
  return zone;
};

/** The day (`yyyy-mm-dd`) and hour (0–23) of an instant in a zone. */
export const zonedDayHour = (iso: string, zone: string): { day: string; hour: number } => {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const part = (t: string) => parts.find((p) => p.type === t)?.value ?? '00';
  return { day: `${part('year')}-${part('month')}-${part('day')}`, hour: Number(part('hour')) % 24 };
};

// ---------------------------------------------------------------------------------------- TRACKING facts

const optionalString = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const optionalNumber = (v: unknown): number | null => (v === undefined || v === null || v === '' ? null : Number(v));

/** The facts of a stored TRACKING item (day and hour from the item's marks, else from `zone`). */
export const factsOfTracking = (item: Record<string, unknown>, zone?: string): TicketFacts => {
  const createdAt = String(item.createdAt);
  const counted = typeof item.statsDay === 'string';
  const at = counted
    ? { day: String(item.statsDay), hour: Number(item.statsHour ?? 0) }
    : zonedDayHour(createdAt, zone ?? 'America/Sao_Paulo');
  return {
    ...at,
    createdAt,
    origin: item.origin === 'active' ? 'active' : 'passive',
    isGroup: item.isGroup === true,
    status: item.status as TicketStatus,
    userId: optionalNumber(item.userId),
    queueId: optionalNumber(item.queueId),
    startedAt: optionalString(item.startedAt),
    finishedAt: optionalString(item.workEndAt) ?? optionalString(item.finishedAt),
    rating: item.rating === undefined || item.rating === null ? undefined : Number(item.rating),
  };
};

/** A ticket's TRACKING item, read consistently (the facts a transition starts from). */
export const getTrackingItem = async (companyId: number, ticketId: number): Promise<Record<string, unknown> | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new GetCommand({
        TableName: tableName(),
        Key: { pk: `${company(companyId)}#T#${pad(ticketId)}`, sk: 'TRACKING' },
        ConsistentRead: true,
      }),
    ),
  );
  return out.Item ?? null;
};

/** What a transition adds to its TRACKING update so the counters move with it (`statsForTransition`). */
export interface TrackingStats {
  sets: string[];
  removes: string[];
  values: Record<string, unknown>;
  condition: string;
  updates: ReturnType<typeof statsUpdates>;
}

/**
 * The counters' part of a transition: the facts before (from TRACKING as read, null when the ticket was
 * never counted — it is counted now, whole) and after. `workEndAt` is when the attendant's work ended: the
 * first move to `closed` or to `nps` (waiting for the score is not support time); a reopen clears it.
 */
export const statsForTransition = async (
  companyId: number,
  tracking: Record<string, unknown>,
  next: { status: TicketStatus; userId: number | null; queueId: number | null },
  o: { opening: boolean; reopening: boolean; at: string; rating?: number | undefined },
): Promise<TrackingStats> => {
  const counted = typeof tracking.statsDay === 'string';
  const current = factsOfTracking(tracking, counted ? undefined : await storedTimeZone(companyId));
  const previousStatus = tracking.status as TicketStatus;
  const ending =
    (next.status === 'closed' || next.status === 'nps') && previousStatus !== 'nps' && previousStatus !== 'closed';
  const workEndAt = o.reopening ? undefined : ending ? o.at : current.finishedAt;
  const after: TicketFacts = {
    ...current,
    status: next.status,
    userId: next.userId,
    queueId: next.queueId,
    startedAt: current.startedAt ?? (o.opening ? o.at : undefined),
    finishedAt: workEndAt,
    rating: o.rating ?? current.rating,
  };
  const before = counted ? current : null;
  const sets: string[] = [];
  const removes: string[] = [];
  const values: Record<string, unknown> = {};
  if (ending) {
    sets.push('workEndAt = :workEndAt');
    values[':workEndAt'] = o.at;
  } else if (o.reopening) {
    removes.push('workEndAt');
  }
  if (!counted) {
    sets.push('statsDay = :statsDay', 'statsHour = :statsHour');
    Object.assign(values, { ':statsDay': current.day, ':statsHour': current.hour });
  } else {
    values[':statsDay'] = current.day;
  }
  return {
    sets,
    removes,
    values,
    condition: counted ? 'statsDay = :statsDay' : 'attribute_not_exists(statsDay)',
    updates: statsUpdates(companyId, before, after),
  };
};

/** The counters' part of a delete: the ticket's whole contribution leaves, if it was counted. */
export const statsForDelete = (companyId: number, tracking: Record<string, unknown> | null) => {
  if (!tracking || typeof tracking.statsDay !== 'string') {
    return { condition: 'attribute_not_exists(statsDay)', values: {}, updates: [] };
  }
  const facts = factsOfTracking(tracking);
  return {
    condition: 'statsDay = :statsDay',
    values: { ':statsDay': facts.day },
    updates: statsUpdates(companyId, facts, null),
  };
};

/** The TRACKING marks and counters of a new ticket (counted at creation). */
export const statsForCreate = async (
  companyId: number,
  t: Omit<TicketFacts, 'day' | 'hour'>,
): Promise<{ marks: { statsDay: string; statsHour: number }; updates: ReturnType<typeof statsUpdates> }> => {
  const { day, hour } = zonedDayHour(t.createdAt, await storedTimeZone(companyId));
  return { marks: { statsDay: day, statsHour: hour }, updates: statsUpdates(companyId, null, { ...t, day, hour }) };
};

/**
 * A new contact (not a group) is a lead of its creation day (decisions D109): the company day's `leads`
 * moves in the contact's create transaction, so it counts once.
 */
export const leadUpdate = async (companyId: number, createdAt: string, leads = 1) => {
  const { day } = zonedDayHour(createdAt, await storedTimeZone(companyId));
  return {
    Update: {
      Key: { pk: statsDayPartition(companyId), sk: day },
      UpdateExpression: 'SET #type = :type, companyId = :company, #day = :day ADD leads :one',
      ExpressionAttributeNames: { '#type': 'type', '#day': 'day' },
      ExpressionAttributeValues: { ':type': 'STATS_DAY', ':company': companyId, ':day': day, ':one': leads },
    },
  };
};

// ----------------------------------------------------------------------------------------------- reads

export interface DayRow {
  day: string;
  counters: Record<string, number>;
}
export interface KeyedDayRow extends DayRow {
  id: number;
}

const NOT_COUNTERS = new Set(['pk', 'sk', 'type', 'companyId', 'day', 'queueId', 'userId']);
const countersOf = (item: Record<string, unknown>): Record<string, number> =>
  Object.fromEntries(
    Object.entries(item)
      .filter(([k, v]) => !NOT_COUNTERS.has(k) && typeof v === 'number')
      .map(([k, v]) => [k, Number(v)]),
  );

const queryRange = async (pk: string, from: string, to: string): Promise<Record<string, unknown>[]> => {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': pk, ':from': from, ':to': to },
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    items.push(...(out.Items ?? []));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return items;
};

/** Company day items between two days (inclusive): O(days). */
export const readCompanyDays = async (companyId: number, from: string, to: string): Promise<DayRow[]> =>
  (await queryRange(statsDayPartition(companyId), from, to)).map((i) => ({
    day: String(i.sk),
    counters: countersOf(i),
  }));

/** Queue day items between two days: O(days × queues with tickets). */
export const readQueueDays = async (companyId: number, from: string, to: string): Promise<KeyedDayRow[]> =>
  (await queryRange(statsQueueDayPartition(companyId), `${from}#`, `${to}#~`)).map((i) => ({
    day: String(i.day),
    id: Number(i.queueId),
    counters: countersOf(i),
  }));

/** User day items between two days: O(days × attendants with tickets). */
export const readUserDays = async (companyId: number, from: string, to: string): Promise<KeyedDayRow[]> =>
  (await queryRange(statsUserDayPartition(companyId), `${from}#`, `${to}#~`)).map((i) => ({
    day: String(i.day),
    id: Number(i.userId),
    counters: countersOf(i),
  }));
