import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '../shared/errors';
import { batchWriteAll } from './batch-write';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { mapDynamoErrors } from './errors';
import { company, pad, searchForm } from './keys';
import { queryPage, type Page } from './query-page';
import { transactWrite, type TransactItem } from './transactions';

/**
 * Contact lists and their items (docs/data-model.md §2.24, §3.9; decisions D122):
 * - list `pk = C#<c>#CONTACTLIST, sk = CONTACTLIST#<pad id>`, by name on gsi1 `C#<c>#CONTACTLIST` →
 *   `<sf name>#<pad id>`; `contactsCount` moves in the same transaction as every item write, so it is exact;
 * - item `pk = C#<c>#CONTACTLIST#<pad listId>, sk = NUM#<number>`: keyed by the number inside the list, so a
 *   number is once per list (409 ERR_DUPLICATED_CONTACT) and a campaign reading the list never sends twice
 *   to it; by name on gsi1 `C#<c>#CONTACTLIST#<pad listId>#NAME` → `<sf name>#<pad itemId>`; by id on gsi2
 *   `C#<c>#CLITEM#<pad itemId>` → `CLITEM` (routes name an item by id alone).
 */
export interface ContactList {
  id: number;
  companyId: number;
  name: string;
  contactsCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface ContactListItem {
  id: number;
  companyId: number;
  contactListId: number;
  name: string;
  /** Digits with country code (the import's normal form, D105). */
  number: string;
  email: string;
  /** Null until the connection's driver answered (decisions D122). */
  isWhatsappValid: boolean | null;
  /** `<importId>#<row>` for items an import made: a replayed chunk knows its own rows. */
  importRef?: string;
  createdAt: string;
  updatedAt: string;
}

export const contactListPartition = (companyId: number): string => `${company(companyId)}#CONTACTLIST`;
export const contactListKeys = (companyId: number, id: number) => ({
  pk: contactListPartition(companyId),
  sk: `CONTACTLIST#${pad(id)}`,
});
const listIndexKeys = (l: Pick<ContactList, 'companyId' | 'id' | 'name'>) => ({
  gsi1pk: contactListPartition(l.companyId),
  gsi1sk: `${searchForm(l.name)}#${pad(l.id)}`,
});

export const itemPartition = (companyId: number, listId: number): string =>
  `${contactListPartition(companyId)}#${pad(listId)}`;
export const contactListItemKeys = (companyId: number, listId: number, number: string) => ({
  pk: itemPartition(companyId, listId),
  sk: `NUM#${number}`,
});
const itemNamePartition = (companyId: number, listId: number) => `${itemPartition(companyId, listId)}#NAME`;
const itemIndexKeys = (i: Pick<ContactListItem, 'companyId' | 'contactListId' | 'id' | 'name'>) => ({
  gsi1pk: itemNamePartition(i.companyId, i.contactListId),
  gsi1sk: `${searchForm(i.name)}#${pad(i.id)}`,
  gsi2pk: `${company(i.companyId)}#CLITEM#${pad(i.id)}`,
  gsi2sk: 'CLITEM',
});

const strip = (item: Record<string, unknown>): Record<string, unknown> => {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, type: _t, ...rest } = item;
  return rest;
};
const toList = (item: Record<string, unknown>): ContactList => strip(item) as unknown as ContactList;
const toItem = (item: Record<string, unknown>): ContactListItem => {
  const rest = strip(item) as unknown as ContactListItem;
  return { ...rest, isWhatsappValid: rest.isWhatsappValid ?? null };
};

export const contactListNotFound = () => new NotFound('ERR_NO_CONTACTLIST_FOUND', 'Contact list not found');
export const contactListItemNotFound = () => new NotFound('ERR_NO_CONTACTLISTITEM_FOUND', 'Contact not found');
export const duplicatedContact = () =>
  new Conflict('ERR_DUPLICATED_CONTACT', 'Já existe um contato com este número nesta lista');
const listChangedMeanwhile = () => new Conflict('ERR_CONFLICT', 'The contact list changed meanwhile, reload it');

/** The list must still be there when an item write lands; its count moves with it. */
const countMove = (companyId: number, listId: number, by: number): TransactItem => ({
  Update: {
    Key: contactListKeys(companyId, listId),
    UpdateExpression: 'ADD contactsCount :by',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':by': by },
  },
});

// ------------------------------------------------------------------------------------------- lists

export const createContactList = async (companyId: number, name: string): Promise<ContactList> => {
  const id = await nextId(companyId, 'contactList');
  const now = new Date().toISOString();
  const list: ContactList = { id, companyId, name, contactsCount: 0, createdAt: now, updatedAt: now };
  await transactWrite([
    {
      Put: {
        Item: { ...contactListKeys(companyId, id), ...listIndexKeys(list), type: 'CONTACTLIST', ...list },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
  return list;
};

export const getContactList = async (companyId: number, id: number): Promise<ContactList | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: contactListKeys(companyId, id), ConsistentRead: true })),
  );
  return out.Item ? toList(out.Item) : null;
};

