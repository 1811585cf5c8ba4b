import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CampaignStatus } from '../contracts/campaigns';
import { Conflict, NotFound } from '../shared/errors';
import { BUSY, withRetry } from '../shared/retry';
import { batchWriteAll } from './batch-write';
import { db, tableName } from './client';
import { contactPartition } from './contact-repository';
import { nextId } from './counter-repository';
import { queryDueBucket } from './due-index';
import { mapDynamoErrors } from './errors';
import { company, fnv1a, pad, searchForm } from './keys';
import { queryPage, type Page } from './query-page';
import { TIMER_SHARDS } from './ticket-repository';
import { transactWrite, type TransactItem } from './transactions';

/**
 * Campaigns and their shipments (docs/data-model.md §2.22, §3.9; decisions D133–D134):
 * - campaign `pk = C#<c>#CAMPAIGN, sk = CAMPAIGN#<pad id>`, by name on gsi1 `C#<c>#CAMPAIGN` →
 *   `<sf name>#<pad id>`; while it has waves to run, on the due index gsi4 `DUE#CAMPAIGN#<UTC hour of
 *   dueAt>#<shard>` → `<dueAt>#<pad c>#<pad id>` (the minute tick reads an hour bucket up to now, like
 *   scheduled messages, D119). It carries the progress counters, each moved in the same transaction as the
 *   shipment write it counts, so they are exact and the report reads one item.
 * - shipment (the outbox) `pk = C#<c>#CAMPAIGN#<pad id>, sk = SHIP#<number>`: one per (campaign, number),
 *   created `attribute_not_exists` while the audience is read, claimed by a conditional write before its
 *   send, and finished with the campaign's counters in one transaction.
 * - reply marker `pk = C#<c>#CT#<pad contactId>, sk = CAMPAIGNREPLY` (ttl 7 days): the campaign that last
 *   reached the contact, so the inbound pipeline records a reply or a confirmation with one Get.
 * The editable fields are written with an Update of those fields only, so a person's edit never rewrites
 * the counters the senders move.
 */
export type CampaignPhase = 'materialize' | 'dispatch' | 'sent';
export type ShipmentStatus = 'PENDING' | 'SENDING' | 'DELIVERED' | 'REQUESTED' | 'FAILED';

export const VARIANT_NUMBERS = [1, 2, 3, 4, 5] as const;

export interface Campaign {
  id: number;
  companyId: number;
  name: string;
  message1: string;
  message2: string;
  message3: string;
  message4: string;
  message5: string;
  confirmationMessage1: string;
  confirmationMessage2: string;
  confirmationMessage3: string;
  confirmationMessage4: string;
  confirmationMessage5: string;
  status: CampaignStatus;
  confirmation: boolean;
  scheduledAt: string | null;
  completedAt: string | null;
  contactListId: number | null;
  tagListId: number | null;
  whatsappId: number;
  userId: number | null;
  queueId: number | null;
  statusTicket: 'closed' | 'pending' | 'open';
  openTicket: 'enabled' | 'disabled';
  mediaKey: string | null;
  mediaName: string | null;
  mediaType: string | null;
  mediaSize: number | null;
  lastError: string | null;
  /** materialize: shipments are being made from the audience; dispatch: being sent; sent: all handed out. */
  phase: CampaignPhase;
  /** The audience page cursor (contact list or tag) where materialising continues. */
  audienceCursor: string | null;
  /** The last shipment sort key a wave handed to the queue. */
  sendCursor: string | null;
  /** Bumped by every wave's claim; every write of the wave is conditional on it. */
  waveSeq: number;
  /** When the next wave is due (or a claimed wave's lease ends); on gsi4 while set. */
  dueAt: string | null;
  validContacts: number;
  done: number;
  delivered: number;
  failed: number;
  confirmationRequested: number;
  confirmed: number;
  read: number;
  replied: number;
  /** Per variant n: `contacts<n>`, `delivered<n>`, `read<n>`, `replied<n>`. */
  variantCounts: Record<string, number>;
  createdAt: string;
  updatedAt: string;
}

export interface Shipment {
  campaignId: number;
  companyId: number;
  number: string;
  name: string;
  email: string;
  /** 1..5 */
  variant: number;
  /** The list item's WhatsApp check (null: not checked). */
  isWhatsappValid: boolean | null;
  contactId: number | null;
  status: ShipmentStatus;
  claimToken: string | null;
  claimedAt: string | null;
  ticketId: number | null;
  deliveredAt: string | null;
  confirmationRequestedAt: string | null;
  confirmedAt: string | null;
  readAt: string | null;
  repliedAt: string | null;
  error: string | null;
}

