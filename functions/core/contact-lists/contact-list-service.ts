import type {
  ContactListItemPage,
  ContactListPage,
  ContactListView,
  ContactListItemView,
} from '../../contracts/contact-lists';
import {
  contactListItemNotFound,
  contactListNotFound,
  createContactList,
  createContactListItem,
  deleteContactList,
  deleteContactListItem,
  getContactList,
  getContactListItem,
  listContactListItems,
  listContactLists,
  renameContactList,
  updateContactListItem,
  type ContactList,
  type ContactListItem,
  type ContactListItemChanges,
} from '../../data/contact-list-repository';
import type { AuthContext } from '../../shared/auth-context';
import { ValidationError } from '../../shared/errors';
import { importNumber } from '../phone-number';
import { fetchPage, type PagingInput } from '../paging';
import { enqueueContactListRemoval } from './contact-list-removal';
import { announceContactList, toContactListItemView, toContactListView } from './contact-list-events';
import { queueNumberCheck } from './number-check';

/**
 * Contact lists and their items (administration spec "Contact lists", §3, §5, §6, §7; data-model §2.24,
 * §3.9; decisions D122). Admin screens: every route is for admins (the profile user sees no access).
 * - A number is kept in the import's normal form (digits with country code, D105), so `(11) 99999-0000`
 *   and `5511999990000` are one number and a list holds it once (409 ERR_DUPLICATED_CONTACT).
 * - `contactsCount` moves in the same transaction as each item write (and with each import chunk).
 * - Deleting a list deletes the list at once; its items go by the `contact-list-removal` job in bounded passes.
 * Events: `company-{id}-ContactList` and `company-{id}-ContactListItem`, to the company's managers.
 */
export const CONTACT_LIST_PAGE_SIZE = 20;

const visibleList = async (auth: AuthContext, id: number): Promise<ContactList> => {
  const list = await getContactList(auth.companyId, id);
  if (!list) throw contactListNotFound();
  return list;
};

/** An item of a list that still exists (a deleted list's items are gone for everyone, even mid-purge). */
const visibleItem = async (auth: AuthContext, id: number): Promise<ContactListItem> => {
  const item = await getContactListItem(auth.companyId, id);
  if (!item || !(await getContactList(auth.companyId, item.contactListId))) throw contactListItemNotFound();
  return item;
};

/** The number as stored: digits with country code (D105), else a 400 on the field. */
const normalNumber = (raw: string, field: string): string => {
  const number = importNumber(raw);
  if (!number) throw new ValidationError([{ field, reason: 'not a phone number (8 to 20 digits)' }]);
  return number;
};

// ------------------------------------------------------------------------------------------- lists

