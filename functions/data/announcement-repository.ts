import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NotFound } from '../shared/errors';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { createItem } from './create-items';
import { mapDynamoErrors } from './errors';
import { pad, searchForm } from './keys';
import { queryPage, type Page } from './query-page';

/**
 * Announcements (docs/data-model.md §1.3, §2.25, §3.10; decisions D144): platform items the owner writes
 * for every company. `pk = ANNOUNCEMENT, sk = ANNOUNCEMENT#<pad id>` (ids from the platform counter
 * `announcement`); the owner's list by title on gsi1 `ANNOUNCEMENT` → `<searchForm title>#<pad id>`.
 * `mediaPath` holds the image's media key (`platform/announcements/<id>/<uuid>.<ext>`).
 */
export interface Announcement {
  id: number;
  title: string;
  text: string;
  priority: 1 | 2 | 3;
  status: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: string;
  updatedAt: string;
}

export const ANNOUNCEMENT_PARTITION = 'ANNOUNCEMENT';
export const announcementKeys = (id: number) => ({ pk: ANNOUNCEMENT_PARTITION, sk: `ANNOUNCEMENT#${pad(id)}` });
const indexKeys = (a: Pick<Announcement, 'id' | 'title'>) => ({
  gsi1pk: ANNOUNCEMENT_PARTITION,
  gsi1sk: `${searchForm(a.title)}#${pad(a.id)}`,
});

const toAnnouncement = (item: Record<string, unknown>): Announcement => ({
  id: Number(item.id),
  title: String(item.title),
  text: String(item.text),
  priority: Number(item.priority) as Announcement['priority'],
  status: item.status === true,
  mediaPath: typeof item.mediaPath === 'string' ? item.mediaPath : null,
  mediaName: typeof item.mediaName === 'string' ? item.mediaName : null,
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

export const announcementNotFound = () => new NotFound('ERR_NO_ANNOUNCEMENT_FOUND', 'Announcement not found');

export const createAnnouncement = async (
  input: Pick<Announcement, 'title' | 'text' | 'priority' | 'status'>,
): Promise<Announcement> => {
  const id = await nextId(null, 'announcement');
  const now = new Date().toISOString();
  const a: Announcement = { id, ...input, mediaPath: null, mediaName: null, createdAt: now, updatedAt: now };
  await createItem({ ...announcementKeys(id), ...indexKeys(a), type: 'ANNOUNCEMENT', ...a });
  return a;
};

export const getAnnouncement = async (id: number): Promise<Announcement | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: announcementKeys(id), ConsistentRead: true })),
  );
  return out.Item ? toAnnouncement(out.Item) : null;
};

export type AnnouncementChanges = Partial<
  Pick<Announcement, 'title' | 'text' | 'priority' | 'status' | 'mediaPath' | 'mediaName'>
>;

/** Applies the changes to the announcement as read (`updatedAt`): 404 when it is gone, 409 when it moved. */
export const updateAnnouncement = async (
  current: Announcement,
  changes: AnnouncementChanges,
): Promise<Announcement> => {
  const next: Announcement = { ...current, ...changes, updatedAt: new Date().toISOString() };
  const fields: Record<string, unknown> = { ...changes, updatedAt: next.updatedAt, ...indexKeys(next) };
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':seen': current.updatedAt };
  const sets = Object.entries(fields).map(([k, v], i) => {
    names[`#f${i}`] = k;
    values[`:f${i}`] = v;
    return `#f${i} = :f${i}`;
  });
  await mapDynamoErrors(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: announcementKeys(current.id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk) AND updatedAt = :seen',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    ),
  );
  return next;
};

export const deleteAnnouncement = async (id: number): Promise<void> => {
  await mapDynamoErrors(
    () =>
      db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: announcementKeys(id),
          ConditionExpression: 'attribute_exists(pk)',
        }),
      ),
    announcementNotFound,
  );
};

/** The owner's list: a page by title, optionally by title prefix. O(page). */
export const listAnnouncements = async (q: {
  search?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}): Promise<Page<Announcement>> => {
  const prefix = q.search ? searchForm(q.search) : '';
  const page = await queryPage<Record<string, unknown>>({
    scope: `${ANNOUNCEMENT_PARTITION}#${prefix}`,
    index: 'gsi1',
    partition: ANNOUNCEMENT_PARTITION,
    sortPrefix: prefix || undefined,
    limit: q.limit,
    cursor: q.cursor,
  });
  return { ...page, items: page.items.map(toAnnouncement) };
};

/** The active announcements (what the top bar shows), at most `cap`: one Query of the small partition. */
export const listActiveAnnouncements = async (cap = 100): Promise<Announcement[]> => {
  const found: Announcement[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          FilterExpression: '#status = :true',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':pk': ANNOUNCEMENT_PARTITION, ':true': true },
          ScanIndexForward: false,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    found.push(...(out.Items ?? []).map(toAnnouncement));
    startKey = out.LastEvaluatedKey;
  } while (startKey && found.length < cap);
  return found.slice(0, cap);
};