export const campaignPartition = (companyId: number): string => `${company(companyId)}#CAMPAIGN`;
export const campaignKeys = (companyId: number, id: number) => ({
  pk: campaignPartition(companyId),
  sk: `CAMPAIGN#${pad(id)}`,
});
export const shipmentPartition = (companyId: number, campaignId: number): string =>
  `${campaignPartition(companyId)}#${pad(campaignId)}`;
export const shipmentKeys = (companyId: number, campaignId: number, number: string) => ({
  pk: shipmentPartition(companyId, campaignId),
  sk: `SHIP#${number}`,
});
export const replyMarkerKeys = (companyId: number, contactId: number) => ({
  pk: contactPartition(companyId, contactId),
  sk: 'CAMPAIGNREPLY',
});
export const dueCampaignPartition = (hour: string, shard: number): string => `DUE#CAMPAIGN#${hour}#${shard}`;
const dueKeys = (companyId: number, id: number, dueAt: string) => ({
  gsi4pk: dueCampaignPartition(dueAt.slice(0, 13), fnv1a(`${companyId}#${id}`) % TIMER_SHARDS),
  gsi4sk: `${dueAt}#${pad(companyId)}#${pad(id)}`,
});

export const campaignNotFound = () => new NotFound('ERR_NO_CAMPAIGN_FOUND', 'Campaign not found');
const changedMeanwhile = () => new Conflict('ERR_CONFLICT', 'The campaign changed meanwhile, reload it');

const COUNTERS = [
  'validContacts',
  'done',
  'delivered',
  'failed',
  'confirmationRequested',
  'confirmed',
  'read',
  'replied',
];
const VARIANT_COUNTER = /^(contacts|delivered|read|replied)[1-5]$/;
const NULLABLE = [
  'scheduledAt',
  'completedAt',
  'contactListId',
  'tagListId',
  'userId',
  'queueId',
  'mediaKey',
  'mediaName',
  'mediaType',
  'mediaSize',
  'lastError',
  'audienceCursor',
  'sendCursor',
  'dueAt',
] as const;

const toCampaign = (item: Record<string, unknown>): Campaign => {
  const variantCounts: Record<string, number> = {};
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) {
    if (VARIANT_COUNTER.test(k)) variantCounts[k] = Number(v);
    else if (!['pk', 'sk', 'type', 'gsi1pk', 'gsi1sk', 'gsi4pk', 'gsi4sk'].includes(k)) rest[k] = v;
  }
  const nulls = Object.fromEntries(NULLABLE.map((k) => [k, null]));
  const zeros = Object.fromEntries(COUNTERS.map((k) => [k, 0]));
  return { ...nulls, ...zeros, ...rest, variantCounts } as unknown as Campaign;
};

const toItem = (c: Campaign): Record<string, unknown> => {
  const { variantCounts, ...rest } = c;
  return {
    ...campaignKeys(c.companyId, c.id),
    type: 'CAMPAIGN',
    ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== null)),
    ...variantCounts,
    gsi1pk: campaignPartition(c.companyId),
    gsi1sk: `${searchForm(c.name) || '~'}#${pad(c.id)}`,
    ...(c.dueAt ? dueKeys(c.companyId, c.id, c.dueAt) : {}),
  };
};

export const newCampaignId = (companyId: number): Promise<number> => nextId(companyId, 'campaign');

export const getCampaign = async (companyId: number, id: number): Promise<Campaign | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: campaignKeys(companyId, id), ConsistentRead: true })),
  );
  return out.Item ? toCampaign(out.Item) : null;
};

export const createCampaign = async (c: Campaign): Promise<void> => {
  await mapDynamoErrors(
    () =>
      db().send(
        new PutCommand({ TableName: tableName(), Item: toItem(c), ConditionExpression: 'attribute_not_exists(pk)' }),
      ),
    changedMeanwhile,
  );
};

/** The fields a person edits (and the status and due time their edit implies). */
export const EDITABLE_FIELDS = [
  'name',
  'message1',
  'message2',
  'message3',
  'message4',
  'message5',
  'confirmationMessage1',
  'confirmationMessage2',
  'confirmationMessage3',
  'confirmationMessage4',
  'confirmationMessage5',
  'status',
  'confirmation',
  'scheduledAt',
  'contactListId',
  'tagListId',
  'whatsappId',
  'userId',
  'queueId',
  'statusTicket',
  'openTicket',
  'mediaKey',
  'mediaName',
  'mediaType',
  'mediaSize',
  'lastError',
  'phase',
  'audienceCursor',
  'sendCursor',
  'dueAt',
  'updatedAt',
] as const satisfies readonly (keyof Campaign)[];