export const listCompanyContactLists = async (
  auth: AuthContext,
  q: PagingInput & { searchParam?: string | undefined },
): Promise<ContactListPage> => {
  const page = await fetchPage(q, CONTACT_LIST_PAGE_SIZE, (cursor) =>
    listContactLists(auth.companyId, { search: q.searchParam, limit: CONTACT_LIST_PAGE_SIZE, cursor }),
  );
  return {
    records: page.items.map(toContactListView),
    hasMore: page.hasMore,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
};

/** GET /contact-lists/list: every list (a campaign's select), by name; lists are few (O(lists)). */
export const listAllContactLists = async (auth: AuthContext): Promise<ContactListView[]> => {
  const all: ContactListView[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page += 1) {
    const found = await listContactLists(auth.companyId, { limit: 100, cursor });
    all.push(...found.items.map(toContactListView));
    if (!found.hasMore || !found.nextCursor) break;
    cursor = found.nextCursor;
  }
  return all;
};

export const showContactList = async (auth: AuthContext, id: number): Promise<ContactListView> =>
  toContactListView(await visibleList(auth, id));

export const createCompanyContactList = async (auth: AuthContext, name: string): Promise<ContactListView> => {
  const view = toContactListView(await createContactList(auth.companyId, name));
  await announceContactList(auth.companyId, [{ channel: 'ContactList', action: 'create', record: view }]);
  return view;
};

export const renameCompanyContactList = async (
  auth: AuthContext,
  id: number,
  name: string,
): Promise<ContactListView> => {
  const view = toContactListView(await renameContactList(await visibleList(auth, id), name));
  await announceContactList(auth.companyId, [{ channel: 'ContactList', action: 'update', record: view }]);
  return view;
};

export const deleteCompanyContactList = async (auth: AuthContext, id: number): Promise<void> => {
  const list = await visibleList(auth, id);
  await deleteContactList(list);
  await enqueueContactListRemoval({ companyId: auth.companyId, contactListId: id });
  await announceContactList(auth.companyId, [{ channel: 'ContactList', action: 'delete', id }]);
};

// ------------------------------------------------------------------------------------------- items

export const listCompanyContactListItems = async (
  auth: AuthContext,
  q: PagingInput & { searchParam?: string | undefined; contactListId: number },
): Promise<ContactListItemPage> => {
  await visibleList(auth, q.contactListId);
  const page = await fetchPage(q, CONTACT_LIST_PAGE_SIZE, (cursor) =>
    listContactListItems(auth.companyId, q.contactListId, {
      search: q.searchParam,
      limit: CONTACT_LIST_PAGE_SIZE,
      cursor,
    }),
  );
  return {
    contacts: page.items.map(toContactListItemView),
    hasMore: page.hasMore,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
};

export const showContactListItem = async (auth: AuthContext, id: number): Promise<ContactListItemView> =>
  toContactListItemView(await visibleItem(auth, id));

/** Announces the item and its list's new count. */
const announceItem = async (
  auth: AuthContext,
  action: 'create' | 'update',
  item: ContactListItem,
  countChanged: boolean,
): Promise<void> => {
  const list = countChanged ? await getContactList(auth.companyId, item.contactListId) : null;
  await announceContactList(auth.companyId, [
    { channel: 'ContactListItem', action, record: toContactListItemView(item) },
    ...(list ? [{ channel: 'ContactList' as const, action: 'update' as const, record: toContactListView(list) }] : []),
  ]);
};

export const createCompanyContactListItem = async (
  auth: AuthContext,
  input: { name: string; number: string; email?: string | undefined; contactListId: number },
): Promise<ContactListItemView> => {
  await visibleList(auth, input.contactListId);
  const item = await createContactListItem(auth.companyId, {
    contactListId: input.contactListId,
    name: input.name,
    number: normalNumber(input.number, 'body.number'),
    email: input.email ?? '',
  });
  await announceItem(auth, 'create', item, true);
  await queueNumberCheck(auth.companyId, item.contactListId, [item.number]);
  return toContactListItemView(item);
};

export const updateCompanyContactListItem = async (
  auth: AuthContext,
  id: number,
  input: { name?: string | undefined; number?: string | undefined; email?: string | undefined },
): Promise<ContactListItemView> => {
  const current = await visibleItem(auth, id);
  const changes: ContactListItemChanges = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.email !== undefined ? { email: input.email } : {}),
  };
  if (input.number !== undefined) {
    const number = normalNumber(input.number, 'body.number');
    if (number !== current.number) Object.assign(changes, { number, isWhatsappValid: null });
  }
  const item = await updateContactListItem(current, changes);
  await announceItem(auth, 'update', item, false);
  if (item.number !== current.number) await queueNumberCheck(auth.companyId, item.contactListId, [item.number]);
  return toContactListItemView(item);
};

export const deleteCompanyContactListItem = async (auth: AuthContext, id: number): Promise<void> => {
  const current = await visibleItem(auth, id);
  await deleteContactListItem(current);
  const list = await getContactList(auth.companyId, current.contactListId);
  await announceContactList(auth.companyId, [
    { channel: 'ContactListItem', action: 'delete', id, contactListId: current.contactListId },
    ...(list ? [{ channel: 'ContactList' as const, action: 'update' as const, record: toContactListView(list) }] : []),
  ]);
};