export const renameContactList = async (current: ContactList, name: string): Promise<ContactList> => {
  const next: ContactList = { ...current, name, updatedAt: new Date().toISOString() };
  const out = await mapDynamoErrors(
    () =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: contactListKeys(current.companyId, current.id),
          UpdateExpression: 'SET #name = :name, updatedAt = :now, gsi1sk = :sk',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#name': 'name' },
          ExpressionAttributeValues: { ':name': name, ':now': next.updatedAt, ':sk': listIndexKeys(next).gsi1sk },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    contactListNotFound,
  );
  return toList(out.Attributes!);
};

/** Deletes the list item only; its items go by the `contact-list-removal` job (bounded passes). */
export const deleteContactList = async (current: ContactList): Promise<void> => {
  await transactWrite(
    [
      {
        Delete: {
          Key: contactListKeys(current.companyId, current.id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
    ],
    listChangedMeanwhile,
  );
};

/** A page of lists by name, optionally by name prefix. O(page). */
export const listContactLists = async (
  companyId: number,
  q: { search?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<Page<ContactList>> => {
  const partition = contactListPartition(companyId);
  const prefix = q.search ? searchForm(q.search) : '';
  const page = await queryPage<Record<string, unknown>>({
    scope: `${partition}#${prefix}`,
    index: 'gsi1',
    partition,
    sortPrefix: prefix || undefined,
    limit: q.limit,
    cursor: q.cursor,
  });
  return { ...page, items: page.items.map(toList) };
};

// ------------------------------------------------------------------------------------------- items

export type NewContactListItem = Pick<ContactListItem, 'contactListId' | 'name' | 'number' | 'email'> & {
  isWhatsappValid?: boolean | null;
  importRef?: string;
};

const itemRecord = (companyId: number, id: number, input: NewContactListItem, now: string): ContactListItem => ({
  id,
  companyId,
  contactListId: input.contactListId,
  name: input.name,
  number: input.number,
  email: input.email,
  isWhatsappValid: input.isWhatsappValid ?? null,
  ...(input.importRef ? { importRef: input.importRef } : {}),
  createdAt: now,
  updatedAt: now,
});

const itemPut = (item: ContactListItem): TransactItem => ({
  Put: {
    Item: {
      ...contactListItemKeys(item.companyId, item.contactListId, item.number),
      ...itemIndexKeys(item),
      type: 'CLITEM',
      ...item,
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** Which write of a transaction failed: the item's key (duplicate number) or the list (gone). */
const itemConflict =
  (itemAt: number) =>
  ({ reasons }: { reasons?: (string | undefined)[] }) =>
    reasons?.[itemAt] === 'ConditionalCheckFailed' ? duplicatedContact() : contactListNotFound();

/**
 * Creates an item and counts it on its list in one transaction: a number already in the list is 409
 * ERR_DUPLICATED_CONTACT, a list that is gone 404. `id` is given by imports (range-allocated).
 */
export const createContactListItem = async (
  companyId: number,
  input: NewContactListItem,
  id?: number,
): Promise<ContactListItem> => {
  const itemId = id ?? (await nextId(companyId, 'contactListItem'));
  const item = itemRecord(companyId, itemId, input, new Date().toISOString());
  await transactWrite([itemPut(item), countMove(companyId, input.contactListId, 1)], itemConflict(0));
  return item;
};

/**
 * An import chunk's new items, each `Put (attribute_not_exists)` without the count: the job moves the
 * count once per chunk together with its offset (contact-import-service). Answers the numbers that were
 * already in the list.
 */
export const putImportedItem = async (companyId: number, item: NewContactListItem, id: number): Promise<boolean> => {
  const record = itemRecord(companyId, id, item, new Date().toISOString());
  try {
    await transactWrite([itemPut(record)], () => duplicatedContact());
    return true;
  } catch (err) {
    if (err instanceof Conflict && err.code === 'ERR_DUPLICATED_CONTACT') return false;
    throw err;
  }
};

/** The items of these numbers in the list (a consistent read per number; an import's chunk). */
export const getItemsByNumbers = async (
  companyId: number,
  listId: number,
  numbers: readonly string[],
): Promise<Map<string, ContactListItem>> => {
  const found = new Map<string, ContactListItem>();
  await Promise.all(
    numbers.map(async (number) => {
      const item = await getItemByNumber(companyId, listId, number);
      if (item) found.set(number, item);
    }),
  );
  return found;
};

export const getItemByNumber = async (
  companyId: number,
  listId: number,
  number: string,
): Promise<ContactListItem | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new GetCommand({
        TableName: tableName(),
        Key: contactListItemKeys(companyId, listId, number),
        ConsistentRead: true,
      }),
    ),
  );
  return out.Item ? toItem(out.Item) : null;
};

/** An item by its id: gsi2 names its list and number, then a consistent Get reads it. */
export const getContactListItem = async (companyId: number, id: number): Promise<ContactListItem | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk = :sk',
        ExpressionAttributeValues: { ':pk': `${company(companyId)}#CLITEM#${pad(id)}`, ':sk': 'CLITEM' },
        Limit: 1,
      }),
    ),
  );
  const hit = out.Items?.[0];
  if (!hit) return null;
  return getItemByNumber(companyId, Number(hit.contactListId), String(hit.number));
};

export type ContactListItemChanges = Partial<Pick<ContactListItem, 'name' | 'number' | 'email' | 'isWhatsappValid'>>;

/**
 * Changes an item, conditional on it being as read (`updatedAt`). A new number moves the item to its new
 * key (transaction Delete old + Put new, data-model §2.24); a number already in the list is 409.
 */
export const updateContactListItem = async (
  current: ContactListItem,
  changes: ContactListItemChanges,
): Promise<ContactListItem> => {
  const next: ContactListItem = { ...current, ...changes, updatedAt: new Date().toISOString() };
  const oldKey = contactListItemKeys(current.companyId, current.contactListId, current.number);
  if (next.number === current.number) {
    await transactWrite(
      [
        {
          Put: {
            Item: { ...oldKey, ...itemIndexKeys(next), type: 'CLITEM', ...next },
            ConditionExpression: 'attribute_exists(pk) AND updatedAt = :seen',
            ExpressionAttributeValues: { ':seen': current.updatedAt },
          },
        },
      ],
      () => new Conflict('ERR_CONFLICT', 'The contact changed meanwhile, reload it'),
    );
    return next;
  }
  await transactWrite(
    [
      itemPut(next),
      {
        Delete: {
          Key: oldKey,
          ConditionExpression: 'attribute_exists(pk) AND updatedAt = :seen',
          ExpressionAttributeValues: { ':seen': current.updatedAt },
        },
      },
    ],
    ({ reasons }) =>
      reasons?.[0] === 'ConditionalCheckFailed'
        ? duplicatedContact()
        : new Conflict('ERR_CONFLICT', 'The contact changed meanwhile, reload it'),
  );
  return next;
};

/** Deletes an item and uncounts it from its list in one transaction. */
export const deleteContactListItem = async (current: ContactListItem): Promise<void> => {
  await transactWrite(
    [
      {
        Delete: {
          Key: contactListItemKeys(current.companyId, current.contactListId, current.number),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      countMove(current.companyId, current.contactListId, -1),
    ],
    () => contactListItemNotFound(),
  );
};

/** A page of a list's items by name (or name prefix), or by number prefix for a digits-only search. O(page). */
export const listContactListItems = async (
  companyId: number,
  listId: number,
  q: { search?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<Page<ContactListItem>> => {
  const search = q.search?.trim() ?? '';
  const digits = /^\+?[\d\s()-]+$/.test(search) ? search.replace(/\D/g, '') : '';
  if (digits) {
    const partition = itemPartition(companyId, listId);
    const page = await queryPage<Record<string, unknown>>({
      scope: `${partition}#NUM#${digits}`,
      partition,
      sortPrefix: `NUM#${digits}`,
      limit: q.limit,
      cursor: q.cursor,
    });
    return { ...page, items: page.items.map(toItem) };
  }
  const partition = itemNamePartition(companyId, listId);
  const prefix = search ? searchForm(search) : '';
  const page = await queryPage<Record<string, unknown>>({
    scope: `${partition}#${prefix}`,
    index: 'gsi1',
    partition,
    sortPrefix: prefix || undefined,
    limit: q.limit,
    cursor: q.cursor,
  });
  return { ...page, items: page.items.map(toItem) };
};

/** Moves a list's count by what an import chunk created (with the chunk's offset, in one transaction). */
export const contactListCountMove = countMove;

/**
 * One bounded pass of a deleted list's items: up to `max` items deleted (Query then BatchWrite), answering
 * how many went. Idempotent: an item already gone is simply not found again.
 */
export const purgeContactListItems = async (companyId: number, listId: number, max: number): Promise<number> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :num)',
        ExpressionAttributeValues: { ':pk': itemPartition(companyId, listId), ':num': 'NUM#' },
        ProjectionExpression: 'pk, sk',
        Limit: max,
      }),
    ),
  );
  const keys = (out.Items ?? []) as { pk: string; sk: string }[];
  await batchWriteAll(keys.map((Key) => ({ DeleteRequest: { Key: { pk: Key.pk, sk: Key.sk } } })));
  return keys.length;
};

/**
 * What WhatsApp's directory answered for a number of the list (decisions D122): sets `isWhatsappValid` on
 * the item if it is still there with that number; answers the item as it is now, or null when it is gone.
 */
export const setItemWhatsappValid = async (
  companyId: number,
  listId: number,
  number: string,
  valid: boolean,
): Promise<ContactListItem | null> => {
  try {
    const out = await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: contactListItemKeys(companyId, listId, number),
          UpdateExpression: 'SET isWhatsappValid = :valid',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':valid': valid },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return toItem(out.Attributes!);
  } catch (err) {
    if (err instanceof Conflict) return null;
    throw err;
  }
};
