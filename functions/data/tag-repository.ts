import {
  BatchGetCommand,
  GetCommand,
  QueryCommand,
  UpdateCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '../shared/errors';
import { db, tableName } from './client';
import { transactWrite, type TransactItem } from './transactions';
import { contactKeys, contactPartition, type Contact, type ContactChannel } from './contact-repository';
import { nextId } from './counter-repository';
import { createItem } from './create-items';
import { decodeCursor, encodeCursor } from './cursor';
import { mapDynamoErrors } from './errors';
import { company, pad, searchForm } from './keys';
import { queryPage, type Page } from './query-page';

/**
 * Tag: `pk = C#<c>#TAG, sk = TAG#<pad id>`; every tag on gsi1 (`C#<c>#TAG`, `<searchForm name>#<pad id>`)
 * for the name-ordered, prefix-searchable list; kanban tags also on sparse gsi2 (`C#<c>#TAGKANBAN`, same
 * sort key) so the kanban lanes are one Query.
 */
export interface Tag {
  id: number;
  companyId: number;
  name: string;
  color: string;
  kanban: 0 | 1;
  userId: number | null;
  timeLane: number | null;
  nextLaneId: number | null;
  rollbackLaneId: number | null;
  greetingMessageLane: string;
  /** Links to contacts and to tickets, moved in the link transactions (decisions D100). */
  contactCount: number;
  ticketCount: number;
  createdAt: string;
  updatedAt: string;
}

export const tagKeys = (companyId: number, id: number) => ({ pk: `${company(companyId)}#TAG`, sk: `TAG#${pad(id)}` });

export const tagIndexKeys = (t: Pick<Tag, 'companyId' | 'id' | 'name' | 'kanban'>) => {
  const sort = `${searchForm(t.name)}#${pad(t.id)}`;
  return {
    gsi1pk: `${company(t.companyId)}#TAG`,
    gsi1sk: sort,
    ...(t.kanban === 1 ? { gsi2pk: `${company(t.companyId)}#TAGKANBAN`, gsi2sk: sort } : {}),
  };
};

const toTag = (item: Record<string, unknown>): Tag => {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, type: _t, ...rest } = item;
  const tag = rest as unknown as Tag;
  // Counts never go below zero on the wire (a link removed twice by racing cleanups is counted once).
  return { ...tag, contactCount: Math.max(0, tag.contactCount ?? 0), ticketCount: Math.max(0, tag.ticketCount ?? 0) };
};

export type NewTag = Pick<Tag, 'name' | 'color' | 'kanban'> &
  Partial<Omit<Tag, 'id' | 'companyId' | 'createdAt' | 'updatedAt' | 'contactCount' | 'ticketCount'>>;

export const createTag = async (companyId: number, input: NewTag): Promise<Tag> => {
  const id = await nextId(companyId, 'tag');
  const now = new Date().toISOString();
  const tag: Tag = {
    userId: null,
    timeLane: null,
    nextLaneId: null,
    rollbackLaneId: null,
    greetingMessageLane: '',
    ...input,
    contactCount: 0,
    ticketCount: 0,
    id,
    companyId,
    createdAt: now,
    updatedAt: now,
  };
  await createItem({ ...tagKeys(companyId, id), ...tagIndexKeys(tag), type: 'TAG', ...tag });
  return tag;
};

export const getTag = async (companyId: number, id: number): Promise<Tag | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: tagKeys(companyId, id) })),
  );
  return out.Item ? toTag(out.Item) : null;
};

export interface TagListQuery {
  search?: string | undefined;
  kanbanOnly?: boolean;
  limit: number;
  cursor?: string | undefined;
}

/** Name-ordered page of a company's tags, optionally only kanban lanes and/or by name prefix. O(page). */
export const listTags = async (companyId: number, q: TagListQuery): Promise<Page<Tag>> => {
  const index = q.kanbanOnly ? 'gsi2' : 'gsi1';
  const pk = `${company(companyId)}#${q.kanbanOnly ? 'TAGKANBAN' : 'TAG'}`;
  const prefix = q.search ? searchForm(q.search) : '';
  const page = await queryPage<Record<string, unknown>>({
    scope: `${pk}#${prefix}`,
    index,
    partition: pk,
    sortPrefix: prefix || undefined,
    limit: q.limit,
    cursor: q.cursor,
  });
  return { ...page, items: page.items.map(toTag) };
};

// ------------------------------------------------------------------- contact tag links (decisions D55)

/** Most tags one contact (or one ticket) may carry: keeps a sync inside one transaction. */
export const MAX_TAGS_PER_ITEM = 20;