/**
 * Writes the editable fields of `next` if the campaign is still as read (`updatedAt`, `status`); the
 * counters and the wave state stay as the senders left them. Conflict otherwise.
 */
export const saveCampaignAsRead = async (current: Campaign, next: Campaign): Promise<void> => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':seen': current.updatedAt, ':status': current.status };
  const sets: string[] = [];
  const removes: string[] = [];
  for (const [i, field] of EDITABLE_FIELDS.entries()) {
    names[`#f${i}`] = field;
    const value = next[field];
    if (value === null) removes.push(`#f${i}`);
    else {
      sets.push(`#f${i} = :v${i}`);
      values[`:v${i}`] = value;
    }
  }
  names['#g1'] = 'gsi1sk';
  sets.push('#g1 = :g1');
  values[':g1'] = `${searchForm(next.name) || '~'}#${pad(next.id)}`;
  if (next.dueAt) {
    const due = dueKeys(next.companyId, next.id, next.dueAt);
    sets.push('gsi4pk = :g4pk', 'gsi4sk = :g4sk');
    values[':g4pk'] = due.gsi4pk;
    values[':g4sk'] = due.gsi4sk;
  } else removes.push('gsi4pk', 'gsi4sk');
  names['#status'] = 'status';
  names['#updatedAt'] = 'updatedAt';
  await mapDynamoErrors(
    () =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: campaignKeys(current.companyId, current.id),
          UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
          ConditionExpression: '#updatedAt = :seen AND #status = :status',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      ),
    changedMeanwhile,
  );
};

export const deleteCampaign = async (current: Campaign): Promise<void> => {
  await mapDynamoErrors(
    () =>
      db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: campaignKeys(current.companyId, current.id),
          ConditionExpression: 'attribute_exists(pk)',
        }),
      ),
    campaignNotFound,
  );
};

