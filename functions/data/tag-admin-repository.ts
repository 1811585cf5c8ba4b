import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '../shared/errors';
import { db, tableName } from './client';
import { contactKeys, getContact, getContacts, type Contact } from './contact-repository';
import { mapDynamoErrors } from './errors';
import { queryPage, type Page } from './query-page';
import {
  contactTagKeys,
  contactTagPartition,
  getTags,
  listAllTags,
  tagIndexKeys,
  tagKeys,
  type Tag,
} from './tag-repository';
import { transactWrite } from './transactions';
import { ticketTagPartition } from './ticket-tag-repository';

/**
 * Tag administration (administration §2 "Tags and kanban", §7; docs/data-model.md §2.13, §3.8; decisions
 * D100): edit with the index keys kept in step (gsi1 by name, gsi2 only while `kanban`), delete, the
 * contacts of a tag, and the link cleanup a deleted tag leaves to the `tag-removal` job.
 */
export type TagChanges = Partial<
  Pick<
    Tag,
    'name' | 'color' | 'kanban' | 'userId' | 'timeLane' | 'nextLaneId' | 'rollbackLaneId' | 'greetingMessageLane'
  >
>;

const tagNotFound = () => new NotFound('ERR_NO_TAG_FOUND', 'Tag not found');

/** Applies `changes` to a stored tag (404 when it is gone); answers the tag as stored afterwards. */
export const updateTag = async (current: Tag, changes: TagChanges): Promise<Tag> => {
  const next: Tag = { ...current, ...changes, updatedAt: new Date().toISOString() };
  const keys = tagIndexKeys(next);
  const sets: string[] = [];
  const values: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  const fields = { ...changes, updatedAt: next.updatedAt, gsi1sk: keys.gsi1sk } as Record<string, unknown>;
  if (keys.gsi2pk !== undefined) Object.assign(fields, { gsi2pk: keys.gsi2pk, gsi2sk: keys.gsi2sk });
  for (const [i, [name, value]] of Object.entries(fields).entries()) {
    names[`#f${i}`] = name;
    values[`:v${i}`] = value;
    sets.push(`#f${i} = :v${i}`);
  }
  const removes = keys.gsi2pk === undefined ? ' REMOVE gsi2pk, gsi2sk' : '';
  await mapDynamoErrors(
    () =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: tagKeys(current.companyId, current.id),
          UpdateExpression: `SET ${sets.join(', ')}${removes}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      ),
    tagNotFound,
  );
  return next;
};

/** Deletes the tag item (404 when already gone). Its links are the removal job's (`removeTagLinks`). */
export const deleteTagItem = async (companyId: number, id: number): Promise<void> => {
  await mapDynamoErrors(
    () =>
      db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: tagKeys(companyId, id),
          ConditionExpression: 'attribute_exists(pk)',
        }),
      ),
    tagNotFound,
  );
};

/**
 * Lanes that point at a tag (`nextLaneId` / `rollbackLaneId`) stop doing so: O(lanes), at most the 1,000
 * lanes `listAllTags` reads. Answers the lanes changed.
 */
export const clearLanePointers = async (companyId: number, tagId: number): Promise<Tag[]> => {
  const changed: Tag[] = [];
  for (const lane of await listAllTags(companyId, true)) {
    const changes: TagChanges = {
      ...(lane.nextLaneId === tagId ? { nextLaneId: null } : {}),
      ...(lane.rollbackLaneId === tagId ? { rollbackLaneId: null } : {}),
    };
    if (Object.keys(changes).length === 0) continue;
    try {
      changed.push(await updateTag(lane, changes));
    } catch (err) {
      if (!(err instanceof NotFound)) throw err;
    }
  }
  return changed;
};

/** One page of a tag's contacts by name (gsi1 `C#<c>#TAGCT#<tagId>`), deleted and merged ones left out. */
export const listContactsOfTag = async (
  companyId: number,
  tagId: number,
  limit: number,
  cursor: string | undefined,
): Promise<Page<Contact>> => {
  const partition = contactTagPartition(companyId, tagId);
  const page = await queryPage<Record<string, unknown>>({ scope: partition, index: 'gsi1', partition, limit, cursor });
  const contacts = await getContacts(
    companyId,
    page.items.map((i) => Number(i.contactId)),
  );
  return {
    ...page,
    items: page.items.flatMap((i) => {
      const c = contacts.get(Number(i.contactId));
      return c && !c.deletedAt && !c.mergedInto ? [c] : [];
    }),
  };
};

/**
 * Removes one contact's link to a tag (`DELETE /tags-contacts/{tagId}/{contactId}`, and the deleted tag's
 * cleanup): the link, the id in `CONTACT.tagIds` (conditional on the contact as read) and the tag's count
 * (while the tag lives), in one transaction. 409 ERR_CONFLICT when the contact changed meanwhile.
 */
export const removeContactTag = async (
  companyId: number,
  contactId: number,
  tagId: number,
): Promise<Contact | null> => {
  const contact = await getContact(companyId, contactId);
  const linkKey = contactTagKeys(companyId, contactId, tagId);
  if (!contact) {
    await mapDynamoErrors(() => db().send(new DeleteCommand({ TableName: tableName(), Key: linkKey })));
    return null;
  }
  const link = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: linkKey, ConsistentRead: true })),
  );
  const listed = (contact.tagIds ?? []).includes(tagId);
  if (!link.Item && !listed) return contact;
  const live = (await getTags(companyId, [tagId])).length > 0;
  const now = new Date().toISOString();
  const tagIds = (contact.tagIds ?? []).filter((t) => t !== tagId);
  await transactWrite(
    [
      { Delete: { Key: linkKey } },
      ...(live && link.Item
        ? [
            {
              Update: {
                Key: tagKeys(companyId, tagId),
                UpdateExpression: 'ADD contactCount :minus',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':minus': -1 },
              },
            },
          ]
        : []),
      {
        Update: {
          Key: contactKeys(companyId, contactId),
          UpdateExpression: 'SET tagIds = :tags, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND updatedAt = :seen',
          ExpressionAttributeValues: { ':tags': tagIds, ':now': now, ':seen': contact.updatedAt },
        },
      },
    ],
    () => new Conflict('ERR_CONFLICT', 'The contact changed meanwhile, reload and try again'),
  );
  return { ...contact, tagIds, updatedAt: now };
};

/** Up to `limit` contact ids still linked to a tag (gsi1, for the removal job). */
export const contactIdsOfTag = async (companyId: number, tagId: number, limit: number): Promise<number[]> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': contactTagPartition(companyId, tagId) },
        ProjectionExpression: 'contactId',
        Limit: limit,
      }),
    ),
  );
  return (out.Items ?? []).map((i) => Number(i.contactId));
};

/** Up to `limit` ticket ids still linked to a tag (gsi5, for the removal job). */
export const ticketIdsOfTag = async (companyId: number, tagId: number, limit: number): Promise<number[]> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi5',
        KeyConditionExpression: 'gsi5pk = :pk',
        ExpressionAttributeValues: { ':pk': ticketTagPartition(companyId, tagId) },
        ProjectionExpression: 'ticketId',
        Limit: limit,
      }),
    ),
  );
  return (out.Items ?? []).map((i) => Number(i.ticketId));
};