/** A contact's link to a tag, in the contact's partition, listed per tag on gsi1 by the contact's name. */
export const contactTagKeys = (companyId: number, contactId: number, tagId: number) => ({
  pk: contactPartition(companyId, contactId),
  sk: `TAG#${pad(tagId)}`,
});
export const contactTagPartition = (companyId: number, tagId: number): string =>
  `${company(companyId)}#TAGCT#${pad(tagId)}`;

const contactLinkItem = (contact: Contact, tagId: number) => ({
  ...contactTagKeys(contact.companyId, contact.id, tagId),
  gsi1pk: contactTagPartition(contact.companyId, tagId),
  gsi1sk: `${searchForm(contact.name)}#${pad(contact.id)}`,
  type: 'CONTACT_TAG',
  companyId: contact.companyId,
  contactId: contact.id,
  tagId,
  // Copied so the tag filter of the contacts list can select channel and kind on the link itself.
  channel: contact.channel,
  isGroup: contact.isGroup,
});

/** Several tags of a company by id (missing ones are absent from the answer). */
export const getTags = async (companyId: number, ids: readonly number[]): Promise<Tag[]> => {
  const unique = [...new Set(ids)];
  const found: Tag[] = [];
  for (let i = 0; i < unique.length; i += 100) {
    let pending: Record<string, unknown>[] = unique.slice(i, i + 100).map((id) => tagKeys(companyId, id));
    for (let attempt = 0; pending.length > 0 && attempt < 8; attempt += 1) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      const out = await mapDynamoErrors(() =>
        db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } })),
      );
      found.push(...(out.Responses?.[tableName()] ?? []).map(toTag));
      pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return found;
};

/**
 * What deleting a contact or a ticket does to its tags (decisions D100): one count-down Update per tag of
 * `tagIds` that still exists (a deleted tag's count is gone with it), conditional on it existing, for the
 * delete's own transaction. A tag deleted between this read and the transaction fails the transaction
 * (the caller's conflict), never writes a stub tag.
 */
export const tagCountDowns = async (
  companyId: number,
  tagIds: readonly number[],
  field: 'contactCount' | 'ticketCount',
): Promise<TransactItem[]> =>
  (await getTags(companyId, tagIds)).map((tag) => ({
    Update: {
      Key: tagKeys(companyId, tag.id),
      UpdateExpression: 'ADD #count :minus',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#count': field },
      ExpressionAttributeValues: { ':minus': -1 },
    },
  }));

/** A deleted contact's tag links and counts (decisions D100), for the delete's transaction. */
export const contactUnlinkItems = async (contact: Contact): Promise<TransactItem[]> => [
  ...(contact.tagIds ?? []).map((tagId) => ({ Delete: { Key: contactTagKeys(contact.companyId, contact.id, tagId) } })),
  ...(await tagCountDowns(contact.companyId, contact.tagIds ?? [], 'contactCount')),
];

/** Every tag of the company (or only the kanban lanes), by id; at most `cap` (the picker's list). */
export const listAllTags = async (companyId: number, kanbanOnly: boolean, cap = 1000): Promise<Tag[]> => {
  const tags: Tag[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          ...(kanbanOnly
            ? {
                IndexName: 'gsi2',
                KeyConditionExpression: 'gsi2pk = :pk',
                ExpressionAttributeValues: { ':pk': `${company(companyId)}#TAGKANBAN` },
              }
            : {
                KeyConditionExpression: 'pk = :pk AND begins_with(sk, :tag)',
                ExpressionAttributeValues: { ':pk': `${company(companyId)}#TAG`, ':tag': 'TAG#' },
              }),
          Limit: cap - tags.length,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    tags.push(...(out.Items ?? []).map(toTag));
    startKey = out.LastEvaluatedKey;
  } while (startKey && tags.length < cap);
  return kanbanOnly ? tags.sort((a, b) => a.id - b.id) : tags;
};

/** The tag ids linked to a contact (its partition's `TAG#` items, read consistently). */
export const listContactTagIds = async (companyId: number, contactId: number): Promise<number[]> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :tag)',
        ExpressionAttributeValues: { ':pk': contactPartition(companyId, contactId), ':tag': 'TAG#' },
        ConsistentRead: true,
      }),
    ),
  );
  return (out.Items ?? []).map((i) => Number(i.tagId));
};

/** New tags a sync creates in its own transaction (the contact drawer's inline creation). */
export type InlineTag = Pick<Tag, 'name' | 'color' | 'kanban'>;