/** A page of the company's campaigns: newest first, or by name prefix (`search`). O(page). */
export const listCampaigns = async (
  companyId: number,
  q: { search?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<Page<Campaign>> => {
  const partition = campaignPartition(companyId);
  const page = q.search
    ? await queryPage<Record<string, unknown>>({
        scope: `${partition}#S#${searchForm(q.search)}`,
        index: 'gsi1',
        partition,
        sortPrefix: searchForm(q.search),
        limit: q.limit,
        cursor: q.cursor,
      })
    : await queryPage<Record<string, unknown>>({
        scope: `${partition}#ID`,
        partition,
        sortPrefix: 'CAMPAIGN#',
        limit: q.limit,
        cursor: q.cursor,
        descending: true,
      });
  return { ...page, items: page.items.map(toCampaign) };
};

// ------------------------------------------------------------------------------------ state changes

interface Change {
  set?: Record<string, unknown>;
  remove?: string[];
  add?: Record<string, number>;
  /** Condition over attribute placeholders `#name` of the set/add/remove names or of `names`. */
  condition?: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

/** One UpdateItem's parts: every attribute named through a placeholder, due keys kept in step with `dueAt`. */
const updateParts = (companyId: number, id: number, change: Change) => {
  const names: Record<string, string> = { ...change.names };
  const values: Record<string, unknown> = { ...change.values };
  const sets: string[] = [];
  const adds: string[] = [];
  const removes: string[] = [];
  const set = { ...change.set };
  const remove = [...(change.remove ?? [])];
  if ('dueAt' in set) {
    const dueAt = set.dueAt as string | null;
    if (dueAt) Object.assign(set, dueKeys(companyId, id, dueAt));
    else {
      delete set.dueAt;
      remove.push('dueAt', 'gsi4pk', 'gsi4sk');
    }
  }
  for (const [k, v] of Object.entries(set)) {
    names[`#s_${k}`] = k;
    if (v === null) removes.push(`#s_${k}`);
    else {
      values[`:s_${k}`] = v;
      sets.push(`#s_${k} = :s_${k}`);
    }
  }
  for (const k of remove) {
    names[`#r_${k}`] = k;
    removes.push(`#r_${k}`);
  }
  for (const [k, v] of Object.entries(change.add ?? {})) {
    names[`#a_${k}`] = k;
    values[`:a_${k}`] = v;
    adds.push(`#a_${k} :a_${k}`);
  }
  const expression = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    adds.length ? `ADD ${adds.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    Key: campaignKeys(companyId, id),
    UpdateExpression: expression,
    ...(change.condition ? { ConditionExpression: change.condition } : {}),
    ExpressionAttributeNames: names,
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  };
};

/** One conditional update of the campaign; `false` when its condition failed (or it is gone). */
export const updateCampaign = async (companyId: number, id: number, change: Change): Promise<boolean> => {
  try {
    await withRetry(HOT_ITEM, () =>
      mapDynamoErrors(
        () => db().send(new UpdateCommand({ TableName: tableName(), ...updateParts(companyId, id, change) })),
        changedMeanwhile,
      ),
    );
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};

/** The campaign's update as a transaction item (its counters move with a shipment's state). */
export const campaignUpdateItem = (companyId: number, id: number, change: Change): TransactItem => ({
  Update: updateParts(companyId, id, change),
});

// ----------------------------------------------------------------------------------------- shipments

const SHIP_NULLABLE = [
  'contactId',
  'claimToken',
  'claimedAt',
  'ticketId',
  'deliveredAt',
  'confirmationRequestedAt',
  'confirmedAt',
  'readAt',
  'repliedAt',
  'error',
  'isWhatsappValid',
] as const;

const toShipment = (item: Record<string, unknown>): Shipment => {
  const { pk: _pk, sk: _sk, type: _t, ...rest } = item;
  const nulls = Object.fromEntries(SHIP_NULLABLE.map((k) => [k, null]));
  return { ...nulls, ...rest } as unknown as Shipment;
};

/** A new shipment's Put: only if the number has none in this campaign yet. */
export const shipmentPutItem = (s: Shipment): TransactItem => ({
  Put: {
    Item: {
      ...shipmentKeys(s.companyId, s.campaignId, s.number),
      type: 'CAMPAIGNSHIP',
      ...Object.fromEntries(Object.entries(s).filter(([, v]) => v !== null)),
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

export const getShipment = async (companyId: number, campaignId: number, number: string): Promise<Shipment | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new GetCommand({
        TableName: tableName(),
        Key: shipmentKeys(companyId, campaignId, number),
        ConsistentRead: true,
      }),
    ),
  );
  return out.Item ? toShipment(out.Item) : null;
};

/**
 * The next shipments after `after` (a shipment sort key) that still wait for their first send: PENDING, or
 * SENDING with a claim older than `staleBefore` (its sender died). Examines at most `limit` items; answers
 * them and the last sort key examined (null at the end of the partition).
 */
export const listWaitingShipments = async (
  companyId: number,
  campaignId: number,
  after: string | null,
  limit: number,
  staleBefore: string,
): Promise<{ items: Shipment[]; last: string | null; more: boolean }> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: after ? 'pk = :pk AND sk > :after' : 'pk = :pk AND begins_with(sk, :ship)',
        FilterExpression: '#status = :pending OR (#status = :sending AND claimedAt < :stale)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':pk': shipmentPartition(companyId, campaignId),
          ...(after ? { ':after': after } : { ':ship': 'SHIP#' }),
          ':pending': 'PENDING',
          ':sending': 'SENDING',
          ':stale': staleBefore,
        },
        ConsistentRead: true,
        Limit: limit,
      }),
    ),
  );
  const last = out.LastEvaluatedKey ? String(out.LastEvaluatedKey.sk) : null;
  const items = (out.Items ?? []).map(toShipment);
  return { items, last: last ?? (items.length ? `SHIP#${items[items.length - 1]!.number}` : after), more: !!last };
};

/**
 * Claims a shipment for its send: PENDING, or SENDING with a stale claim. Answers the claimed shipment, or
 * null when another run holds it or it is done.
 */
export const claimShipment = async (
  companyId: number,
  campaignId: number,
  number: string,
  token: string,
  now: string,
  staleBefore: string,
): Promise<Shipment | null> => {
  try {
    const out = await mapDynamoErrors(
      () =>
        db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: shipmentKeys(companyId, campaignId, number),
            UpdateExpression: 'SET #status = :sending, claimToken = :token, claimedAt = :now',
            ConditionExpression:
              'attribute_exists(pk) AND (#status = :pending OR (#status = :sending AND claimedAt < :stale))',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':sending': 'SENDING',
              ':pending': 'PENDING',
              ':token': token,
              ':now': now,
              ':stale': staleBefore,
            },
            ReturnValues: 'ALL_NEW',
          }),
        ),
      () => new Conflict(),
    );
    return out.Attributes ? toShipment(out.Attributes) : null;
  } catch (err) {
    if (err instanceof Conflict) return null;
    throw err;
  }
};

/** A shipment's update as a transaction item, conditional on `condition`. */
export const shipmentUpdateItem = (
  s: Pick<Shipment, 'companyId' | 'campaignId' | 'number'>,
  update: { set?: Record<string, unknown>; remove?: string[]; condition: string; values?: Record<string, unknown> },
): TransactItem => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ...update.values };
  const sets = Object.entries(update.set ?? {}).map(([k, v]) => {
    names[`#s_${k}`] = k;
    values[`:s_${k}`] = v;
    return `#s_${k} = :s_${k}`;
  });
  const removes = (update.remove ?? []).map((k) => {
    names[`#r_${k}`] = k;
    return `#r_${k}`;
  });
  for (const m of update.condition.matchAll(/#(\w+)/g)) names[`#${m[1]}`] = m[1]!;
  return {
    Update: {
      Key: shipmentKeys(s.companyId, s.campaignId, s.number),
      UpdateExpression: [
        sets.length ? `SET ${sets.join(', ')}` : '',
        removes.length ? `REMOVE ${removes.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join(' '),
      ConditionExpression: update.condition,
      ExpressionAttributeNames: names,
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    },
  };
};

/**
 * The campaign item is hot while it sends: every shipment's final transaction moves its counters, so
 * transactions on it meet (TransactionConflict, a ServiceUnavailable) and are retried here with jittered
 * pauses rather than failing the send back to the queue (whose redelivery waits the visibility timeout).
 */
const HOT_ITEM = { ...BUSY, attempts: 40, pauseMs: (attempt: number) => 10 * Math.min(attempt, 10) };

/** Runs a transaction; `false` when a condition failed (another run did it first). */
export const transactOrLose = async (items: TransactItem[]): Promise<boolean> => {
  try {
    await withRetry(HOT_ITEM, () => transactWrite(items));
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};

/** Deletes up to `max` shipments of a deleted campaign; answers how many went (fewer: the end). */
export const purgeShipments = async (companyId: number, campaignId: number, max: number): Promise<number> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': shipmentPartition(companyId, campaignId) },
        ProjectionExpression: 'pk, sk',
        Limit: max,
      }),
    ),
  );
  const keys = (out.Items ?? []).map((i) => ({ pk: String(i.pk), sk: String(i.sk) }));
  await batchWriteAll(keys.map((Key) => ({ DeleteRequest: { Key } })));
  return keys.length;
};

// -------------------------------------------------------------------------------------- reply marker

export interface ReplyMarker {
  campaignId: number;
  number: string;
  variant: number;
  /** The contact was asked to confirm and has not answered yet. */
  awaitingConfirmation: boolean;
  /** The provider id of the campaign message (its read ack counts once). */
  providerId: string | null;
}

export const REPLY_MARKER_TTL_SECONDS = 7 * 86_400;

export const replyMarkerPutItem = (companyId: number, contactId: number, marker: ReplyMarker): TransactItem => ({
  Put: {
    Item: {
      ...replyMarkerKeys(companyId, contactId),
      type: 'CAMPAIGNREPLY',
      ...Object.fromEntries(Object.entries(marker).filter(([, v]) => v !== null)),
      ttl: Math.floor(Date.now() / 1000) + REPLY_MARKER_TTL_SECONDS,
    },
  },
});

export const getReplyMarker = async (companyId: number, contactId: number): Promise<ReplyMarker | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: replyMarkerKeys(companyId, contactId) })),
  );
  if (!out.Item) return null;
  const i = out.Item;
  if (typeof i.ttl === 'number' && i.ttl * 1000 < Date.now()) return null;
  return {
    campaignId: Number(i.campaignId),
    number: String(i.number),
    variant: Number(i.variant),
    awaitingConfirmation: i.awaitingConfirmation === true,
    providerId: typeof i.providerId === 'string' ? i.providerId : null,
  };
};

export const deleteReplyMarkerItem = (companyId: number, contactId: number, campaignId: number): TransactItem => ({
  Delete: {
    Key: replyMarkerKeys(companyId, contactId),
    ConditionExpression: 'campaignId = :id',
    ExpressionAttributeValues: { ':id': campaignId },
  },
});

// ------------------------------------------------------------------------------------------ due index

export interface DueCampaign {
  companyId: number;
  id: number;
}

/** Campaigns with a wave due by `until` in one hour bucket (`YYYY-MM-DDTHH`, UTC): every shard, every page. */
export const listDueCampaigns = async (hour: string, until: string): Promise<DueCampaign[]> =>
  (
    await queryDueBucket({
      shards: TIMER_SHARDS,
      partition: (shard) => dueCampaignPartition(hour, shard),
      projection: 'companyId, id',
      until: `${until}~`,
    })
  ).map((i) => ({ companyId: Number(i.companyId), id: Number(i.id) }));