/**
 * Replaces a contact's tags (`POST /tags/sync`) in one transaction: new tags are created, links added
 * and removed, `CONTACT.tagIds` set — conditional on the contact being as read (`updatedAt`) and on every
 * added tag existing. Answers the contact as stored afterwards.
 * 409 ERR_CONFLICT when the contact changed meanwhile; 404 ERR_NO_TAG_FOUND when an added tag is gone.
 */
export const syncContactTags = async (
  contact: Contact,
  currentTagIds: readonly number[],
  wantedTagIds: readonly number[],
  newTags: readonly InlineTag[],
  userId: number,
): Promise<{ contact: Contact; created: Tag[] }> => {
  const { companyId } = contact;
  const now = new Date().toISOString();
  const created: Tag[] = [];
  for (const t of newTags) {
    const id = await nextId(companyId, 'tag');
    created.push({
      userId,
      timeLane: null,
      nextLaneId: null,
      rollbackLaneId: null,
      greetingMessageLane: '',
      ...t,
      contactCount: 1,
      ticketCount: 0,
      id,
      companyId,
      createdAt: now,
      updatedAt: now,
    });
  }
  const wanted = [...new Set([...wantedTagIds, ...created.map((t) => t.id)])];
  const current = new Set(currentTagIds);
  const added = wanted.filter((id) => !current.has(id));
  const removed = [...current].filter((id) => !wanted.includes(id));
  const next: Contact = { ...contact, tagIds: wanted, updatedAt: now };
  const createdIds = new Set(created.map((t) => t.id));
  // A deleted tag's links are the removal job's; only live tags count down here.
  const liveRemoved = (await getTags(companyId, removed)).map((t) => t.id);
  await transactWrite(
    [
      ...created.map((tag) => ({
        Put: {
          Item: { ...tagKeys(companyId, tag.id), ...tagIndexKeys(tag), type: 'TAG', ...tag },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      })),
      // Each added tag must exist; its contact count moves with the link (decisions D100).
      ...added
        .filter((id) => !createdIds.has(id))
        .map((id) => ({
          Update: {
            Key: tagKeys(companyId, id),
            UpdateExpression: 'ADD contactCount :one',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':one': 1 },
          },
        })),
      ...liveRemoved.map((id) => ({
        Update: {
          Key: tagKeys(companyId, id),
          UpdateExpression: 'ADD contactCount :minus',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':minus': -1 },
        },
      })),
      ...added.map((id) => ({ Put: { Item: contactLinkItem(next, id) } })),
      ...removed.map((id) => ({
        Delete: { Key: contactTagKeys(companyId, contact.id, id) },
      })),
      {
        Update: {
          Key: contactKeys(companyId, contact.id),
          UpdateExpression: 'SET tagIds = :tags, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt) AND updatedAt = :seen',
          ExpressionAttributeValues: { ':tags': wanted, ':now': now, ':seen': contact.updatedAt },
        },
      },
    ],
    (failure) => {
      const reasons = failure.reasons ?? [];
      return reasons[reasons.length - 1] === 'ConditionalCheckFailed'
        ? new Conflict('ERR_CONFLICT', 'The contact changed meanwhile, reload and try again')
        : new NotFound('ERR_NO_TAG_FOUND', 'Tag not found');
    },
  );
  return { contact: next, created };
};

/**
 * Keeps a renamed contact's links in its new name's place on gsi1 (≤ MAX_TAGS_PER_ITEM writes). Best
 * effort after the rename: a link left behind still filters right, only its order in the tag's list lags.
 */
export const renameContactTagLinks = async (contact: Contact): Promise<void> => {
  await Promise.all(
    contact.tagIds.map((tagId) =>
      mapDynamoErrors(() =>
        db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: contactTagKeys(contact.companyId, contact.id, tagId),
            UpdateExpression: 'SET gsi1sk = :sk',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':sk': `${searchForm(contact.name)}#${pad(contact.id)}` },
          }),
        ),
      ).catch((err: unknown) => {
        if (!(err instanceof Conflict)) throw err;
      }),
    ),
  );
};

const MAX_SUFFIX = '\u{10FFFF}';

export interface ContactsByTagQuery {
  tagIds: number[];
  /** Channel × kind to keep (filters on the link). */
  kinds: { channel: ContactChannel; isGroup: boolean }[];
  /** Search form of a name prefix. */
  namePrefix?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

/**
 * Contacts with any of the tags (`GET /contacts?contactTag=[…]`): a k-way merge of the tags' link
 * partitions on gsi1 (`C#<c>#TAGCT#<tagId>` → `<sf name>#<contactId>`), which share one sort-key space,
 * so a contact with two of the tags appears once and the pages are ordered by name like the plain list
 * (data-model §1.7 merged lists). Each stream reads at most limit + 1 links after the cursor; the page's
 * contacts are then read with one BatchGet. O(k × page). Deleted contacts are dropped from the page.
 */
export const listContactsByTags = async (companyId: number, q: ContactsByTagQuery): Promise<Page<Contact>> => {
  const tagIds = [...new Set(q.tagIds)].sort((a, b) => a - b);
  const scope = `${company(companyId)}#TAGCT#${tagIds.join(',')}#${q.kinds.map((k) => `${k.channel}:${k.isGroup ? 'G' : 'P'}`).join(',')}#${q.namePrefix ?? ''}`;
  const after = q.cursor ? String((await decodeCursor(scope, q.cursor)).after) : undefined;
  const upper = q.namePrefix === undefined ? undefined : `${q.namePrefix}${MAX_SUFFIX}`;
  const lower = after ?? q.namePrefix;
  const inclusive = after !== undefined && upper !== undefined;
  const kindFilter = q.kinds.map((k, i) => `(#channel = :ch${i} AND #isGroup = :g${i})`).join(' OR ');
  const kindValues = Object.fromEntries(
    q.kinds.flatMap((k, i) => [
      [`:ch${i}`, k.channel],
      [`:g${i}`, k.isGroup],
    ]),
  );
  const streams = await Promise.all(
    tagIds.map(async (tagId) => {
      const sort =
        upper !== undefined
          ? { expression: '#sk BETWEEN :lower AND :upper', values: { ':lower': lower, ':upper': upper } }
          : after !== undefined
            ? { expression: '#sk > :lower', values: { ':lower': after } }
            : null;
      const params: QueryCommandInput = {
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: sort ? `#pk = :pk AND ${sort.expression}` : '#pk = :pk',
        ExpressionAttributeNames: {
          '#pk': 'gsi1pk',
          ...(sort ? { '#sk': 'gsi1sk' } : {}),
          '#channel': 'channel',
          '#isGroup': 'isGroup',
        },
        ExpressionAttributeValues: { ':pk': contactTagPartition(companyId, tagId), ...sort?.values, ...kindValues },
        FilterExpression: kindFilter,
        Limit: q.limit + 1 + (inclusive ? 1 : 0),
      };
      const out = await mapDynamoErrors(() => db().send(new QueryCommand(params)));
      return {
        items: ((out.Items ?? []) as Record<string, unknown>[]).filter((i) => i.gsi1sk !== after),
        lastExamined: out.LastEvaluatedKey ? String(out.LastEvaluatedKey.gsi1sk) : undefined,
      };
    }),
  );
  // Links beyond the smallest "last examined" key of an unfinished stream may still miss that stream's.
  const cutoff = streams.flatMap((s) => (s.lastExamined === undefined ? [] : [s.lastExamined])).sort()[0];
  const bySortKey = new Map<string, number>();
  for (const item of streams.flatMap((s) => s.items)) {
    const sk = String(item.gsi1sk);
    if (cutoff === undefined || sk <= cutoff) bySortKey.set(sk, Number(item.contactId));
  }
  const merged = [...bySortKey.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const page = merged.slice(0, q.limit);
  const hasMore = merged.length > q.limit || cutoff !== undefined;
  const last = page.length === q.limit ? page[page.length - 1]![0] : cutoff;
  const contacts = await getContacts(
    companyId,
    page.map(([, id]) => id),
  );
  const byId = new Map(contacts.map((c) => [c.id, c]));
  return {
    items: page.flatMap(([, id]) => {
      const c = byId.get(id);
      return c && !c.deletedAt && !c.mergedInto ? [c] : [];
    }),
    hasMore,
    ...(hasMore && last !== undefined ? { nextCursor: await encodeCursor(scope, { after: last }) } : {}),
  };
};

/** Contacts by id (BatchGet); missing ones are absent. */
const getContacts = async (companyId: number, ids: readonly number[]): Promise<Contact[]> => {
  const found: Contact[] = [];
  for (let i = 0; i < ids.length; i += 100) {
    let pending: Record<string, unknown>[] = ids.slice(i, i + 100).map((id) => contactKeys(companyId, id));
    for (let attempt = 0; pending.length > 0 && attempt < 8; attempt += 1) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      const out = await mapDynamoErrors(() =>
        db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } })),
      );
      for (const item of out.Responses?.[tableName()] ?? []) {
        const {
          pk: _pk,
          sk: _sk,
          gsi1pk: _a,
          gsi1sk: _b,
          gsi2pk: _c,
          gsi2sk: _d,
          type: _t,
          version: _v,
          ...rest
        } = item;
        found.push({ ...(rest as Contact), identities: [] });
      }
      pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return found;
};
